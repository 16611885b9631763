/** Finish-reason tables: a fallback for unknown values, and only unified values on the right. */
import { didYouMean } from '../../diagnostics.js';
import { UNIFIED_FINISH } from '../../ir/slots.js';
import { escapePointer } from '../../load/parse-spec.js';
import type { Finding, SemanticRule } from './rule.js';

export const finishTable: SemanticRule = {
  name: 'finish-table',
  check(ir) {
    const fr = ir.doc.finish;
    if (!fr) return [];
    const out: Finding[] = [];
    if (fr.other === undefined) {
      out.push({
        code: 'finish-no-fallback',
        pointer: '/finish',
        message: 'The finish-reason table has no fallback for values it does not list',
        hint: 'add `other: other` so unknown non-null values map to "other"',
        atKey: true,
      });
    }
    const check = (value: unknown, pointer: string) => {
      if (typeof value === 'string' && (UNIFIED_FINISH as readonly string[]).includes(value)) return;
      out.push({
        code: 'finish-unknown-value',
        pointer,
        message: `${JSON.stringify(value)} is not a unified finish reason`,
        hint: (typeof value === 'string' && didYouMean(value, UNIFIED_FINISH)) || `one of: ${UNIFIED_FINISH.join(', ')}`,
      });
    };
    for (const [wire, unified] of Object.entries(fr.map ?? {})) check(unified, `/finish/map/${escapePointer(wire)}`);
    if (fr.other !== undefined) check(fr.other, '/finish/other');
    (fr.upgrades ?? []).forEach((u, i) => {
      check(u.from, `/finish/upgrades/${i}/from`);
      check(u.to, `/finish/upgrades/${i}/to`);
    });
    return out;
  },
};
