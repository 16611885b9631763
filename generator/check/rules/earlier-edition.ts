/**
 * Forms of an earlier edition of the spec language, each named at its place with the form that
 * replaces it (docs/spec-language-migration.md lists them). The file is not read further: the
 * schema would only call the old key unknown.
 */
import type { Finding, FileRule } from './rule.js';

interface OldForm {
  /** Where the old form sits (keys from the document's root). */
  at: readonly string[];
  message: string;
  /** The new form, shown as the fix. */
  hint: string;
}

const OLD_FORMS: readonly OldForm[] = [
  { at: ['request', 'stream'], message: '`request.stream.body` is `request.streamBody` in the third edition (`stream` is only the stream section)', hint: 'write request: { streamBody: { … } }' },
  { at: ['finishReasons'], message: '`finishReasons` is `finish` in the third edition (the profile\'s name)', hint: 'write finish: { map: { … }, other: other }' },
  { at: ['request', 'messages', 'mergeConsecutive'], message: '`mergeConsecutive` is `merge` in the third edition (the profile\'s name)', hint: 'write messages: { merge: content } or merge: { field: text, join: "\\n" }' },
  { at: ['request', 'blocking'], message: '`request.blocking.body` is `request.blockingBody` in the third edition', hint: 'write request: { blockingBody: { … } }' },
];

export const earlierEdition: FileRule = {
  name: 'earlier-edition',
  fatal: true,
  check(_file, doc) {
    const out: Finding[] = [];
    for (const form of OLD_FORMS) {
      let v: unknown = doc;
      for (const k of form.at) v = v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>)[k] : undefined;
      if (v !== undefined) out.push({ code: 'earlier-edition', pointer: `/${form.at.join('/')}`, message: form.message, hint: form.hint, atKey: true });
    }
    return out;
  },
};
