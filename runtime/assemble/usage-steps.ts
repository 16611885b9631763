/**
 * Usage counted over the steps a wire lists its work in (Anthropic `usage.iterations`): the sum
 * over every element of that list, with the plain fields used when the list is absent. A unit
 * (`codec.uses.usageSteps`) for specs with a `{ over, sum, otherwise }` count.
 */
import type { UsageStepsUnit } from '../contract/codec.js';
import type { UsageCount } from '../contract/profile.js';
import { readPath } from '../wire/read-path.js';
import { sumOf } from './map-usage.js';

export function usageSteps(raw: unknown, count: Exclude<UsageCount, readonly unknown[]>): number | undefined {
  const steps = readPath(raw, count.over);
  if (!Array.isArray(steps) || steps.length === 0) return sumOf(raw, count.otherwise);
  let total: number | undefined;
  for (const step of steps) {
    const n = sumOf(step, count.sum);
    if (n !== undefined) total = (total ?? 0) + n;
  }
  return total;
}

usageSteps satisfies UsageStepsUnit;
