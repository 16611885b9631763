/**
 * What each reader action does to the turn, with a short example: the source of the action
 * section of the generated spec-language reference (docs/spec-language.md).
 */
import type { ActionKey } from './actions.js';

export const ACTION_DOCS: Record<ActionKey, { does: string; example: string }> = {
  meta: { does: 'Sets the response id and model (the first value seen wins).', example: 'meta: { id: id, model: model }' },
  text: {
    does:
      'Appends text to the turn (the first present of several paths); a `text-delta` event. Object form: `start: true` begins a new text part (a wire text block), `text` appends, `citations` adds one citation object or a list (mapped by `parts.citation`), `signature` keeps opaque data sent back with the text.',
    example: 'text: choices.0.delta.content',
  },
  part: {
    does:
      'A wire object that is not text, thinking or a client tool call (a server-tool block, a hosted-tool item, a code-execution part) becomes parts through the kind table (`parts.kinds`); a kind the table does not list is kept as an `opaque` part. The path form names the object\'s kind field (the object is the element). Object form: `kind` (fixed) or `kindAt`, `at` (the object), `open` (a block that later events complete: JSON fragments and the close for that key go to it) and `delta` (a delta whose string fields are appended to the open block). Each completed part is a `part` event.',
    example: "'*': { part: { kindAt: content_block.type, at: content_block, open: index } }",
  },
  refusal: { does: 'Appends refusal text: shown as text, and a `stop` finish becomes `refusal`.', example: 'refusal: choices.0.delta.refusal' },
  thinking: {
    does:
      'Adds to the open thinking block: `text` appends (`thinking-delta`), `summary` appends and marks it a summary, `signature` (`thinking-signature`), `redacted`, `id` and `format` attach opaque state. `start: true` opens a new block first (a block sealed by its own events); `index` selects the block with that key (opening it the first time); `break` puts a separator before the next text.',
    example: 'thinking: { start: true, text: content_block.thinking, signature: content_block.signature }',
  },
  toolCall: {
    does:
      'Client tool calls. `complete: true`: the call arrives whole (`arguments` text or `argumentsObject`), opened and completed at once. Otherwise by `index`: `start: true` opens a call (`tool-call-start`), `arguments` appends fragments (`tool-call-delta`; the first fragment for a new index opens the call), `argumentsFull` replaces them, `end: true` completes it (`tool-call`). `signature` attaches opaque state to the call. With `complete: true`, `continues` (true: more of the call follows in later parts) and `pieces` (`{ each, path, continues, string, number, boolean, null }`: arguments as JSON-path pieces with one typed value each, Vertex AI `partialArgs`) read a call that may instead arrive over several parts: the pieces are assembled into the arguments and streamed as `tool-call-delta`s, a part without `continues` closes the call, and a call left unfinished or whose pieces do not fit gets `argumentsError`.',
    example: 'toolCall: { index: index, id: id, name: function.name, arguments: function.arguments }',
  },
  finish: { does: 'Sets the raw finish reason; the finish table maps it at the end of the turn.', example: 'finish: choices.0.finish_reason' },
  usage: {
    does: 'Replaces the usage snapshot (`usage: path`), or merges the fields present into it (`{ at: path, merge: true }`: usage in pieces); a `usage` event each time. The usage table maps it.',
    example: 'usage: { at: message.usage, merge: true }',
  },
  error: {
    does: 'An error in the body or stream: raises a `ProviderError` with what arrived as `partial`. With `at`, only when that path is present.',
    example: 'error: { at: error, message: error.message, type: error.type }',
  },
  end: { does: 'Marks the turn complete (a terminal event); the stream may end here.', example: 'end: true' },
};
