/**
 * Stage 3: `extends`. An overlay is merged over its base: maps merge key by key, lists and
 * scalars replace, and null removes a key (so an overlay can delete a base rule).
 */
import type { Diagnostic } from '../diagnostics.js';
import { didYouMean } from '../diagnostics.js';
import { positionOf, type ParsedSpec, type Position } from '../load/parse-spec.js';

/** The ids a spec may extend: the runtime's and the project's, said apart when both are there. */
function knownIds(loaded: string[], builtIn: readonly string[]): string {
  const sorted = (ids: Iterable<string>) => [...new Set(ids)].sort().join(', ');
  if (!builtIn.length) return `known ids: ${sorted(loaded)}`;
  const extra = new Set(builtIn);
  return `known ids: ${sorted(builtIn)} (built in); ${sorted(loaded.filter((id) => !extra.has(id))) || 'none'} (this folder)`;
}

export interface ResolvedSpec {
  id: string;
  /** The spec file itself, then its bases, nearest first. */
  chain: ParsedSpec[];
  doc: Record<string, unknown>;
}

/**
 * `builtIn`: ids of the runtime's specs that are not among `specs` (left out as bases nothing
 * extends); a bad `extends` lists them beside the project's own.
 */
export function resolveAll(specs: ParsedSpec[], builtIn: readonly string[] = []): { resolved: ResolvedSpec[]; diagnostics: Diagnostic[] } {
  const byId = new Map<string, ParsedSpec>();
  for (const s of specs) {
    const id = (s.doc as { id?: unknown }).id;
    if (typeof id === 'string') byId.set(id, s);
  }
  const diagnostics: Diagnostic[] = [];
  const resolved: ResolvedSpec[] = [];
  for (const spec of specs) {
    const chain: ParsedSpec[] = [spec];
    let ok = true;
    for (let cur = spec; ; ) {
      const parent = (cur.doc as { extends?: unknown }).extends;
      if (typeof parent !== 'string') break;
      const base = byId.get(parent);
      const where = { file: cur.file, pointer: '/extends', ...positionOf(cur, '/extends') };
      if (!base) {
        diagnostics.push({
          ...where,
          code: 'bad-extends',
          message: `extends "${parent}", but no spec has that id`,
          hint: didYouMean(parent, [...byId.keys(), ...builtIn]) ?? knownIds([...byId.keys()], builtIn),
        });
        ok = false;
        break;
      }
      if (chain.includes(base)) {
        diagnostics.push({
          ...where,
          code: 'extends-cycle',
          message: `extends "${parent}", which leads back here: ${chain.map((c) => idOf(c)).join(' → ')} → ${parent}`,
        });
        ok = false;
        break;
      }
      chain.push(base);
      cur = base;
    }
    if (!ok) continue;
    let doc: unknown = {};
    for (const layer of [...chain].reverse()) doc = overlay(doc, layer.doc);
    const merged = doc as Record<string, unknown>;
    delete merged.extends;
    merged.id = idOf(spec);
    if (spec !== chain[chain.length - 1] && (spec.doc as { name?: unknown }).name === undefined) delete merged.name;
    resolved.push({ id: idOf(spec), chain, doc: merged });
  }
  return { resolved, diagnostics };
}

function idOf(s: ParsedSpec): string {
  return String((s.doc as { id?: unknown }).id);
}

/** Deep merge for specs. Never copies `__proto__`-like keys into a plain object's prototype. */
export function overlay(base: unknown, top: unknown): unknown {
  if (!isPlainObject(top) || !isPlainObject(base)) return clean(top);
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [k, v] of Object.entries(base)) out[k] = v;
  for (const [k, v] of Object.entries(top)) {
    if (v === null) delete out[k];
    else out[k] = k in out ? overlay(out[k], v) : clean(v);
  }
  return Object.assign({}, out);
}

function clean(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(clean);
  if (!isPlainObject(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) if (x !== null) Object.defineProperty(out, k, { value: clean(x), enumerable: true, writable: true, configurable: true });
  return out;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Where a pointer of the resolved spec came from: the nearest layer that wrote it. */
export function locate(spec: ResolvedSpec, pointer: string, preferKey = false): { file: string } & Position {
  for (const layer of spec.chain) {
    const hit = (preferKey && layer.positions.get(`${pointer}#key`)) || layer.positions.get(pointer);
    if (hit) return { file: layer.file, ...hit };
  }
  const top = spec.chain[0]!;
  return { file: top.file, ...positionOf(top, pointer, preferKey) };
}
