/**
 * `when:` on the tool-choice forms and on params may name `tools` (whether the request declares
 * any), which the generator compiles into the codec: a tool choice's `when` names nothing else,
 * and `tools` takes only an `exists` test.
 */
import { didYouMean } from '../../diagnostics.js';
import type { Finding, SemanticRule } from './rule.js';

const EXAMPLE = '`when: { tools: { exists: true } }` (sent only with tools declared)';

export const toolsWhen: SemanticRule = {
  name: 'tools-when',
  check(ir) {
    const out: Finding[] = [];
    const rq = ir.doc.request;
    const testOf = (t: unknown, pointer: string): void => {
      const o = t !== null && typeof t === 'object' && !Array.isArray(t) ? (t as Record<string, unknown>) : undefined;
      if (o && Object.keys(o).length === 1 && typeof o.exists === 'boolean') return;
      out.push({ code: 'bad-value', pointer, message: '`tools` is tested only for being declared', hint: `write ${EXAMPLE} or \`{ tools: { exists: false } }\`` });
    };
    const choice: Record<string, unknown> = rq?.toolChoice?.when ?? {};
    for (const [subject, t] of Object.entries(choice)) {
      if (subject === 'tools') testOf(t, '/request/toolChoice/when/tools');
      else {
        out.push({
          code: 'unknown-field',
          pointer: `/request/toolChoice/when/${subject}`,
          message: `"${subject}" is not a subject of a tool choice's condition: it names only \`tools\``,
          hint: didYouMean(subject, ['tools']) ?? `write ${EXAMPLE}`,
          atKey: true,
        });
      }
    }
    for (const [field, v] of Object.entries(rq?.params ?? {})) {
      const when = typeof v === 'object' && v !== null ? (v.when as Record<string, unknown> | undefined) : undefined;
      if (when && 'tools' in when) testOf(when.tools, `/request/params/${field}/when/tools`);
    }
    return out;
  },
};
