/**
 * Endpoints with {placeholders} or query parameters (the model in Gemini's and Bedrock's paths,
 * Azure's deployment and api-version): each {name} is filled from the request's model or an
 * endpoint option. A unit (`codec.uses.urlTemplate`), supplied by the modules whose endpoint has
 * either, so a bundle of plain endpoints (a base URL and a path) leaves it out.
 */
import type { UrlTemplateUnit } from '../contract/codec.js';
import type { EndpointInfo } from '../contract/profile.js';
import { RequestError } from '../errors.js';

export function urlTemplate(
  provider: string,
  ep: EndpointInfo,
  base: string,
  path: string,
  stream: boolean,
  values: Record<string, string | undefined>,
): string {
  const fill = (template: string, encode: (v: string) => string) =>
    template.replace(/\{(\w+)\}/g, (_m, name: string) => {
      const v = values[name];
      if (v === undefined || v === '') throw new RequestError(provider, name, `the endpoint needs ${name}; set it on the request or the client`);
      // A segment of dots would walk the path to another endpoint.
      if (v === '.' || v === '..') throw new RequestError(provider, name, `${JSON.stringify(v)} is not a value for the endpoint's {${name}}`);
      return encode(v);
    });
  let url = fill(base.replace(/\/+$/, ''), encodeURIComponent) + fill(path, encodeURIComponent);
  const params = stream ? { ...ep.query, ...ep.streamQuery } : ep.query;
  if (params) {
    const filled: Record<string, string> = {};
    for (const [k, v] of Object.entries(params)) filled[k] = fill(v, (x) => x);
    const query = new URLSearchParams(filled).toString();
    if (query) url += (url.includes('?') ? '&' : '?') + query;
  }
  return url;
}

urlTemplate satisfies UrlTemplateUnit;
