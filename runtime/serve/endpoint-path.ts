/**
 * A spec's endpoint path (`/models/{model}:generateContent`) as a pattern that finds it at the
 * end of a request's path: the served path may sit under any base (`/v1beta`, a proxy's prefix).
 */
import type { ProviderAdapter } from '../contract/adapter.js';

/** `{model}` is a named group; other placeholders match one segment. */
export function pathPattern(template: string): RegExp {
  const source = template
    .split(/(\{[A-Za-z_][A-Za-z0-9_]*\})/)
    .map((piece) => {
      const name = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(piece)?.[1];
      if (name === undefined) return piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      return name === 'model' ? '(?<model>[^/]+?)' : '[^/]+?';
    })
    .join('');
  return new RegExp(`${source}$`);
}

/** The request path (without its query) ends in this endpoint path. */
export function pathMatches(template: string, url: string): boolean {
  return pathPattern(template).test(url.split('?')[0] ?? '');
}

/** The spec's path or stream path. */
export function servesPath(adapter: ProviderAdapter, path: string): boolean {
  return [adapter.endpoint.path, adapter.endpoint.streamPath].some((p) => p !== undefined && pathMatches(p, path));
}
