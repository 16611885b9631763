/** Spec problems, collected across all stages and printed as `file:line:col CODE message (at /pointer)`. */

export type DiagnosticCode =
  | 'yaml-syntax'
  | 'duplicate-key'
  | 'too-many-aliases'
  | 'unknown-key'
  | 'wrong-type'
  | 'missing-field'
  | 'bad-value'
  | 'bad-id'
  | 'bad-extends'
  | 'extends-cycle'
  | 'incomplete-spec'
  | 'finish-no-fallback'
  | 'finish-unknown-value'
  | 'path-conflict'
  | 'dead-rule'
  | 'rule-shape'
  | 'fidelity-missing'
  | 'unknown-field'
  | 'unknown-slot'
  | 'unknown-placeholder'
  | 'write-conflict'
  | 'generated-type-error'
  | 'bad-template'
  | 'forbidden-key'
  | 'bad-pattern'
  | 'unknown-kind'
  | 'unknown-rule'
  | 'earlier-edition'
  // Notes (not errors): what the server side reads back differently (check/serve-notes.ts).
  | 'reads-back-as'
  | 'not-invertible'
  | 'not-served';

export interface Diagnostic {
  code: DiagnosticCode;
  message: string;
  file: string;
  line: number;
  col: number;
  /** JSON pointer into the spec document. */
  pointer: string;
  hint?: string;
}

export function formatDiagnostic(d: Diagnostic): string {
  const hint = d.hint ? `; ${d.hint}` : '';
  return `${d.file}:${d.line}:${d.col} ${d.code} ${d.message} (at ${d.pointer || '/'})${hint}`;
}

/** Diagnostics sorted by file, then position, so output is stable. */
export function sortDiagnostics(list: Diagnostic[]): Diagnostic[] {
  return [...list].sort(
    (a, b) =>
      a.file.localeCompare(b.file) || a.line - b.line || a.col - b.col || a.code.localeCompare(b.code),
  );
}

/** Thrown by the pipeline when a spec set has problems; the CLI prints them. */
export class SpecError extends Error {
  readonly diagnostics: Diagnostic[];
  constructor(diagnostics: Diagnostic[]) {
    super(sortDiagnostics(diagnostics).map(formatDiagnostic).join('\n'));
    this.name = 'SpecError';
    this.diagnostics = sortDiagnostics(diagnostics);
  }
}

/** Closest candidate by edit distance, for `did you mean` hints: the one the gateway's config check uses too. */
export { didYouMean } from '../runtime/closest-name.js';
