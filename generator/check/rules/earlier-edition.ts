/**
 * Forms of an earlier edition of the spec language, each named at its place with the form that
 * replaces it (docs/spec-language-migration.md lists them). The file is not read further: the
 * schema would only call the old key unknown.
 */
import type { Finding, FileRule } from './rule.js';

interface OldForm {
  /** Where the old form sits (keys from the document's root; `*` any key or index). */
  at: readonly string[];
  message: string;
  /** The new form, shown as the fix. */
  hint: string;
  /** Only a value this accepts is the old form (a string that is a regular expression, not a literal). */
  is?: (value: unknown) => boolean;
}

/** A continuity `model` test written as the first edition's regular expression (now a literal, compared for equality). */
const looksLikeRegex = (v: unknown): boolean => typeof v === 'string' && /^\^|\$$|[*+?[\](){}|\\]/.test(v);

const OLD_FORMS: readonly OldForm[] = [
  { at: ['request', 'stream'], message: '`request.stream.body` is `request.streamBody` in the third edition (`stream` is only the stream section)', hint: 'write request: { streamBody: { … } }' },
  { at: ['finishReasons'], message: '`finishReasons` is `finish` in the third edition (the profile\'s name)', hint: 'write finish: { map: { … }, other: other }' },
  { at: ['request', 'messages', 'mergeConsecutive'], message: '`mergeConsecutive` is `merge` in the third edition (the profile\'s name)', hint: 'write messages: { merge: content } or merge: { field: text, join: "\\n" }' },
  { at: ['request', 'blocking'], message: '`request.blocking.body` is `request.blockingBody` in the third edition', hint: 'write request: { blockingBody: { … } }' },
  // First edition → second (docs/spec-language-migration.md, "Keys one provider needed", "Conditions").
  { at: ['request', 'params', '*', 'defaultAdds'], message: '`defaultAdds` (first edition) is a `sum` default since the second edition', hint: 'write default: { sum: [4096, reasoning.budgetTokens] }' },
  { at: ['request', 'params', '*', 'droppedWhen'], message: '`droppedWhen: <field>` (first edition) is a `when` condition since the second edition', hint: 'write when: { reasoning.budgetTokens: { exists: false } } (sent only while the field is unset)' },
  { at: ['request', 'params', '*', 'via'], message: '`via: toolChoice` (first edition) is gone: the tool-choice templates read `$noParallel`, and a field a template reads is carried there', hint: 'remove the param entry and read $noParallel in the toolChoice forms' },
  { at: ['request', 'toolChoice', 'whenUnset'], message: '`whenUnset` (first edition) is the `unset` form since the second edition', hint: 'write unset: { type: auto } (the form sent when tools are declared and the request gives no choice)' },
  { at: ['request', 'responseFormat', 'into'], message: '`into` (first edition) is `to` since the second edition', hint: 'write responseFormat: { to: generationConfig, … }' },
  { at: ['request', 'model', 'inPath'], message: '`model: { inPath: true }` (first edition) is no `model` key since the second edition: the endpoint path\'s {model} carries it', hint: 'remove request.model and put {model} in endpoint.path' },
  { at: ['request', 'model', 'to'], message: '`model: { to: … }` (first edition) is the path itself since the second edition', hint: 'write model: model' },
  { at: ['continuity', 'rules', '*', 'omit'], message: '`omit` (first edition) is `drop` since the second edition (history reasoning silently, request fields with a warning)', hint: 'write drop: [thinking]' },
  { at: ['continuity', 'rules', '*', 'dropFields'], message: '`dropFields` (first edition) is `drop` since the second edition', hint: 'write drop: [reasoning.effort]' },
  { at: ['continuity', 'rules', '*', 'when', 'notModel'], message: '`notModel` (first edition) is a `not` test since the second edition', hint: 'write when: { model: { not: { matches: "^x" } } }' },
  { at: ['continuity', 'rules', '*', 'when', 'model'], is: looksLikeRegex, message: 'a continuity `model` test is a literal since the second edition (the first edition read it as a regular expression)', hint: 'write when: { model: { matches: "^x" } }' },
];

/** Each place `at` names in `doc` that holds a value, with its JSON pointer. */
function places(doc: unknown, at: readonly string[], pointer = ''): Array<[string, unknown]> {
  if (at.length === 0) return doc === undefined ? [] : [[pointer, doc]];
  if (doc === null || typeof doc !== 'object') return [];
  const [k, ...rest] = at as [string, ...string[]];
  const keys = k === '*' ? Object.keys(doc) : [k];
  return keys.flatMap((key) => places((doc as Record<string, unknown>)[key], rest, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`));
}

export const earlierEdition: FileRule = {
  name: 'earlier-edition',
  fatal: true,
  check(_file, doc) {
    const out: Finding[] = [];
    for (const form of OLD_FORMS) {
      for (const [pointer, v] of places(doc, form.at)) if (!form.is || form.is(v)) out.push({ code: 'earlier-edition', pointer, message: form.message, hint: form.hint, atKey: true });
    }
    return out;
  },
};
