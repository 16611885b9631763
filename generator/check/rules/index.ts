/** All semantic rules, run in this order after schema validation and extends; and the rules over each file as written. */
import { bodyWriteConflicts } from './body-writes.js';
import { earlierEdition } from './earlier-edition.js';
import { endpointPlaceholders } from './endpoint-placeholders.js';
import { fidelity } from './fidelity.js';
import { finishTable } from './finish-table.js';
import { forbiddenKeys } from './forbidden-keys.js';
import { mergeJoin } from './merge-join.js';
import { partKinds } from './part-kinds.js';
import { patterns } from './patterns.js';
import type { FileRule, SemanticRule } from './rule.js';
import { ruleShape } from './rule-shape.js';
import { schemaFallback } from './schema-fallback.js';
import { serveChunk } from './serve-chunk.js';
import { specComplete } from './spec-complete.js';
import { idMatchesFile, specIsMapping } from './spec-file.js';
import { streamPaths } from './stream-paths.js';
import { templateSlots } from './template-slots.js';
import { templateSyntax } from './template-syntax.js';
import { toolsWhen } from './tools-when.js';

export const SEMANTIC_RULES: SemanticRule[] = [specComplete, finishTable, fidelity, templateSyntax, templateSlots, serveChunk, ruleShape, streamPaths, bodyWriteConflicts, forbiddenKeys, patterns, partKinds, endpointPlaceholders, mergeJoin, toolsWhen, schemaFallback];

/** Run on each file before schema validation, in this order: a fatal finding ends the file's run. */
export const FILE_RULES: FileRule[] = [specIsMapping, idMatchesFile, earlierEdition];
