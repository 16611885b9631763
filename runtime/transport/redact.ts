/**
 * Secrets never reach errors or logs, even when a provider echoes them back: the API key, an
 * AWS secret and session token, and every access token a getToken() hands out (added as they come).
 */
import type { Redact } from '../contract/transport.js';

/** Tokens kept for scrubbing: a getter that mints one per request must not grow the list for ever. */
const RECENT_TOKENS = 8;

export const makeRedactor = (...initial: Array<string | undefined>): Redact => {
  const secrets: string[] = [];
  const tokens: string[] = [];
  const add = (secret: string | undefined, transient = false): void => {
    // Short values would redact ordinary words; real keys are long.
    if (!secret || secret.length < 8 || secrets.includes(secret)) return;
    secrets.push(secret);
    if (!transient) return;
    tokens.push(secret);
    if (tokens.length > RECENT_TOKENS) secrets.splice(secrets.indexOf(tokens.shift()!), 1);
  };
  for (const s of initial) add(s);
  const scrubText = (s: string): string => {
    for (const secret of secrets) s = s.replaceAll(secret, '[redacted]');
    return s;
  };
  const scrub = (v: unknown): unknown => {
    if (secrets.length === 0) return v;
    if (typeof v === 'string') return scrubText(v);
    if (Array.isArray(v)) return v.map(scrub);
    if (typeof v === 'object' && v) {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) if (k !== '__proto__') out[k] = scrub(x);
      return out;
    }
    return v;
  };
  return Object.assign(scrub as <T>(value: T) => T, { add });
};

/** An error's message, or what a thrown non-Error says (pass it through redact before use). */
export const messageOf = (error: unknown): string => {
  return error instanceof Error ? error.message : String(error);
};
