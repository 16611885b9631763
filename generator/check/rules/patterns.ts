/** Every `matches` test is a regular expression that compiles (a bad one would throw at run time). */
import type { Test } from '../../../runtime/contract/profile.js';
import type { Rule } from '../../ir/types.js';
import type { Finding, SemanticRule } from './rule.js';

export const patterns: SemanticRule = {
  name: 'patterns',
  check(ir) {
    const out: Finding[] = [];
    const test = (t: Test, pointer: string): void => {
      if ('not' in t) return test(t.not, pointer);
      if (!('matches' in t)) return;
      try {
        new RegExp(t.matches);
      } catch (e) {
        out.push({ code: 'bad-pattern', pointer, message: `${JSON.stringify(t.matches)} is not a regular expression: ${e instanceof Error ? e.message : String(e)}` });
      }
    };
    const rules = (list: Rule[]): void => {
      for (const r of list) {
        for (const c of r.when) test(c.test, `${r.pointer}/when`);
        if (r.body.kind === 'group') rules(r.body.rules);
        if (r.body.kind === 'switch') for (const c of r.body.cases) rules(c.rules);
      }
    };
    rules(ir.response);
    rules(ir.stream.all);
    for (const e of ir.stream.events) rules(e.rules);
    for (const [field, p] of Object.entries(ir.profile.request.params)) {
      if (p && 'when' in p && p.when) for (const t of Object.values(p.when)) test(t, `/request/params/${field}/when`);
    }
    for (const [kind, k] of Object.entries(ir.profile.parts?.kinds ?? {})) {
      for (const p of k.parts) for (const [name, f] of Object.entries(p.fields)) if ('test' in f) test(f.test, `/parts/kinds/${kind}/${p.part}/${name}`);
    }
    (ir.profile.continuity?.rules ?? []).forEach((r, i) => {
      for (const t of Object.values(r.when)) test(t, `/continuity/rules/${i}/when`);
    });
    return out;
  },
};
