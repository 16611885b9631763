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
  // {name}: the request's model, or an endpoint option (resolved when the client was made).
  const fill = (template: string, encode: (v: string) => string) =>
    template.replace(/\{(\w+)\}/g, (_m, name: string) => {
      const v = pathParams[name];
      if (v === undefined || v === '') throw new RequestError(provider, name, `the endpoint needs ${name}; set it on the request or the client`);
      // A segment of dots would walk the path to another endpoint.
      if (v === '.' || v === '..') throw new RequestError(provider, name, `${JSON.stringify(v)} is not a value for the endpoint's {${name}}`);
      return encode(v);
    });
  let url = fill(base.replace(/\/+$/, ''), encodeURIComponent) + fill((stream && ep.streamPath) || ep.path, encodeURIComponent);
  const params = stream ? { ...ep.query, ...ep.streamQuery } : ep.query;
  if (params) {
    const filled: Record<string, string> = {};
    for (const [k, v] of Object.entries(params)) filled[k] = fill(v, (x) => x);
    const query = new URLSearchParams(filled).toString();
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
  for (const [k, v] of Object.entries(ep.headers ?? {})) headers[k.toLowerCase()] = v;
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
