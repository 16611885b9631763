/**
 * A spec's endpoint path (`/models/{model}:generateContent`) as a pattern that finds it at the
 * end of a request's path (the model and the kind of call read from it), and the paths a spec
 * is served at.
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

/**
 * The paths a spec is served at: its path and stream path, alone (a client given the server's
 * URL as its baseUrl) or under the path of the spec's own base URL (`/v1`, `/v1beta`: what the
 * provider's SDK adds to a base URL). Any other prefix is a wrong baseUrl, answered with a 404.
 */
export function servedPaths(adapter: ProviderAdapter): string[] {
  const base = basePath(adapter);
  const paths = [adapter.endpoint.path, adapter.endpoint.streamPath].filter((p): p is string => p !== undefined);
  return [...paths, ...(base ? paths.map((p) => base + p) : [])];
}

/** The request path (without its query) is one the spec is served at. */
export function servesPath(adapter: ProviderAdapter, path: string): boolean {
  const bare = path.split('?')[0] ?? '';
  return servedPatterns(adapter).some((re) => re.test(bare));
}

/** Compiled once per adapter: a served handler asks on every request. */
const compiled = new WeakMap<ProviderAdapter, RegExp[]>();

function servedPatterns(adapter: ProviderAdapter): RegExp[] {
  let out = compiled.get(adapter);
  if (out) return out;
  const base = basePath(adapter);
  // A version segment of the base stands for any version: Gemini's SDK sends /v1 or /v1beta.
  const prefixes = ['', ...(base ? [base.split('/').map((seg) => (VERSION.test(seg) ? VERSION.source.slice(1, -1) : pathPattern(seg).source.slice(0, -1))).join('/')] : [])];
  out = [adapter.endpoint.path, adapter.endpoint.streamPath].flatMap((p) => (p === undefined ? [] : prefixes.map((pre) => new RegExp(`^${pre}${pathPattern(p).source}`))));
  compiled.set(adapter, out);
  return out;
}

const VERSION = /^v\d+(?:alpha|beta)?\d*$/;

/** The path of the spec's default base URL, without a trailing slash; undefined when it has none. */
function basePath(adapter: ProviderAdapter): string | undefined {
  const base = adapter.endpoint.baseUrl;
  return base === undefined ? undefined : /^[a-z][a-z0-9+.-]*:\/\/[^/]*(\/.*)?$/i.exec(base)?.[1]?.replace(/\/+$/, '') || undefined;
}

/** The 404 message: what is served, so a wrong baseUrl shows itself. */
export function notServed(adapter: ProviderAdapter, path: string): string {
  return `${adapter.profile.name} is served at ${servedPaths(adapter).join(' or ')}, not ${path}: check the client's baseUrl`;
}
