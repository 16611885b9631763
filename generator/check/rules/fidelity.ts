/** Every unified request field is mapped, dropped with a reason, or rejected: nothing is left to chance. */
import { didYouMean } from '../../diagnostics.js';
import { PARAM_FIELDS } from '../../ir/slots.js';
import type { Finding, SemanticRule } from './rule.js';

export const fidelity: SemanticRule = {
  name: 'fidelity',
  check(ir) {
    const params: Record<string, unknown> = ir.doc.request?.params ?? {};
    const out: Finding[] = [];
    for (const field of Object.keys(params)) {
      if ((PARAM_FIELDS as readonly string[]).includes(field)) continue;
      out.push({
        code: 'unknown-field',
        pointer: `/request/params/${field}`,
        message: `"${field}" is not a unified request field`,
        hint: didYouMean(field, PARAM_FIELDS) ?? `fields: ${PARAM_FIELDS.join(', ')}`,
        atKey: true,
      });
    }
    // Fields named inside a param: its condition's subjects and the terms of a summed default.
    for (const [field, v] of Object.entries(params)) {
      const o = (v ?? {}) as { when?: Record<string, unknown>; default?: { sum?: unknown[] } };
      const named = [
        ...Object.keys(o.when ?? {}).map((f) => [f, `/request/params/${field}/when/${f}`] as const),
        ...(Array.isArray(o.default?.sum) ? o.default.sum : []).flatMap((t, i) => (typeof t === 'string' ? [[t, `/request/params/${field}/default/sum/${i}`] as const] : [])),
      ];
      for (const [other, pointer] of named) {
        // `tools` (whether the request declares any) is a subject too: the tools-when rule checks it.
        if ((PARAM_FIELDS as readonly string[]).includes(other) || (other === 'tools' && pointer.includes('/when/'))) continue;
        out.push({ code: 'unknown-field', pointer, message: `"${other}" is not a unified request field`, hint: didYouMean(other, PARAM_FIELDS) ?? `fields: ${PARAM_FIELDS.join(', ')}` });
      }
    }
    if (!ir.doc.request) return out;
    for (const field of PARAM_FIELDS) {
      // A field a template reads through a slot is carried there (the IR says where).
      if (field in params || ir.profile.request.params[field] !== undefined) continue;
      out.push({
        code: 'fidelity-missing',
        pointer: '/request/params',
        message: `No disposition for the unified field "${field}"`,
        hint: `map it (\`${field}: wire.path\`), or say \`${field}: { drop: <reason> }\` or \`{ reject: <reason> }\``,
        atKey: true,
      });
    }
    return out;
  },
};
