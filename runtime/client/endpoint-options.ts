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
  // Defaults last, so they can use what was given ({location}-aiplatform.googleapis.com), in
  // whatever order they are declared.
  const pending = Object.entries(declared).filter(([name]) => out[name] === undefined);
  for (const [name, o] of pending) {
    if (o.default !== undefined || !needed.has(name)) continue;
    const env = o.env?.length ? ` or set ${o.env.join(' or ')}` : '';
    throw new RequestError(adapter.id, `endpoint.${name}`, `${adapter.id} needs the endpoint option "${name}"${o.description ? ` (${o.description})` : ''}: pass createClient(${JSON.stringify(adapter.id)}, { endpoint: { ${name}: … } })${env}`);
  }
  // An option with neither a value nor a default cannot feed a default: what needs it says so.
  const missing = (n: string) => Object.hasOwn(declared, n) && out[n] === undefined && declared[n]!.default === undefined;
  let left = pending.filter(([, o]) => o.default !== undefined);
  while (left.length) {
    const refs = (d: string) => [...d.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).filter((n) => Object.hasOwn(declared, n));
    const ready = left.filter(([, o]) => (!o.cases || out[o.cases.on] !== undefined || missing(o.cases.on)) && refs(o.default!).every((n) => out[n] !== undefined || missing(n)));
    if (!ready.length) throw new RequestError(adapter.id, `endpoint.${left[0]![0]}`, `the defaults of ${left.map(([n]) => n).join(', ')} refer to each other`);
    for (const [name, o] of ready) {
      const picked = o.cases && out[o.cases.on] !== undefined ? o.cases.values[out[o.cases.on]!] : undefined;
      if (picked !== undefined) {
        out[name] = picked.replace(/\{(\w+)\}/g, (m, n: string) => out[n] ?? m);
        continue;
      }
      const lacking = refs(o.default!).find(missing);
      if (lacking === undefined) out[name] = o.default!.replace(/\{(\w+)\}/g, (m, n: string) => out[n] ?? m);
      else if (needed.has(name)) throw new RequestError(adapter.id, `endpoint.${lacking}`, `${adapter.id} needs the endpoint option "${lacking}" (for ${name}): pass createClient(${JSON.stringify(adapter.id)}, { endpoint: { ${lacking}: … } })`);
    }
    left = left.filter((e) => !ready.includes(e));
  }
  return out;
}
