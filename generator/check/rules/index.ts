/** All semantic rules, run in this order after schema validation and extends. */
import { bodyWriteConflicts } from './body-writes.js';
import { endpointPlaceholders } from './endpoint-placeholders.js';
import { fidelity } from './fidelity.js';
import { finishTable } from './finish-table.js';
import { forbiddenKeys } from './forbidden-keys.js';
import { mergeJoin } from './merge-join.js';
import { partKinds } from './part-kinds.js';
import { patterns } from './patterns.js';
import type { SemanticRule } from './rule.js';
import { ruleShape } from './rule-shape.js';
import { specComplete } from './spec-complete.js';
import { streamPaths } from './stream-paths.js';
import { templateSlots } from './template-slots.js';
import { templateSyntax } from './template-syntax.js';

export const SEMANTIC_RULES: SemanticRule[] = [specComplete, finishTable, fidelity, templateSyntax, templateSlots, ruleShape, streamPaths, bodyWriteConflicts, forbiddenKeys, patterns, partKinds, endpointPlaceholders, mergeJoin];
