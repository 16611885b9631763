/** Wire finish reason → unified, from the profile's table: the table, its fallback, then declared upgrades. */
import type { FinishTable } from '../contract/profile.js';
import type { FinishReason } from '../contract/unified-model.js';
import { hasOwn } from '../wire/read-path.js';

export const finishMapper = (t: FinishTable): ((raw: string, facts: { toolCalls: boolean; refusal: boolean }) => FinishReason) => {
  return (raw, facts) => {
    let v = hasOwn(t.map, raw) ? t.map[raw]! : t.other;
    for (const u of t.upgrades) if (v === u.from && facts[u.when]) v = u.to;
    return v;
  };
};
