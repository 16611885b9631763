/**
 * The kind table and what reads it: each part rule names only fields its part type has, a
 * reader's fixed kind is one the table lists (a typo would make every such object an opaque
 * part), and `before:` names a rule of the same map.
 */
import { didYouMean } from '../../diagnostics.js';
import type { Rule } from '../../ir/types.js';
import type { ResponsePartType } from '../../../runtime/contract/unified-model.js';
import type { Finding, SemanticRule } from './rule.js';

/** The fields each part type takes from the wire (docs/unified-model.md#response-parts). */
const PART_FIELDS: Partial<Record<ResponsePartType, readonly string[]>> = {
  'tool-call': ['id', 'name', 'kind', 'arguments'],
  'provider-tool-call': ['id', 'name', 'input'],
  'provider-tool-result': ['callId', 'name', 'result', 'isError'],
  source: ['url', 'title', 'documentId'],
  file: ['mediaType', 'data', 'url'],
  'approval-request': ['id', 'name', 'input'],
  opaque: ['kind', 'value'],
};

export const partKinds: SemanticRule = {
  name: 'part-kinds',
  check(ir) {
    const out: Finding[] = [];
    const kinds = ir.profile.parts?.kinds ?? {};
    for (const [kind, rule] of Object.entries(kinds)) {
      const docParts = ir.doc.parts?.kinds?.[kind];
      rule.parts.forEach((p, i) => {
        const allowed = PART_FIELDS[p.part] ?? [];
        for (const field of Object.keys(p.fields)) {
          if (allowed.includes(field)) continue;
          const single = (docParts as Record<string, unknown> | null | undefined)?.[p.part] !== undefined;
          const where = docParts?.parts && !(single && i === 0) ? `/parts/kinds/${kind}/parts/${i - (single ? 1 : 0)}/${p.part}/${field}` : `/parts/kinds/${kind}/${p.part}/${field}`;
          const hint = didYouMean(field, allowed);
          out.push({ code: 'unknown-field', pointer: where, atKey: true, message: `a ${p.part} part has no field "${field}"`, hint: `${hint ? `${hint} ` : ''}fields: ${allowed.join(', ')}` });
        }
      });
    }
    const visit = (rules: Rule[]): void => {
      for (const r of rules) {
        if (r.beforeMissing !== undefined) {
          out.push({ code: 'unknown-rule', pointer: `${r.pointer}/before`, message: `"before: ${r.beforeMissing}" names no other rule of this map` });
        }
        if (r.body.kind === 'group') visit(r.body.rules);
        else if (r.body.kind === 'switch') for (const c of r.body.cases) visit(c.rules);
        else if (r.body.action.kind === 'part' && r.body.action.name !== undefined && !Object.hasOwn(kinds, r.body.action.name)) {
          const hint = didYouMean(r.body.action.name, Object.keys(kinds));
          out.push({ code: 'unknown-kind', pointer: `${r.pointer}/part/kind`, message: `kind "${r.body.action.name}" is not in the kind table (parts.kinds)`, hint: hint ?? `kinds: ${Object.keys(kinds).join(', ') || 'none'}` });
        }
      }
    };
    visit(ir.response);
    visit(ir.stream.all);
    for (const e of ir.stream.events) visit(e.rules);
    return out;
  },
};
