/** Each rule does exactly one thing, and tool-call rules can address the call they touch. */
import { ACTIONS } from '../../ir/actions.js';
import { escapePointer } from '../../load/parse-spec.js';
import type { RuleDocument, RulesDocument } from '../../load/spec-document.js';
import type { Finding, SemanticRule } from './rule.js';

const STRUCTURE = ['switch', 'rules'] as const;

export const ruleShape: SemanticRule = {
  name: 'rule-shape',
  check(ir) {
    const out: Finding[] = [];
    const visitRules = (rules: RulesDocument | null | undefined, pointer: string) => {
      for (const [name, r] of Object.entries(rules ?? {})) if (r) visit(r, `${pointer}/${escapePointer(name)}`);
    };
    const visit = (r: RuleDocument, pointer: string) => {
      const kinds = [...ACTIONS, ...STRUCTURE].filter((k) => r[k] !== undefined);
      if (kinds.length !== 1) {
        out.push({
          code: 'rule-shape',
          pointer,
          message: kinds.length ? `a rule does one thing, this one has ${kinds.join(' and ')}` : 'a rule needs one action',
          hint: `one of: ${ACTIONS.join(', ')}, or switch/cases, or rules`,
        });
      }
      if ((r.switch === undefined) !== (r.cases === undefined)) {
        out.push({ code: 'rule-shape', pointer, message: '`switch` and `cases` go together' });
      }
      const tc = r.toolCall;
      if (tc && !tc.complete && tc.index === undefined && (tc.start || tc.end || tc.argumentsFull || tc.argumentsObject)) {
        out.push({
          code: 'rule-shape',
          pointer: `${pointer}/toolCall`,
          message: 'a tool-call rule that opens, closes or replaces arguments needs `index` to find its call',
          hint: 'add `index: <path>`, or `complete: true` when the call arrives whole',
        });
      }
      if (r.rules) visitRules(r.rules, `${pointer}/rules`);
      for (const [value, rules] of Object.entries(r.cases ?? {})) visitRules(rules, `${pointer}/cases/${value}`);
    };
    const d = ir.doc;
    visitRules(d.response, '/response');
    for (const [event, rules] of Object.entries(d.stream?.on ?? {})) visitRules(rules, `/stream/on/${event}`);
    return out;
  },
};
