/** Two mappings must not write the same place in the request body. */
import { bodyWrites, planBody } from '../../emit/plan-body.js';
import type { SemanticRule } from './rule.js';

export const bodyWriteConflicts: SemanticRule = {
  name: 'body-writes',
  check(_spec, ir) {
    return planBody(bodyWrites(ir, () => '')).conflicts.map((c) => ({ code: 'write-conflict' as const, pointer: c.pointer, message: c.message }));
  },
};
