/** URL and headers of a call, from the spec's endpoint and the client options. */
import type { EndpointInfo } from '../adapter.js';
import { RequestError } from '../errors.js';
import { FORBIDDEN_KEYS } from '../request/safe-merge.js';

export function buildUrl(
  provider: string,
  ep: EndpointInfo,
  baseUrl: string | undefined,
  stream: boolean,
  pathParams: Record<string, string | undefined>,
): string {
  const base = baseUrl ?? ep.baseUrl;
  if (!base) throw new RequestError(provider, 'baseUrl', `${provider} has no default base URL: pass createClient(…, { baseUrl })`);
  const template = (stream && ep.streamPath) || ep.path;
  const path = template.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const v = pathParams[name];
    if (v === undefined || v === '') throw new RequestError(provider, name, `the endpoint path needs ${name}; set it on the request or the client`);
    return encodeURIComponent(v);
  });
  let url = base.replace(/\/+$/, '') + path;
  if (stream) {
    const query = new URLSearchParams(ep.streamQuery as Record<string, string>).toString();
    if (query) url += (url.includes('?') ? '&' : '?') + query;
  }
  return url;
}

export function buildHeaders(
  ep: EndpointInfo,
  apiKey: string | undefined,
  stream: boolean,
  extra: Array<Record<string, string> | undefined>,
  allowAuthOverride: boolean,
): Record<string, string> {
  const headers: Record<string, string> = Object.create(null) as Record<string, string>;
  headers['content-type'] = 'application/json';
  headers.accept = stream ? 'text/event-stream, application/x-ndjson, application/json' : 'application/json';
  for (const [k, v] of Object.entries(ep.headers)) headers[k.toLowerCase()] = v;
  for (const set of extra) {
    for (const [k, v] of Object.entries(set ?? {})) {
      const name = k.toLowerCase();
      if (FORBIDDEN_KEYS.has(name) || typeof v !== 'string') continue;
      // User headers cannot silently replace the auth header.
      if (name === ep.authHeader && !allowAuthOverride) continue;
      headers[name] = v;
    }
  }
  if (apiKey !== undefined && !(allowAuthOverride && headers[ep.authHeader] !== undefined)) {
    headers[ep.authHeader] = ep.authScheme ? `${ep.authScheme} ${apiKey}` : apiKey;
  }
  return { ...headers };
}
