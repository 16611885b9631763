/**
 * Paths that cannot exist: two rules that read one field as different kinds of value, and rules
 * under a `switch` case whose `when` demands another value of the switched field, and named
 * events on a framing that names none.
 */
import type { Rule } from '../../ir/types.js';
import type { Finding, SemanticRule } from './rule.js';

export const streamPaths: SemanticRule = {
  name: 'stream-paths',
  check(ir) {
    const out: Finding[] = ir.wire.conflicts.map((c) => ({ code: 'path-conflict' as const, pointer: c.pointer, message: c.message }));
    const dead = (rules: Rule[], switched: Array<{ path: string; value: string }>) => {
      for (const r of rules) {
        for (const c of r.when) {
          const s = switched.find((x) => x.path === c.path.text);
          if (s && 'eq' in c.test && String(c.test.eq) !== s.value) {
            out.push({
              code: 'dead-rule',
              pointer: `${r.pointer}/when`,
              message: `rule "${r.name}" needs ${c.path.text} = ${JSON.stringify(c.test.eq)} inside the case ${JSON.stringify(s.value)} of a switch on ${c.path.text}: it can never run`,
            });
          }
        }
        const scope = r.each ? [] : switched;
        if (r.body.kind === 'group') dead(r.body.rules, scope);
        if (r.body.kind === 'switch') for (const c of r.body.cases) dead(c.rules, [...scope, { path: r.body.on.text, value: c.value }]);
      }
    };
    dead(ir.response, []);
    dead(ir.stream.all, []);
    for (const e of ir.stream.events) dead(e.rules, []);
    // NDJSON lines have no event name of their own: named events need a field that names them.
    const named = ir.stream.events.filter((e) => e.name !== '*');
    if (ir.profile.stream.framing === 'ndjson' && !ir.stream.eventKey && named.length) {
      out.push({
        code: 'dead-rule',
        pointer: `/stream/on/${named[0]!.name.replace(/~/g, '~0').replace(/\//g, '~1')}`,
        atKey: true,
        message: `NDJSON lines carry no event name, and no \`stream.eventKey\` says which field names them: the rules under "${named[0]!.name}"${named.length > 1 ? ` and ${named.length - 1} other event(s)` : ''} can never run`,
        hint: 'set stream.eventKey to the field that names each line (e.g. eventKey: type), or put the rules under the \`"*"\` event (every line)',
      });
    }
    return out;
  },
};
