/** A semantic rule: one check over a resolved spec and its IR, returning located problems. */
import type { DiagnosticCode } from '../../diagnostics.js';
import type { SpecIR } from '../../ir/types.js';
import type { ResolvedSpec } from '../../resolve/resolve-extends.js';

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
  check(spec: ResolvedSpec, ir: SpecIR): Finding[];
}
