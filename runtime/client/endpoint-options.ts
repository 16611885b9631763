/**
 * A spec's endpoint options (Azure resource, Vertex project and location, AWS region): each from
 * the client's `endpoint` option, else the first of its environment variables that is set, else
 * its default (which may use other options' {placeholders}). One the URL in use needs that none
 * of them gives is a RequestError naming it and where it can come from, when the client is made.
 */
import type { ProviderAdapter } from '../adapter.js';
import { RequestError } from '../errors.js';

export function resolveEndpointOptions(
  adapter: ProviderAdapter,
  given: Record<string, string> | undefined,
  env: Record<string, string | undefined> | undefined,
  baseUrl: string | undefined,
  signing: boolean,
): Record<string, string> {
  const ep = adapter.endpoint;
  const declared = ep.options ?? {};
  // Only what the URL in use needs is required: a baseUrl of the caller's (a proxy) needs no resource.
  const templates = [baseUrl ?? ep.baseUrl ?? '', ep.path, ep.streamPath ?? '', ...Object.values(ep.query ?? {}), ...Object.values(ep.streamQuery ?? {})];
  const needed = new Set<string>(signing && ep.sigv4 ? [ep.sigv4.region] : []);
  for (let i = 0; i < 3; i++) {
    for (const t of [...templates, ...[...needed].map((n) => declared[n]?.default ?? '')]) for (const m of t.matchAll(/\{(\w+)\}/g)) needed.add(m[1]!);
  }
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, v] of Object.entries(given ?? {})) {
    if (!Object.hasOwn(declared, name)) {
      const names = Object.keys(declared);
      throw new RequestError(adapter.id, `endpoint.${name}`, `${adapter.id} has no endpoint option "${name}"; ${names.length ? `it has ${names.join(', ')}` : 'it takes none'}`);
    }
    if (typeof v !== 'string' || v === '') throw new RequestError(adapter.id, `endpoint.${name}`, 'must be a non-empty string');
    out[name] = v;
  }
  for (const [name, o] of Object.entries(declared)) {
    if (out[name] !== undefined) continue;
    const fromEnv = o.env?.map((e) => env?.[e]).find((v) => v !== undefined && v !== '');
    if (fromEnv !== undefined) out[name] = fromEnv;
  }
  // Defaults last, so they can use what was given ({location}-aiplatform.googleapis.com).
  for (const [name, o] of Object.entries(declared)) {
    if (out[name] !== undefined) continue;
    if (o.default === undefined) {
      if (!needed.has(name)) continue;
      const env = o.env?.length ? ` or set ${o.env.join(' or ')}` : '';
      throw new RequestError(adapter.id, `endpoint.${name}`, `${adapter.id} needs the endpoint option "${name}"${o.description ? ` (${o.description})` : ''}: pass createClient(${JSON.stringify(adapter.id)}, { endpoint: { ${name}: … } })${env}`);
    }
    out[name] = o.default.replace(/\{(\w+)\}/g, (m, n: string) => out[n] ?? m);
  }
  return out;
}
