/**
 * Wire usage → unified usage from the profile's table: input includes cached tokens, output
 * includes reasoning tokens (each spec lists the wire fields that add up to each count). Counts
 * over a list of steps are the usageSteps unit's (usage-steps.ts), which defineAdapter checks is
 * there when the table has any.
 */
import type { UsageStepsUnit } from '../contract/codec.js';
import type { UsageCount, UsageMap, WirePath } from '../contract/profile.js';
import type { Usage } from '../contract/unified-model.js';
import { isArray, readPath } from '../wire/read-path.js';

/** The counts a Usage has only when the wire reports them, in the order they are listed. */
const REPORTED = ['cachedInputTokens', 'cacheWriteTokens', 'reasoningTokens'] as const;

export const usageMapper = (map: UsageMap, steps: UsageStepsUnit | undefined): ((raw: Record<string, unknown>) => Usage) => {
  const sum = (raw: unknown, count: UsageCount) => (isPaths(count) ? sumOf(raw, count) : steps!(raw, count));
  return (raw) => {
    const input = sum(raw, map.inputTokens) ?? 0;
    const output = sum(raw, map.outputTokens) ?? 0;
    const usage: Usage = { inputTokens: input, outputTokens: output, totalTokens: sum(raw, map.totalTokens) ?? input + output };
    for (const k of REPORTED) {
      const n = sum(raw, map[k]);
      if (n !== undefined) usage[k] = n;
    }
    const others = map.otherModels && steps!.apart!(raw, map);
    if (others) usage.otherModels = others;
    return usage;
  };
};

export const isPaths = isArray as (c: UsageCount) => c is readonly WirePath[];

/** The sum of the numbers present at these paths; undefined when none is. */
export const sumOf = (raw: unknown, paths: readonly WirePath[]): number | undefined => {
  let total: number | undefined;
  for (let i = 0; i < paths.length; i++) {
    const v = readPath(raw, paths[i]!);
    if (typeof v === 'number' && Number.isFinite(v)) total = (total ?? 0) + v;
  }
  return total;
};
