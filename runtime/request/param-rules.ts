/**
 * Param rules only some wires have: value tables (`values`, `silent`), `when` conditions and
 * defaults. Supplied as `codec.uses.paramRules` by modules whose spec has any; the request
 * builder plans them once, when the adapter is made.
 */
import type { ParamRulesUnit } from '../contract/codec.js';
import type { Condition, DefaultValue, ParamField, WirePath } from '../contract/profile.js';
import type { ParamStep } from '../contract/request.js';
import type { ChatRequest } from '../contract/unified-model.js';
import { readParam } from '../contract/param-fields.js';
import { holds } from './conditions.js';
import { setPath } from './set-path.js';

export const paramRules = {
  /** What a set value goes through before it is written: its condition, then its value table, then the codec's step (template, compiled `tools` condition). */
  step(
    field: ParamField,
    rule: { values?: Readonly<Record<string, unknown>>; silent?: readonly string[]; when?: Condition },
    template: ParamStep | undefined,
  ): ParamStep {
    const { values: table, silent, when } = rule;
    return (v, req, w) => {
      if (when && !holds(when, (f) => readParam(req, f))) {
        return w.drop(field, `not sent together with ${describeUnmet(when, req)}, which wins`);
      }
      if (!table && !silent) return template ? template(v, req, w) : v;
      const k = String(v);
      if (silent?.includes(k)) return undefined;
      const out = table && Object.prototype.hasOwnProperty.call(table, k) ? table[k] : undefined;
      if (out === undefined) return w.drop(field, `${JSON.stringify(v)} has no equivalent for this provider`);
      return template ? template(out, req, w) : out;
    };
  },

  /** The spec's defaults for this request, placed as the body has them; undefined when it has none. */
  defaults(list: ReadonlyArray<{ to: WirePath; value: DefaultValue }>, req: ChatRequest): Record<string, unknown> | undefined {
    if (list.length === 0) return undefined;
    const out: Record<string, unknown> = {};
    for (const d of list) setPath(out, d.to, paramRules.defaultOf(d.value, req));
    return out;
  },

  /** A default's value for this request (a sum adds request values to a base number). */
  defaultOf(d: DefaultValue, req: ChatRequest): unknown {
    if (d === null || typeof d !== 'object' || Array.isArray(d)) return d;
    let total = 0;
    for (const term of (d as { sum: readonly (number | ParamField)[] }).sum) {
      const v = typeof term === 'number' ? term : readParam(req, term);
      if (typeof v === 'number') total += v;
    }
    return total;
  },
} satisfies ParamRulesUnit;

function describeUnmet(when: Condition, req: ChatRequest): string {
  return Object.keys(when)
    .filter((f) => !holds({ [f]: when[f]! }, (x) => readParam(req, x)))
    .join(', ');
}
