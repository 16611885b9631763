/**
 * A spec's endpoint options (Azure resource, Vertex project and location, AWS region): each from
 * the client's `endpoint` option, else the first of its environment variables that is set, else
 * its default (which may use other options' {placeholders}). One the URL in use needs that none
 * of them gives is a RequestError naming it and where it can come from, when the client is made.
 */
import type { EndpointOptionsUnit } from '../contract/codec.js';
import type { EndpointView } from '../contract/transport.js';
import { RequestError } from '../errors.js';

const PLACEHOLDER = /\{(\w+)\}/g;
const namesIn = (text: string): string[] => [...text.matchAll(PLACEHOLDER)].map((m) => m[1]!);

export function resolveEndpointOptions(
  adapter: EndpointView,
  given: Record<string, string> | undefined,
  env: Record<string, string | undefined> | undefined,
  baseUrl: string | undefined,
  signing: boolean,
): Record<string, string> {
  const ep = adapter.endpoint;
  const declared = ep.options ?? {};
  const id = JSON.stringify(adapter.id);
  /** The options a default of this option may use: its text, its cases' texts and what picks the case. */
  const usedBy = (name: string): string[] => {
    const o = declared[name];
    if (!o) return [];
    const texts = [o.default ?? '', ...Object.values(o.cases?.values ?? {})];
    return [...texts.flatMap(namesIn), ...(o.cases ? [o.cases.on] : [])].filter((n) => Object.hasOwn(declared, n));
  };
  // Only what the URL in use needs is required: a baseUrl of the caller's (a proxy) needs no resource.
  const templates = [baseUrl ?? ep.baseUrl ?? '', ep.path, ep.streamPath ?? '', ...Object.values(ep.query ?? {}), ...Object.values(ep.streamQuery ?? {})];
  const needed = new Set<string>([...templates.flatMap(namesIn), ...(signing && ep.auth.sigv4 ? [ep.auth.sigv4.region] : [])]);
  for (const name of needed) for (const n of usedBy(name)) needed.add(n);
  const needs = (name: string, forWhat?: string): RequestError => {
    const o = declared[name];
    const why = forWhat ? ` (for ${forWhat})` : o?.description ? ` (${o.description})` : '';
    const envs = o?.env?.length ? ` or set ${o.env.join(' or ')}` : '';
    return new RequestError(adapter.id, `endpoint.${name}`, `${adapter.id} needs the endpoint option "${name}"${why}: pass createClient(${id}, { endpoint: { ${name}: … } })${envs}`);
  };

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
  for (const [name, o] of Object.entries(declared)) if (out[name] === undefined && o.default === undefined && needed.has(name)) throw needs(name);

  // Defaults last, so they can use what was given ({location}-aiplatform.googleapis.com), in
  // whatever order they are declared. An option with neither a value nor a default cannot feed
  // one: what needs it says so.
  const missing = (n: string) => out[n] === undefined && declared[n]!.default === undefined;
  const fill = (text: string) => text.replace(PLACEHOLDER, (m, n: string) => out[n] ?? m);
  let left = Object.keys(declared).filter((name) => out[name] === undefined && declared[name]!.default !== undefined);
  while (left.length) {
    const ready = left.filter((name) => usedBy(name).every((n) => out[n] !== undefined || missing(n)));
    if (!ready.length) throw new RequestError(adapter.id, `endpoint.${left[0]!}`, `the defaults of ${left.join(', ')} refer to each other`);
    for (const name of ready) {
      const o = declared[name]!;
      const picked = o.cases && out[o.cases.on] !== undefined ? o.cases.values[out[o.cases.on]!] : undefined;
      if (picked !== undefined) out[name] = fill(picked);
      else {
        const lacking = namesIn(o.default!).find((n) => Object.hasOwn(declared, n) && missing(n));
        if (lacking === undefined) out[name] = fill(o.default!);
        else if (needed.has(name)) throw needs(lacking, name);
      }
    }
    left = left.filter((name) => !ready.includes(name));
  }
  return out;
}

resolveEndpointOptions satisfies EndpointOptionsUnit;
