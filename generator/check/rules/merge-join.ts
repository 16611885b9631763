/**
 * `messages.merge` of a field some role writes as a string needs `join`: without it two
 * strings are not joined but listed (`["a","b"]`), or made text parts, and the field changes type
 * on the wire. A field that may be a string or a list (`$content`) needs a text part template.
 */
import type { TemplateNode } from '../../ir/templates.js';
import type { Finding, SemanticRule } from './rule.js';

/** Role slots whose value is always a string (docs/spec-language.md, the slot table). */
const STRING_SLOTS = new Set(['text', 'thinkingText', 'name', 'toolCallId', 'toolName', 'requestId', 'reason']);
/** Role slots whose value is a string or a list of parts. */
const STRING_OR_LIST_SLOTS = new Set(['content']);

export const mergeJoin: SemanticRule = {
  name: 'merge-join',
  check(ir) {
    const merge = ir.profile.request.messages.merge;
    if (!merge || merge.join !== undefined) return [];
    const out: Finding[] = [];
    const pointer = '/request/messages/merge';
    for (const [role, node] of Object.entries(ir.templates.roles)) {
      const value = node?.kind === 'object' ? node.entries.find(([k]) => k === merge.field)?.[1] : undefined;
      const kind = value && stringKind(value);
      // A value that may be a string is made a text part when the spec has a template for one.
      if (kind === undefined || (kind === 'maybe' && ir.templates.parts.text)) continue;
      const fix = `merge: { field: ${merge.field}, join: "\\n" }`;
      out.push({
        code: 'bad-value',
        pointer,
        message:
          kind === 'string'
            ? `merging "${merge.field}" without join: the ${role} template writes it as a string, and two strings would be sent as a list`
            : `merging "${merge.field}" without join: the ${role} template may write it as a string, and with no text part template two strings would be sent as a list`,
        hint: kind === 'string' ? `give the separator: ${fix}` : `give the separator (${fix}) or a parts.text template`,
      });
    }
    return out;
  },
};

function stringKind(v: TemplateNode): 'string' | 'maybe' | undefined {
  if (v.kind === 'concat' || (v.kind === 'literal' && typeof v.value === 'string')) return 'string';
  if (v.kind !== 'slot') return undefined;
  if (STRING_SLOTS.has(v.name)) return 'string';
  return STRING_OR_LIST_SLOTS.has(v.name) ? 'maybe' : undefined;
}
