/**
 * Usage counted over the steps a wire lists its work in (Anthropic `usage.iterations`): the sum
 * over the elements of that list that are the turn's own work (`only`: the executor's steps, not
 * an advisor's), with the plain fields used when the list is absent. Steps of other models are
 * reported apart (`usageSteps.apart`), each counted by the same table. A unit
 * (`codec.uses.usageSteps`) for specs with a `{ over, sum, otherwise }` count.
 */
import type { UsageStepsUnit } from '../contract/codec.js';
import type { StepFilter, UsageCount, UsageMap, WirePath } from '../contract/profile.js';
import type { UsageOfModel } from '../contract/unified-model.js';
import { passes } from '../request/conditions.js';
import { readPath } from '../wire/read-path.js';
import { sumOf } from './map-usage.js';

type StepCount = Exclude<UsageCount, readonly unknown[]>;

function steps(raw: unknown, over: WirePath, only: StepFilter | undefined): unknown[] | undefined {
  const list = readPath(raw, over);
  if (!Array.isArray(list) || list.length === 0) return undefined;
  return only ? list.filter((step) => passes(only.test, readPath(step, only.at))) : list;
}

function countSteps(raw: unknown, count: StepCount): number | undefined {
  const own = steps(raw, count.over, count.only);
  if (own === undefined) return sumOf(raw, count.otherwise);
  let total: number | undefined;
  for (const step of own) {
    const n = sumOf(step, count.sum);
    if (n !== undefined) total = (total ?? 0) + n;
  }
  return total;
}

/** A step's own count: the fields the table sums per step (or, for a plain count, its fields). */
function stepCount(step: unknown, count: UsageCount): number | undefined {
  return sumOf(step, Array.isArray(count) ? (count as readonly WirePath[]) : (count as StepCount).sum);
}

/** The steps of other models, each with its kind, model and counts; undefined when there are none. */
function apart(raw: unknown, map: UsageMap): UsageOfModel[] | undefined {
  const a = map.otherModels;
  const others = a && steps(raw, a.over, a.only);
  if (!others?.length) return undefined;
  return others.map((step) => {
    const kind = readPath(step, a!.kind);
    const model = readPath(step, a!.model);
    const input = stepCount(step, map.inputTokens) ?? 0;
    const output = stepCount(step, map.outputTokens) ?? 0;
    const out: UsageOfModel = { kind: typeof kind === 'string' ? kind : 'step', inputTokens: input, outputTokens: output, totalTokens: input + output };
    if (typeof model === 'string') out.model = model;
    const cached = stepCount(step, map.cachedInputTokens);
    if (cached !== undefined) out.cachedInputTokens = cached;
    const writes = stepCount(step, map.cacheWriteTokens);
    if (writes !== undefined) out.cacheWriteTokens = writes;
    return out;
  });
}

export const usageSteps: UsageStepsUnit = Object.assign(countSteps, { apart });
