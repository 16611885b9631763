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
