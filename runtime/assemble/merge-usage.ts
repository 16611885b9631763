/** Usage that arrives in pieces: fields present in `next` overwrite, nested objects merge. */
import { FORBIDDEN_KEYS } from '../request/safe-merge.js';

export function mergeUsage(
  prev: Record<string, unknown>,
  next: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...prev };
  for (const key of Object.keys(next)) {
    if (FORBIDDEN_KEYS.has(key)) continue;
    const v = next[key];
    if (v === null || v === undefined) continue;
    const p = out[key];
    out[key] =
      typeof v === 'object' && !Array.isArray(v) && typeof p === 'object' && p !== null && !Array.isArray(p)
        ? mergeUsage(p as Record<string, unknown>, v as Record<string, unknown>)
        : v;
  }
  return out;
}
