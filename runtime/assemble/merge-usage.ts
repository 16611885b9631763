/**
 * Usage that arrives in pieces (Anthropic: input counts at the start, output counts at the end):
 * readers of such wires call `mergeUsage` with their assembler; a bundle of wires that send usage
 * whole leaves it out.
 */
import { FORBIDDEN_KEYS } from '../request/safe-merge.js';
import type { TurnAssembler } from './turn-assembler.js';

/** Overwrite only the usage fields present: fields present in `raw` overwrite, nested objects merge. */
export function mergeUsage(a: TurnAssembler, raw: unknown): void {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return;
  const usage = a.usage;
  usage.set(usage.raw ? mergeFields(usage.raw, raw as Record<string, unknown>) : raw);
}

function mergeFields(prev: Record<string, unknown>, next: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...prev };
  for (const key of Object.keys(next)) {
    if (FORBIDDEN_KEYS.has(key)) continue;
    const v = next[key];
    if (v === null || v === undefined) continue;
    const p = out[key];
    out[key] =
      typeof v === 'object' && !Array.isArray(v) && typeof p === 'object' && p !== null && !Array.isArray(p)
        ? mergeFields(p as Record<string, unknown>, v as Record<string, unknown>)
        : v;
  }
  return out;
}
