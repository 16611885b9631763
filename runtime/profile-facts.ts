/**
 * Facts read off a profile (contract/profile.ts) that both the runtime and the generator decide
 * by, written once: which units a profile needs, and the retry default.
 */
import type { EndpointInfo, ErrorProfile, Profile } from './contract/profile.js';

/** An endpoint that fills {placeholders} or adds query parameters, through the urlTemplate unit. */
export const isTemplated = (ep: EndpointInfo): boolean => {
  return `${ep.baseUrl}${ep.path}${ep.streamPath}`.includes('{') || ep.query !== undefined || ep.streamQuery !== undefined;
};

/** A profile with continuity rules, carried state or reasoning from elsewhere as text: the continuity unit's. */
export const hasContinuityRules = (p: Pick<Profile, 'continuity'>): boolean => {
  const c = p.continuity;
  return !!(c?.rules?.length || c?.carry?.length || c?.foreignThinking === 'text');
};

/** The statuses retried when a spec's errors say nothing else: 408, 409, 429 and every 5xx. */
export const RETRYABLE_BY_DEFAULT: NonNullable<ErrorProfile['retryable']> = { codes: [408, 409, 429], ranges: [[500, 599]] };
