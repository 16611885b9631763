/**
 * No spec may write `__proto__`, `constructor` or `prototype`: not as a body path segment, not as
 * a template key, not in the fields forced into the body. At run time such a write could reach an
 * object's prototype; the runtime refuses them too.
 */
import { FORBIDDEN_KEYS } from '../../../runtime/request/safe-merge.js';
import type { TemplateNode } from '../../ir/templates.js';
import { escapePointer } from '../../load/parse-spec.js';
import type { Finding, SemanticRule } from './rule.js';
import { templatesOf } from './template-slots.js';

const HINT = `${[...FORBIDDEN_KEYS].join(', ')} can reach a prototype; use another key`;

export const forbiddenKeys: SemanticRule = {
  name: 'forbidden-keys',
  check(ir) {
    const out: Finding[] = [];
    for (const w of ir.writes) {
      const bad = w.path.segments.find((s) => typeof s === 'string' && FORBIDDEN_KEYS.has(s));
      if (bad !== undefined) out.push({ code: 'forbidden-key', pointer: w.pointer, message: `the path ${w.path.text} writes ${bad}`, hint: HINT });
    }
    const visit = (node: TemplateNode | undefined): void => {
      if (!node) return;
      if (node.kind === 'array') node.items.forEach(visit);
      if (node.kind !== 'object') return;
      for (const [k, v] of node.entries) {
        if (FORBIDDEN_KEYS.has(k)) out.push({ code: 'forbidden-key', pointer: `${node.pointer}/${escapePointer(k)}`, message: `a template writes the key ${k}`, hint: HINT, atKey: true });
        visit(v);
      }
    };
    for (const [node] of templatesOf(ir)) visit(node);
    const forced = (v: unknown, pointer: string): void => {
      if (typeof v !== 'object' || v === null) return;
      for (const [k, x] of Object.entries(v)) {
        if (FORBIDDEN_KEYS.has(k)) out.push({ code: 'forbidden-key', pointer, message: `the body would get the key ${k}`, hint: HINT });
        forced(x, `${pointer}/${k}`);
      }
    };
    forced(ir.profile.request.streamBody, '/request/streamBody');
    forced(ir.profile.request.blockingBody, '/request/blockingBody');
    // Served bodies take these as data: fields filled into output items, finish-table values.
    forced(ir.serve?.fill, '/serve/fill');
    forced(ir.serve?.finish, '/serve/finish');
    return out;
  },
};
