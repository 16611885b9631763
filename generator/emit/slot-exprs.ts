/**
 * What each `$slot` reads, as a TypeScript expression over the template's parameters: `m` and
 * `cx` for roles, `p` for parts, `b`, `cx` and `i` for blocks, `t` for tools, `c` for tool
 * choices, `f` for response formats, `v` for a single value.
 */
import type { SlotContext } from '../ir/slots.js';

/** Request-side contexts; serve slots are read by emit-serve.ts (dotted names). */
export type RequestSlotContext = Exclude<SlotContext, `serve.${string}`>;

export const SLOT_EXPRS: Record<RequestSlotContext, Record<string, string>> = {
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
    kind: 'cx.callKind(m)',
    output: 'cx.output(m)',
    plainText: 'cx.plainText(m)',
  },
  'roles.approval': { requestId: 'm.requestId', approve: 'm.approve', reason: 'm.reason' },
  'parts.text': { text: 'p.text', cacheControl: 'p.cacheControl' },
  'parts.imageUrl': { url: 'p.url', mediaType: 'p.mediaType', cacheControl: 'p.cacheControl' },
  // mediaSubtype: png of image/png (Bedrock's image format).
  'parts.imageData': { data: 'p.data', mediaType: 'p.mediaType', cacheControl: 'p.cacheControl', mediaSubtype: "(p.mediaType ?? '').replace(/^[^/]*\\//, '')", dataUrl: '`data:${p.mediaType};base64,${p.data}`' },
  'blocks.thinking': { text: 'b.text', signature: 'b.signature', id: 'b.id', format: 'b.format', index: 'i' },
  'blocks.summaryThinking': { text: 'b.text', signature: 'b.signature', id: 'b.id', format: 'b.format', index: 'i' },
  'blocks.redactedThinking': { data: 'b.redacted', id: 'b.id', format: 'b.format', index: 'i' },
  'blocks.text': { text: 'b.text', signature: 'b.signature', phase: 'b.phase', id: 'b.id' },
  'blocks.toolCall': {
    signature: 'b.signature',
    id: 'b.id',
    name: 'b.name',
    arguments: 'b.arguments',
    argumentsObject: 'cx.argumentsObject(b)',
  },
  'system.template': { text: 'v' },
  'tools.item': { name: 't.name', description: 't.description', parameters: 't.parameters', strict: 't.strict', cacheControl: 't.cacheControl' },
  'tools.wrap': { items: 'v' },
  toolChoice: { name: 'c.name', noParallel: 'c.noParallel' },
  responseFormat: { name: 'f.name', schema: 'f.schema', strict: 'f.strict' },
  'param.template': { value: 'v' },
  body: {},
};

