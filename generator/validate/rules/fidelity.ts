/** Every unified request field is mapped, dropped with a reason, or rejected: nothing is left to chance. */
import { didYouMean } from '../../diagnostics.js';
import { PARAM_FIELDS } from '../../ir/slots.js';
import type { Finding, SemanticRule } from './rule.js';

export const fidelity: SemanticRule = {
  name: 'fidelity',
  check(spec) {
    const params: Record<string, unknown> = (spec.doc as any).request?.params ?? {};
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
    for (const [field, v] of Object.entries(params)) {
      for (const option of ['defaultAdds', 'droppedWhen'] as const) {
        const other = (v as Record<string, unknown> | null)?.[option];
        if (typeof other === 'string' && !(PARAM_FIELDS as readonly string[]).includes(other)) {
          out.push({ code: 'unknown-field', pointer: `/request/params/${field}/${option}`, message: `"${other}" is not a unified request field`, hint: didYouMean(other, PARAM_FIELDS) });
        }
      }
    }
    if (!(spec.doc as any).request) return out;
    for (const field of PARAM_FIELDS) {
      if (field in params) continue;
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
