/**
 * Usage that arrives in pieces (Anthropic: input counts at the start, output counts at the end):
 * readers of such wires call `mergeUsage` with their assembler; a bundle of wires that send usage
 * whole leaves it out.
 */
import { FORBIDDEN_KEYS } from '../request/safe-merge.js';
import { isObject } from '../wire/read-path.js';
import type { TurnAssembler } from './turn-assembler.js';

/** Overwrite only the usage fields present: fields present in `raw` overwrite, nested objects merge. */
export function mergeUsage(a: TurnAssembler, raw: unknown): void {
  if (!isObject(raw)) return;
  const usage = a.usage;
  usage.set(usage.raw ? mergeFields(usage.raw, raw) : raw);
}

function mergeFields(prev: Record<string, unknown>, next: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...prev };
  for (const key of Object.keys(next)) {
    if (FORBIDDEN_KEYS.has(key)) continue;
    const v = next[key];
    if (v === null || v === undefined) continue;
    const p = out[key];
    out[key] = isObject(v) && isObject(p) ? mergeFields(p, v) : v;
  }
  return out;
}
