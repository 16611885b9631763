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
  | 'body'
  | 'serve.response'
  | 'serve.step'
  | 'serve.chunk'
  | 'serve.error';

const STEP_SLOTS = ['id', 'model', 'created', 'createdAt', 'seq', 'index', 'callIndex', 'first', 'itemId', 'delta', 'text', 'signature', 'redacted', 'format', 'summary', 'callId', 'name', 'arguments', 'argumentsObject', 'finish', 'usage', 'response', 'message', 'type', 'code', 'status', 'wire', 'envelope', 'request'];

/** The slots each template context offers (emit/slot-exprs.ts says what each one reads). */
export const SLOTS: Record<SlotContext, readonly string[]> = {
  'roles.system': ['text'],
  'roles.user': ['content', 'parts', 'text', 'images', 'name'],
  'roles.assistant': ['text', 'blocks', 'toolCalls', 'thinking', 'thinkingText'],
  'roles.tool': ['toolCallId', 'toolName', 'content', 'parts', 'text', 'isError', 'kind', 'output', 'plainText'],
  'roles.approval': ['requestId', 'approve', 'reason'],
  'parts.text': ['text', 'cacheControl'],
  'parts.imageUrl': ['url', 'mediaType', 'cacheControl'],
  'parts.imageData': ['data', 'mediaType', 'mediaSubtype', 'dataUrl', 'cacheControl'],
  'blocks.thinking': ['text', 'signature', 'id', 'format', 'index'],
  'blocks.summaryThinking': ['text', 'signature', 'id', 'format', 'index'],
  'blocks.redactedThinking': ['data', 'id', 'format', 'index'],
  'blocks.text': ['text', 'signature', 'phase', 'id'],
  'blocks.toolCall': ['signature', 'id', 'name', 'arguments', 'argumentsObject'],
  'system.template': ['text'],
  'tools.item': ['name', 'description', 'parameters', 'strict', 'cacheControl'],
  'tools.wrap': ['items'],
  toolChoice: ['name', 'noParallel'],
  responseFormat: ['name', 'schema', 'strict'],
  'param.template': ['value'],
  body: [],
  // Serve templates (the mock server and the gateway): object slots may be read further with dots.
  // `$request` is the client's request body as it arrived (a response echoes its settings);
  // `$json.<slot>` is a slot's value as JSON text.
  'serve.response': ['id', 'model', 'created', 'createdAt', 'message', 'finish', 'usage', 'request'],
  'serve.step': STEP_SLOTS,
  // A step's slots and $body, the part the step's `$chunk` wrote.
  'serve.chunk': [...STEP_SLOTS, 'body'],
  'serve.error': ['message', 'type', 'code', 'status'],
};

/** Serve slots that hold an object a template may read into (`$message.content`, `$finish.status`). */
export const OBJECT_SLOTS: readonly string[] = ['message', 'usage', 'response', 'argumentsObject', 'finish', 'wire', 'envelope', 'body', 'request'];

/** The slot a (possibly dotted) slot name reads: `message.content` reads `message`. */
export function slotRoot(name: string, ctx: SlotContext): string {
  return ctx.startsWith('serve.') ? name.split('.')[0]! : name;
}

/** Slots that read a unified request field, so a template using one carries that field. */
export const SLOT_FIELDS: Record<string, string> = { noParallel: 'parallelToolCalls' };

/** The unified request fields a spec must give a disposition in `request.params` (the runtime's list). */
export { PARAM_FIELDS, type ParamField } from '../../runtime/contract/param-fields.js';

export const UNIFIED_FINISH = ['stop', 'length', 'tool_calls', 'content_filter', 'refusal', 'error', 'other'] as const;
