/** URL and headers of a call, from the spec's endpoint and the client options. */
import type { ProviderAdapter } from '../contract/adapter.js';
import type { EndpointInfo } from '../contract/profile.js';
import { FORBIDDEN_KEYS } from '../request/safe-merge.js';
import { entries, isString } from '../wire/read-path.js';

/**
 * The base URL (the client's, else the spec's; createClientFor made sure there is one) and the
 * path; endpoints with {placeholders} or a query go through their urlTemplate unit.
 */
export const buildUrl = (
  adapter: ProviderAdapter,
  baseUrl: string | undefined,
  stream: boolean,
  values: Record<string, string | undefined>,
): string => {
  const ep = adapter.endpoint;
  const base = (baseUrl ?? ep.baseUrl)!;
  const path = (stream && ep.streamPath) || ep.path;
  const template = adapter.codec.uses?.urlTemplate;
  return template ? template(adapter.id, ep, base, path, stream, values) : base.replace(/\/+$/, '') + path;
};

const JSON_TYPE = 'application/json';

export const buildHeaders = (
  ep: EndpointInfo,
  apiKey: string | undefined,
  stream: boolean,
  extra: Array<Record<string, string> | undefined>,
  allowAuthOverride: boolean,
): Record<string, string> => {
  const { header: authHeader, scheme } = ep.auth;
  const headers: Record<string, string> = Object.create(null) as Record<string, string>;
  headers['content-type'] = JSON_TYPE;
  headers.accept = stream ? `text/event-stream, application/x-ndjson, ${JSON_TYPE}` : JSON_TYPE;
  for (const [k, v] of entries(ep.headers ?? {})) headers[k.toLowerCase()] = v;
  for (const set of extra) {
    for (const [k, v] of entries(set ?? {})) {
      const name = k.toLowerCase();
      if (FORBIDDEN_KEYS.has(name) || !isString(v)) continue;
      // User headers cannot silently replace the auth header.
      if (name === authHeader && !allowAuthOverride) continue;
      headers[name] = v;
    }
  }
  if (apiKey !== undefined && !(allowAuthOverride && headers[authHeader] !== undefined)) {
    headers[authHeader] = scheme ? `${scheme} ${apiKey}` : apiKey;
  }
  return { ...headers };
};
