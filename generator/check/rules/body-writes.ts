/** Two mappings must not write the same place in the request body. */
import { planBody } from '../../ir/plan-body.js';
import type { SemanticRule } from './rule.js';

export const bodyWriteConflicts: SemanticRule = {
  name: 'body-writes',
  check(ir) {
    return planBody(ir.writes).map((c) => ({ code: 'write-conflict' as const, pointer: c.pointer, message: c.message }));
  },
};
