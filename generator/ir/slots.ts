/**
 * Which `$slots` each template context offers. The `unknown-slot` rule checks specs against
 * these lists; the emitter turns each slot into an expression (emit/slot-exprs.ts).
 */

export type SlotContext =
  | 'roles.system'
  | 'roles.user'
  | 'roles.assistant'
  | 'roles.tool'
  | 'roles.approval'
  | 'parts.text'
  | 'parts.imageUrl'
  | 'parts.imageData'
  | 'blocks.thinking'
  | 'blocks.summaryThinking'
  | 'blocks.redactedThinking'
  | 'blocks.text'
  | 'blocks.toolCall'
  | 'system.template'
  | 'tools.item'
  | 'tools.wrap'
  | 'toolChoice'
  | 'responseFormat'
  | 'param.template'
  | 'body';

/** The slots each template context offers (emit/slot-exprs.ts says what each one reads). */
export const SLOTS: Record<SlotContext, readonly string[]> = {
  'roles.system': ['text'],
  'roles.user': ['content', 'parts', 'text', 'images', 'name'],
  'roles.assistant': ['text', 'blocks', 'toolCalls', 'thinking', 'thinkingText'],
  'roles.tool': ['toolCallId', 'toolName', 'content', 'parts', 'text', 'isError'],
  'roles.approval': ['requestId', 'approve', 'reason'],
  'parts.text': ['text'],
  'parts.imageUrl': ['url', 'mediaType'],
  'parts.imageData': ['data', 'mediaType', 'mediaSubtype', 'dataUrl'],
  'blocks.thinking': ['text', 'signature', 'id', 'format', 'index'],
  'blocks.summaryThinking': ['text', 'signature', 'id', 'format', 'index'],
  'blocks.redactedThinking': ['data', 'id', 'format', 'index'],
  'blocks.text': ['text', 'signature', 'phase'],
  'blocks.toolCall': ['signature', 'id', 'name', 'arguments', 'argumentsObject'],
  'system.template': ['text'],
  'tools.item': ['name', 'description', 'parameters', 'strict'],
  'tools.wrap': ['items'],
  toolChoice: ['name', 'noParallel'],
  responseFormat: ['name', 'schema', 'strict'],
  'param.template': ['value'],
  body: [],
};

/** Slots that read a unified request field, so a template using one carries that field. */
export const SLOT_FIELDS: Record<string, string> = { noParallel: 'parallelToolCalls' };

/** The unified request fields a spec must give a disposition in `request.params` (the runtime's list). */
export { PARAM_FIELDS, type ParamField } from '../../runtime/profile.js';

export const UNIFIED_FINISH = ['stop', 'length', 'tool_calls', 'content_filter', 'refusal', 'error', 'other'] as const;
