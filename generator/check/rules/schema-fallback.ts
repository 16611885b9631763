/**
 * `request.responseFormat.schemaFallback` says how a typed reply travels on a wire with no
 * JSON-schema form: it is refused beside a jsonSchema form (it would never be used), and `tool`
 * needs the tools and the named tool-choice form the forced tool is written with.
 */
import type { Finding, SemanticRule } from './rule.js';

const POINTER = '/request/responseFormat/schemaFallback';

export const schemaFallback: SemanticRule = {
  name: 'schema-fallback',
  check(ir) {
    const fallback = ir.doc.request?.responseFormat?.schemaFallback;
    if (fallback === undefined || fallback === null) return [];
    const t = ir.templates;
    const out: Finding[] = [];
    if (t.responseFormat.jsonSchema) {
      out.push({
        code: 'bad-value',
        pointer: POINTER,
        message: 'this spec has a jsonSchema form, which a typed reply always uses: the fallback would never be used',
        hint: 'remove schemaFallback, or write `jsonSchema: null` when the wire has no JSON-schema mode',
      });
    } else if (fallback === 'tool' && (!t.tools || !t.toolChoice.named)) {
      out.push({
        code: 'bad-value',
        pointer: POINTER,
        message: `a forced tool needs ${!t.tools ? '`request.tools`' : 'a `request.toolChoice.named` form'}: the reply is asked for as a call of one named tool`,
        hint: 'declare the tool templates and the named tool choice, or use `schemaFallback: instruction`',
      });
    }
    return out;
  },
};
