/** All semantic rules, run in this order after schema validation and extends. */
import { bodyWriteConflicts } from './body-writes.js';
import { fidelity } from './fidelity.js';
import { finishTable } from './finish-table.js';
import type { SemanticRule } from './rule.js';
import { ruleShape } from './rule-shape.js';
import { specComplete } from './spec-complete.js';
import { streamPaths } from './stream-paths.js';
import { templateSlots } from './template-slots.js';

export const SEMANTIC_RULES: SemanticRule[] = [specComplete, finishTable, fidelity, templateSlots, ruleShape, streamPaths, bodyWriteConflicts];
