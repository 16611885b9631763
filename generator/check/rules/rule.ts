/** A semantic rule: one check over a spec's IR (and the typed document it came from), returning located problems. */
import type { DiagnosticCode } from '../../diagnostics.js';
import type { SpecIR } from '../../ir/types.js';

export interface Finding {
  code: DiagnosticCode;
  pointer: string;
  message: string;
  hint?: string;
  /** Point at the key rather than the value (unknown or misplaced keys). */
  atKey?: boolean;
}

export interface SemanticRule {
  name: string;
  check(ir: SpecIR): Finding[];
}

/** A rule over one spec file as written, before extends: its findings are located in that file. */
export interface FileRule {
  name: string;
  /** A finding of this rule leaves the file out of every later stage (there is no spec to read). */
  fatal?: boolean;
  check(file: string, doc: unknown): Finding[];
}
