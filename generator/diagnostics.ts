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

/** Closest candidate by edit distance, for `did you mean` hints. */
export function didYouMean(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestScore = Infinity;
  for (const c of candidates) {
    const score = editDistance(word.toLowerCase(), c.toLowerCase());
    if (score < bestScore) {
      bestScore = score;
      best = c;
    }
  }
  const limit = Math.max(2, Math.floor(word.length / 3));
  return best !== undefined && bestScore <= limit ? `did you mean "${best}"?` : undefined;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length]!;
}
