/** Consecutive wire messages joined into one, for specs with `messages.merge` (`codec.uses.merge`). */
import type { MergeUnit } from '../contract/codec.js';
import type { ContentPart } from '../contract/unified-model.js';
import { isObject } from '../wire/read-path.js';

type TextPart = Extract<ContentPart, { type: 'text' }>;

/**
 * Wires that want one message per run of a role: consecutive wire messages become one, by
 * `field`: arrays concatenated, strings joined with `join` when the spec gives one (else made
 * text parts, as is a string beside an array). Only messages that both carry the field and agree on everything else (the
 * role among it) are joined, so nothing is lost: two tool results whose wire role is "user"
 * stay two results when each result sits outside that field.
 */
export function mergeConsecutive(
  mapped: unknown[],
  field: string,
  join: string | undefined,
  textPart: ((p: TextPart) => unknown) | undefined,
): unknown[] {
  const out: unknown[] = [];
  // The message a run is being joined into, made ours (a copy with its own list) on its first join.
  let owned: Record<string, unknown> | undefined;
  for (let i = 0; i < mapped.length; i++) {
    const m = mapped[i];
    if (m === undefined) continue;
    const prev = out[out.length - 1] as Record<string, unknown> | undefined;
    const cur = m as Record<string, unknown>;
    if (prev && isObject(prev) && isObject(cur) && sameBesides(prev, cur, field)) {
      const a = prev[field];
      const b = cur[field];
      if (join !== undefined && typeof a === 'string' && typeof b === 'string') {
        out[out.length - 1] = owned = { ...prev, [field]: a + join + b };
        continue;
      }
      if (owned !== prev || !Array.isArray(a)) out[out.length - 1] = owned = { ...prev, [field]: asList(a, textPart).slice() };
      const list = owned[field] as unknown[];
      for (const x of asList(b, textPart)) list.push(x);
    } else {
      out.push(m);
      owned = undefined;
    }
  }
  return out;
}

/** Both carry `field`, and everything else they say is the same (nothing is lost by joining them). */
function sameBesides(a: Record<string, unknown>, b: Record<string, unknown>, field: string): boolean {
  if (a[field] === undefined || b[field] === undefined) return false;
  for (const k in a) if (k !== field && a[k] !== undefined && !same(a[k], b[k])) return false;
  for (const k in b) if (k !== field && b[k] !== undefined && a[k] === undefined) return false;
  return true;
}

function same(x: unknown, y: unknown): boolean {
  return x === y || (typeof x === 'object' && typeof y === 'object' && JSON.stringify(x) === JSON.stringify(y));
}

function asList(v: unknown, textPart: ((p: TextPart) => unknown) | undefined): unknown[] {
  if (Array.isArray(v)) return v;
  if (typeof v === 'string') return [textPart ? textPart({ type: 'text', text: v }) : v];
  return [v];
}

mergeConsecutive satisfies MergeUnit;
