/**
 * Which `$slots` each template context offers. The emitter turns a slot into an expression over
 * the context variable; the `unknown-slot` rule checks specs against these tables.
 */

export type SlotContext =
  | 'roles.system'
  | 'roles.user'
  | 'roles.assistant'
  | 'roles.tool'
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

/** slot name → TypeScript expression (the context variable is `m`, `p`, `b`, `t`, `c` or `v`). */
export const SLOTS: Record<SlotContext, Record<string, string>> = {
  'roles.system': { text: 'm.content' },
  'roles.user': {
    content: 'cx.content(m.content)',
    parts: 'cx.parts(m.content)',
    text: 'cx.text(m.content)',
    images: 'cx.imageData(m.content)',
    name: 'm.name',
  },
  'roles.assistant': {
    text: 'cx.assistantText(m)',
    blocks: 'cx.blocks(m)',
    toolCalls: 'cx.toolCalls(m)',
    thinking: 'cx.thinkingBlocks(m)',
    thinkingText: 'cx.thinkingText(m)',
  },
  'roles.tool': {
    toolCallId: 'm.toolCallId',
    toolName: 'm.toolName',
    content: 'cx.content(m.content)',
    parts: 'cx.parts(m.content)',
    text: 'cx.text(m.content)',
    isError: '(m.isError || undefined)',
  },
  'parts.text': { text: 'p.text' },
  'parts.imageUrl': { url: 'p.url', mediaType: 'p.mediaType' },
  'parts.imageData': { data: 'p.data', mediaType: 'p.mediaType', dataUrl: '`data:${p.mediaType};base64,${p.data}`' },
  'blocks.thinking': { text: 'b.text', signature: 'b.signature', id: 'b.id', format: 'b.format', position: 'i' },
  'blocks.summaryThinking': { text: 'b.text', signature: 'b.signature', id: 'b.id', format: 'b.format', position: 'i' },
  'blocks.redactedThinking': { data: 'b.redacted', id: 'b.id', format: 'b.format', position: 'i' },
  'blocks.text': { text: 'b' },
  'blocks.toolCall': {
    signature: 'b.signature',
    id: 'b.id',
    name: 'b.name',
    arguments: 'b.arguments',
    argumentsObject: 'cx.argumentsObject(b)',
  },
  'system.template': { text: 'v' },
  'tools.item': { name: 't.name', description: 't.description', parameters: 't.parameters', strict: 't.strict' },
  'tools.wrap': { items: 'v' },
  toolChoice: { name: 'c.name', noParallel: 'c.noParallel' },
  responseFormat: { name: 'f.name', schema: 'f.schema', strict: 'f.strict' },
  'param.template': { value: 'v' },
  body: {},
};

/** The unified request fields a spec must give a disposition in `request.params`. */
export const PARAM_FIELDS = [
  'maxTokens',
  'temperature',
  'topP',
  'stop',
  'parallelToolCalls',
  'reasoning.effort',
  'reasoning.budgetTokens',
  'reasoning.summary',
  'user',
  'store',
  'previousResponseId',
  'metadata',
] as const;

export type ParamField = (typeof PARAM_FIELDS)[number];

/** TypeScript expression reading a unified param field from the request `req`. */
export const PARAM_EXPR: Record<ParamField, string> = {
  maxTokens: 'req.maxTokens',
  temperature: 'req.temperature',
  topP: 'req.topP',
  stop: 'req.stop',
  parallelToolCalls: 'req.parallelToolCalls',
  'reasoning.effort': 'req.reasoning?.effort',
  'reasoning.budgetTokens': 'req.reasoning?.budgetTokens',
  'reasoning.summary': 'req.reasoning?.summary',
  user: 'req.user',
  store: 'req.store',
  previousResponseId: 'req.previousResponseId',
  metadata: 'req.metadata',
};

export const UNIFIED_FINISH = ['stop', 'length', 'tool_calls', 'content_filter', 'refusal', 'error', 'other'] as const;
