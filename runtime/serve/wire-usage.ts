/**
 * Unified usage → the wire's usage object, the usage table read backwards. A count the table
 * makes from one field is written there; a count it sums from several (Anthropic's input =
 * input_tokens + cache reads + cache writes) gets what the other fields do not already hold.
 */
import type { UsageCount, UsageMap, WirePath } from '../contract/profile.js';
import type { Usage } from '../contract/unified-model.js';
import { setPath } from '../request/set-path.js';

const COUNTS = ['cachedInputTokens', 'cacheWriteTokens', 'reasoningTokens', 'inputTokens', 'outputTokens', 'totalTokens'] as const;

export function wireUsage(map: UsageMap, usage: Usage): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const written = new Map<string, number>();
  const keyOf = (p: WirePath) => p.join('.');
  // Single-field counts first, so the sums know what their other fields hold.
  const order = [...COUNTS].sort((a, b) => paths(map[a]).length - paths(map[b]).length);
  for (const count of order) {
    const value = usage[count];
    const fields = paths(map[count]);
    if (value === undefined || fields.length === 0) continue;
    const free = fields.filter((p) => !written.has(keyOf(p)));
    if (free.length === 0) continue;
    const held = fields.reduce((n, p) => n + (written.get(keyOf(p)) ?? 0), 0);
    const own = Math.max(0, value - held);
    written.set(keyOf(free[0]!), own);
    setPath(out, free[0]!, own);
  }
  return out;
}

/** The fields a count reads; with a steps list (`over`), the plain fields used without one. */
function paths(count: UsageCount): readonly WirePath[] {
  return Array.isArray(count) ? count : (count as Exclude<UsageCount, readonly WirePath[]>).otherwise;
}
