/**
 * Continuity on the wire (issue 7): turns with reasoning and a tool call in each provider's
 * documented stream and body shape, and loopback "providers" that check a follow-up request the way
 * the real service does — they remember the opaque state they issued (signatures, encrypted
 * reasoning, item ids, reasoning text) and answer 400 in the provider's own error-body shape when
 * a request leaves it out, changes it, or carries state another provider issued.
 *
 * Rules and error wording follow docs/wire-facts.md (#deepseek, #openrouter,
 * #responses-errors-and-continuity, #anthropic-continuity, #gemini-continuity) and the errors those
 * services are documented/reported to return.
 * Everything here is written by hand; nothing is a recording.
 */
import { isDeepStrictEqual } from 'node:util';
import { createClient, type Client, type ClientOptions, type ProviderId } from '../../generated/index.js';
import { jsonResponse, splitInto, startLoopbackServer, type LoopbackServer, type RecordedRequest, type ScriptedResponse } from './loopback-server.js';
import { buildTurn, isStreamingRequest, pieces, type WireBodies } from './scripted-turns.js';

type Json = Record<string, unknown>;
export const obj = (v: unknown): Json => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const has = (o: Json, k: string) => Object.prototype.hasOwnProperty.call(o, k);

const CREATED = 1767225600;

/** The documented Gemini sentinel for a function call whose signature is unknown. */
export const SKIP_SIGNATURE = 'skip_thought_signature_validator';

// ---------------------------------------------------------------------------------------------
// What a provider issued (and would verify on the way back)

export class Issued {
  /** Anthropic / OpenRouter(anthropic upstream): signature → the thinking text it signs. */
  readonly signedThinking = new Map<string, string>();
  /** Anthropic redacted_thinking `data`. */
  readonly redacted = new Set<string>();
  /** Anthropic: tool_use id → the thinking / redacted_thinking blocks of its turn, in order. */
  readonly thinkingSequences = new Map<string, Json[]>();
  /** Gemini thoughtSignature values. */
  readonly thoughtSignatures = new Set<string>();
  /** Gemini thought parts: signature → text. */
  readonly thoughts = new Map<string, string>();
  /** Responses reasoning items: id → the final encrypted_content and the call that followed it. */
  readonly reasoningItems = new Map<string, { encrypted: string | undefined; followedBy: string }>();
  /** DeepSeek: tool-call id → the reasoning_content of that turn. */
  readonly reasoningByCall = new Map<string, string>();
  /** OpenRouter: tool-call id → the reasoning_details of that turn, as they arrived (fragments merged). */
  readonly detailsByCall = new Map<string, Json[]>();
}

// ---------------------------------------------------------------------------------------------
// Error bodies, each in its provider's documented shape

export function errorFor(id: string, status: number, message: string): ScriptedResponse {
  switch (id) {
    case 'anthropic-messages':
      return jsonResponse(status, { type: 'error', error: { type: 'invalid_request_error', message }, request_id: 'req_011Cwireforge' });
    case 'gemini':
      return jsonResponse(status, { error: { code: status, message, status: 'INVALID_ARGUMENT' } });
    case 'openrouter':
      return jsonResponse(status, { error: { code: status, message, metadata: { provider_name: 'Anthropic' } } });
    case 'deepseek':
      return jsonResponse(status, { error: { message, type: 'invalid_request_error', param: null, code: 'invalid_request_error' } });
    default:
      return jsonResponse(status, { error: { message, type: 'invalid_request_error', param: null, code: null } });
  }
}

// ---------------------------------------------------------------------------------------------
// Turns with reasoning and a tool call

export interface ReasonedCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

function respond(b: WireBodies, streaming: boolean): ScriptedResponse {
  if (!streaming) return jsonResponse(200, b.json);
  const bytes = Buffer.byteLength(b.stream);
  return { status: 200, headers: { 'content-type': b.streamContentType, 'cache-control': 'no-cache' }, body: splitInto(b.stream, Math.ceil(bytes / 37)) };
}

/** Anthropic: a thinking block (thinking_delta…, signature_delta) then tool_use (docs/wire-facts.md#anthropic-response-and-streaming). */
export function anthropicTurn(issued: Issued, model: string, thinking: { text: string; signature: string }, call: ReasonedCall): WireBodies {
  issued.signedThinking.set(thinking.signature, thinking.text);
  issued.thinkingSequences.set(call.id, [{ type: 'thinking', thinking: thinking.text, signature: thinking.signature }]);
  return buildTurn('anthropic-messages', { responseId: '01Wf', thinking, calls: [call], usage: { input: 120, output: 80 } }, model);
}

/**
 * Anthropic with several reasoning blocks: thinking blocks (thinking_delta…, signature_delta) and
 * redacted_thinking blocks (whole in content_block_start, no deltas), then tool_use (docs/wire-facts.md#anthropic-response-and-streaming).
 */
export function anthropicBlocksTurn(
  issued: Issued,
  model: string,
  reasoning: Array<{ text: string; signature: string } | { redacted: string }>,
  call: ReasonedCall,
): WireBodies {
  const msgId = 'msg_01WfRedacted';
  const blocks: Json[] = reasoning.map((r) => {
    if ('redacted' in r) {
      issued.redacted.add(r.redacted);
      return { type: 'redacted_thinking', data: r.redacted };
    }
    issued.signedThinking.set(r.signature, r.text);
    return { type: 'thinking', thinking: r.text, signature: r.signature };
  });
  issued.thinkingSequences.set(call.id, blocks.map((b) => ({ ...b })));
  blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: call.args });
  const usage = { input_tokens: 120, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 90 };
  const json = { id: msgId, type: 'message', role: 'assistant', model, content: blocks, stop_reason: 'tool_use', stop_sequence: null, usage };
  let stream = '';
  const ev = (type: string, payload: Json) => {
    stream += `event: ${type}\ndata: ${JSON.stringify({ type, ...payload })}\n\n`;
  };
  ev('message_start', { message: { id: msgId, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } });
  blocks.forEach((b, index) => {
    if (b.type === 'thinking') {
      ev('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } });
      for (const p of pieces(String(b.thinking), 3)) ev('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: p } });
      ev('content_block_delta', { index, delta: { type: 'signature_delta', signature: b.signature } });
    } else if (b.type === 'redacted_thinking') {
      ev('content_block_start', { index, content_block: b });
    } else {
      ev('content_block_start', { index, content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} } });
      for (const p of pieces(JSON.stringify(b.input), 2)) ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: p } });
    }
    ev('content_block_stop', { index });
  });
  ev('message_delta', { delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 90 } });
  ev('message_stop', {});
  return { json, stream, streamContentType: 'text/event-stream' };
}

/** Gemini: a thought part with its thoughtSignature, then a functionCall part with its own (docs/wire-facts.md#gemini-continuity). */
export function geminiTurn(
  issued: Issued,
  model: string,
  thought: { text: string; signature: string },
  call: ReasonedCall & { signature: string },
): WireBodies {
  issued.thoughtSignatures.add(thought.signature);
  issued.thoughtSignatures.add(call.signature);
  issued.thoughts.set(thought.signature, thought.text);
  return buildTurn('gemini', { responseId: 'Gm01', thinking: thought, calls: [call], usage: { input: 90, output: 60, reasoning: 40 } }, model);
}

export interface ResponsesReasoningTurn {
  responseId: string;
  model: string;
  reasoning: { id: string; summary: string; addedEncrypted: string; doneEncrypted: string };
  call: ReasonedCall & { itemId: string };
  /** The request asked for include: ["reasoning.encrypted_content"]. */
  withEncrypted: boolean;
  store: boolean;
}

/**
 * Responses: a reasoning item rs_… (summary streamed as reasoning_summary_text deltas; the
 * encrypted_content of output_item.added differs from the final one in output_item.done), then a
 * function_call item (docs/wire-facts.md#responses-output-and-streaming).
 */
export function responsesTurn(issued: Issued, t: ResponsesReasoningTurn): WireBodies {
  const { reasoning: r, call: c } = t;
  const args = JSON.stringify(c.args);
  // The item that followed the reasoning is named by its item id: an input item without it is not that item.
  issued.reasoningItems.set(r.id, { encrypted: t.withEncrypted ? r.doneEncrypted : undefined, followedBy: c.itemId });
  const usage = { input_tokens: 80, input_tokens_details: { cached_tokens: 0 }, output_tokens: 150, output_tokens_details: { reasoning_tokens: 128 }, total_tokens: 230 };
  const shell = (status: string, output: unknown[], withUsage: boolean) => ({
    id: t.responseId,
    object: 'response',
    created_at: CREATED,
    status,
    background: false,
    error: null,
    incomplete_details: null,
    instructions: null,
    max_output_tokens: null,
    model: t.model,
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: 'medium', summary: 'auto' },
    store: t.store,
    temperature: 1,
    text: { format: { type: 'text' }, verbosity: 'medium' },
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
    truncation: 'disabled',
    usage: withUsage ? usage : null,
    user: null,
    metadata: {},
  });
  const enc = (v: string) => (t.withEncrypted ? { encrypted_content: v } : {});
  const summaryPart = { type: 'summary_text', text: r.summary };
  // Without a summary (none asked for), the item has `summary: []` and no summary events.
  const reasoningDone = { id: r.id, type: 'reasoning', summary: r.summary === '' ? [] : [summaryPart], ...enc(r.doneEncrypted) };
  const callDone = { id: c.itemId, type: 'function_call', status: 'completed', arguments: args, call_id: c.id, name: c.name };

  const events: Json[] = [];
  let seq = 0;
  const push = (type: string, fields: Json) => events.push({ type, sequence_number: seq++, ...fields });
  push('response.created', { response: shell('in_progress', [], false) });
  push('response.in_progress', { response: shell('in_progress', [], false) });
  push('response.output_item.added', { output_index: 0, item: { id: r.id, type: 'reasoning', summary: [], ...enc(r.addedEncrypted) } });
  if (r.summary !== '') {
    push('response.reasoning_summary_part.added', { item_id: r.id, output_index: 0, summary_index: 0, part: { type: 'summary_text', text: '' } });
    for (const p of pieces(r.summary, 4)) push('response.reasoning_summary_text.delta', { item_id: r.id, output_index: 0, summary_index: 0, delta: p, obfuscation: 'wfObf' });
    push('response.reasoning_summary_text.done', { item_id: r.id, output_index: 0, summary_index: 0, text: r.summary });
    push('response.reasoning_summary_part.done', { item_id: r.id, output_index: 0, summary_index: 0, part: summaryPart });
  }
  push('response.output_item.done', { output_index: 0, item: reasoningDone });
  push('response.output_item.added', { output_index: 1, item: { ...callDone, status: 'in_progress', arguments: '' } });
  for (const p of pieces(args, 3)) push('response.function_call_arguments.delta', { item_id: c.itemId, output_index: 1, delta: p, obfuscation: 'wfObf' });
  push('response.function_call_arguments.done', { item_id: c.itemId, output_index: 1, arguments: args });
  push('response.output_item.done', { output_index: 1, item: callDone });
  const final = shell('completed', [reasoningDone, callDone], true);
  push('response.completed', { response: final });
  return {
    json: final,
    stream: events.map((e) => `event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`).join(''),
    streamContentType: 'text/event-stream',
  };
}

/** DeepSeek: delta.reasoning_content first (content null), then tool_calls; usage on the finish chunk (docs/wire-facts.md#deepseek). */
export function deepseekTurn(issued: Issued, model: string, reasoning: string, call: ReasonedCall): WireBodies {
  issued.reasoningByCall.set(call.id, reasoning);
  const id = 'a3c1e0f2-5d4b-4e59-9f0a-wireforge0001';
  const args = JSON.stringify(call.args);
  const usage = {
    prompt_tokens: 60,
    completion_tokens: 140,
    total_tokens: 200,
    prompt_tokens_details: { cached_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 110 },
    prompt_cache_hit_tokens: 0,
    prompt_cache_miss_tokens: 60,
  };
  const json = {
    id,
    object: 'chat.completion',
    created: CREATED,
    model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: '', reasoning_content: reasoning, tool_calls: [{ index: 0, id: call.id, type: 'function', function: { name: call.name, arguments: args } }] },
        logprobs: null,
        finish_reason: 'tool_calls',
      },
    ],
    usage,
    system_fingerprint: 'fp_wf_prod0820_fp8_kvcache',
  };
  const chunk = (delta: Json, finish: string | null = null, u: unknown = null) => ({
    id,
    object: 'chat.completion.chunk',
    created: CREATED,
    model,
    system_fingerprint: 'fp_wf_prod0820_fp8_kvcache',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    usage: u,
  });
  const events: unknown[] = [chunk({ role: 'assistant', content: null, reasoning_content: '' })];
  for (const p of pieces(reasoning, 5)) events.push(chunk({ content: null, reasoning_content: p }));
  events.push(chunk({ content: null, reasoning_content: null, tool_calls: [{ index: 0, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }));
  for (const p of pieces(args, 3)) events.push(chunk({ content: null, reasoning_content: null, tool_calls: [{ index: 0, function: { arguments: p } }] }));
  events.push(chunk({ content: '', reasoning_content: null }, 'tool_calls', usage));
  const stream = events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('') + 'data: [DONE]\n\n';
  return { json, stream, streamContentType: 'text/event-stream' };
}

/**
 * OpenRouter routing to Claude: delta.reasoning plus delta.reasoning_details fragments
 * (type reasoning.text, format anthropic-claude-v1, index 0, the signature on the last fragment),
 * then tool_calls; keep-alive comments; usage chunk with non-empty choices (docs/wire-facts.md#openrouter).
 */
export function openrouterTurn(
  issued: Issued,
  model: string,
  thinking: { text: string; signature: string; format: string },
  call: ReasonedCall,
): WireBodies {
  issued.signedThinking.set(thinking.signature, thinking.text);
  return openrouterDetailsTurn(issued, model, [{ type: 'reasoning.text', text: thinking.text, signature: thinking.signature, format: thinking.format, index: 0 }], call);
}

/**
 * OpenRouter with any reasoning_details: each detail streams as fragments with its `index`
 * (text / summary cut in pieces, `data` whole, the signature on the last fragment; id, format and
 * type on every fragment), `delta.reasoning` beside the readable ones; then tool_calls.
 */
export function openrouterDetailsTurn(issued: Issued, model: string, details: Json[], call: ReasonedCall): WireBodies {
  issued.detailsByCall.set(call.id, details);
  const id = 'gen-1767225600-WireforgeOpenRouter01';
  const args = JSON.stringify(call.args);
  const usage = { prompt_tokens: 70, completion_tokens: 120, total_tokens: 190, completion_tokens_details: { reasoning_tokens: 90 }, cost: 0.00123, is_byok: false };
  const readable = (d: Json) => (typeof d.text === 'string' ? d.text : typeof d.summary === 'string' ? d.summary : undefined);
  const reasoningText = details.map(readable).filter((t) => t !== undefined).join('');
  const toolCall = { id: call.id, type: 'function', index: 0, function: { name: call.name, arguments: args } };
  const json = {
    id,
    provider: 'WireforgeUpstream',
    model,
    object: 'chat.completion',
    created: CREATED,
    choices: [
      {
        index: 0,
        logprobs: null,
        finish_reason: 'tool_calls',
        native_finish_reason: 'tool_calls',
        message: { role: 'assistant', content: '', refusal: null, reasoning: reasoningText, reasoning_details: details, tool_calls: [toolCall] },
      },
    ],
    usage,
  };
  const chunk = (delta: Json, finish: string | null = null, native: string | null = null) => ({
    id,
    provider: 'WireforgeUpstream',
    model,
    object: 'chat.completion.chunk',
    created: CREATED,
    choices: [{ index: 0, delta: { role: 'assistant', content: '', ...delta }, finish_reason: finish, native_finish_reason: native, logprobs: null }],
  });
  const lines: string[] = [': OPENROUTER PROCESSING'];
  for (const d of details) {
    const key = typeof d.text === 'string' ? 'text' : typeof d.summary === 'string' ? 'summary' : undefined;
    const { signature, ...common } = d;
    if (key === undefined) {
      lines.push(`data: ${JSON.stringify(chunk({ reasoning: null, reasoning_details: [d] }))}`);
      continue;
    }
    const parts = pieces(String(d[key]), 3);
    parts.forEach((p, k) => {
      const last = k === parts.length - 1;
      const fragment: Json = { ...common, [key]: p, ...(last && signature !== undefined ? { signature } : {}) };
      lines.push(`data: ${JSON.stringify(chunk({ reasoning: p, reasoning_details: [fragment] }))}`);
    });
  }
  lines.push(': OPENROUTER PROCESSING');
  lines.push(`data: ${JSON.stringify(chunk({ tool_calls: [{ index: 0, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }))}`);
  for (const p of pieces(args, 3)) lines.push(`data: ${JSON.stringify(chunk({ tool_calls: [{ index: 0, function: { arguments: p } }] }))}`);
  lines.push(`data: ${JSON.stringify(chunk({}, 'tool_calls', 'tool_calls'))}`);
  lines.push(`data: ${JSON.stringify({ ...chunk({}), usage })}`);
  lines.push('data: [DONE]');
  return { json, stream: lines.map((l) => `${l}\n\n`).join(''), streamContentType: 'text/event-stream' };
}

/** A plain final answer in `id`'s wire shape. */
export function answerTurn(id: string, text: string, model: string): WireBodies {
  return buildTurn(id, { responseId: 'final01', text }, model);
}

// ---------------------------------------------------------------------------------------------
// Checks: what each provider rejects. Each returns the provider's error messages (empty = accepted).

const ANTHROPIC_BLOCK_KEYS: Record<string, string[]> = {
  text: ['type', 'text', 'cache_control', 'citations'],
  thinking: ['type', 'thinking', 'signature'],
  redacted_thinking: ['type', 'data'],
  tool_use: ['type', 'id', 'name', 'input', 'cache_control'],
  tool_result: ['type', 'tool_use_id', 'content', 'is_error', 'cache_control'],
  image: ['type', 'source', 'cache_control'],
};

/** Anthropic Messages (docs/wire-facts.md#anthropic-messages; error texts as the API words them). */
export function anthropicProblems(body: unknown, issued: Issued): string[] {
  const p: string[] = [];
  const b = obj(body);
  const thinking = obj(b.thinking);
  const thinkingOn = thinking.type === 'enabled';
  if (thinkingOn) {
    const budget = thinking.budget_tokens;
    if (typeof budget !== 'number' || budget < 1024) p.push('thinking.enabled.budget_tokens: Input should be greater than or equal to 1024');
    else if (typeof b.max_tokens !== 'number' || b.max_tokens <= budget) p.push('`max_tokens` must be greater than `thinking.budget_tokens`');
  }
  const msgs = arr(b.messages).map(obj);
  if (msgs[0]?.role !== 'user') p.push('messages: first message must use the "user" role');
  const toolUseIds = new Set<string>();
  msgs.forEach((m, i) => {
    if (m.role !== 'user' && m.role !== 'assistant') p.push(`messages.${i}.role: Input should be 'user' or 'assistant'`);
    if (i > 0 && msgs[i - 1]!.role === m.role) p.push(`messages: roles must alternate between "user" and "assistant", but found multiple "${String(m.role)}" roles in a row`);
    const extra = Object.keys(m).filter((k) => k !== 'role' && k !== 'content');
    for (const k of extra) p.push(`messages.${i}.${k}: Extra inputs are not permitted`);
    const blocks = typeof m.content === 'string' ? [] : arr(m.content).map(obj);
    blocks.forEach((blk, j) => {
      const type = String(blk.type);
      const allowed = ANTHROPIC_BLOCK_KEYS[type];
      if (!allowed) {
        p.push(`messages.${i}.content.${j}.type: unknown content block type ${JSON.stringify(blk.type)}`);
        return;
      }
      for (const k of Object.keys(blk)) if (!allowed.includes(k)) p.push(`messages.${i}.content.${j}.${type}.${k}: Extra inputs are not permitted`);
      if ((type === 'thinking' || type === 'redacted_thinking' || type === 'tool_use') && m.role !== 'assistant') p.push(`messages.${i}.content.${j}: \`${type}\` blocks may only appear in assistant messages`);
      if (type === 'tool_result' && m.role !== 'user') p.push(`messages.${i}.content.${j}: \`tool_result\` blocks may only appear in user messages`);
      if (type === 'thinking') {
        if (typeof blk.signature !== 'string' || blk.signature === '') p.push(`messages.${i}.content.${j}.thinking.signature: Field required`);
        else if (issued.signedThinking.get(blk.signature) !== blk.thinking) p.push(`messages.${i}.content.${j}: Invalid \`signature\` in \`thinking\` block`);
      }
      if (type === 'redacted_thinking' && (typeof blk.data !== 'string' || !issued.redacted.has(blk.data))) p.push(`messages.${i}.content.${j}: Invalid \`data\` in \`redacted_thinking\` block`);
      if (type === 'tool_use') {
        if (toolUseIds.has(String(blk.id))) p.push(`messages.${i}.content.${j}: \`tool_use\` ids must be unique`);
        toolUseIds.add(String(blk.id));
        if (typeof blk.id !== 'string' || !/^[a-zA-Z0-9_-]+$/.test(blk.id)) p.push(`messages.${i}.content.${j}.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'`);
        if (blk.input === null || typeof blk.input !== 'object' || Array.isArray(blk.input)) p.push(`messages.${i}.content.${j}.tool_use.input: Input should be a valid dictionary`);
      }
    });
    if (m.role === 'assistant') {
      // The thinking blocks of a turn go back as one unchanged sequence: none dropped, none reordered.
      const reasoning = blocks.filter((x) => x.type === 'thinking' || x.type === 'redacted_thinking');
      const use = blocks.find((x) => x.type === 'tool_use' && issued.thinkingSequences.has(String(x.id)));
      const want = use ? issued.thinkingSequences.get(String(use.id)) : undefined;
      if (want && reasoning.length && !isDeepStrictEqual(reasoning, want))
        p.push(`messages.${i}.content: the thinking blocks of an assistant turn must be passed back unmodified, as the whole sequence the model produced.`);
      if (blocks.length && blocks[blocks.length - 1]!.type === 'thinking') p.push(`messages.${i}: The final block in an assistant message cannot be \`thinking\`.`);
      const uses = blocks.filter((x) => x.type === 'tool_use').map((x) => String(x.id));
      if (uses.length) {
        const next = msgs[i + 1];
        const answered = new Set(arr(next?.content).map(obj).filter((x) => x.type === 'tool_result').map((x) => String(x.tool_use_id)));
        const missing = uses.filter((u) => !answered.has(u));
        if (next && missing.length)
          p.push(`messages.${i + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`);
      }
    }
    if (m.role === 'user') {
      const prev = msgs[i - 1];
      const used = new Set(arr(prev?.content).map(obj).filter((x) => x.type === 'tool_use').map((x) => String(x.id)));
      blocks.forEach((blk, j) => {
        if (blk.type === 'tool_result' && !used.has(String(blk.tool_use_id)))
          p.push(`messages.${i}.content.${j}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(blk.tool_use_id)}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`);
      });
    }
  });
  // With thinking on, the assistant turn of the running tool loop must open with its thinking.
  const last = msgs[msgs.length - 1];
  const inToolLoop = last?.role === 'user' && arr(last.content).some((x) => obj(x).type === 'tool_result');
  if (thinkingOn && inToolLoop && msgs.length >= 2) {
    const k = msgs.length - 2;
    const first = obj(arr(msgs[k]!.content)[0]).type;
    if (first !== 'thinking' && first !== 'redacted_thinking')
      p.push(
        `messages.${k}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${String(first)}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`.`,
      );
  }
  return p;
}

const RESPONSES_ITEM_KEYS: Record<string, string[]> = {
  reasoning: ['type', 'id', 'summary', 'encrypted_content', 'content', 'status'],
  function_call: ['type', 'id', 'call_id', 'name', 'arguments', 'status'],
  function_call_output: ['type', 'id', 'call_id', 'output', 'status'],
  message: ['type', 'id', 'role', 'content', 'status', 'phase'],
};

/** OpenAI Responses input items (docs/wire-facts.md#responses-request). */
export function responsesProblems(body: unknown, issued: Issued): string[] {
  const p: string[] = [];
  const b = obj(body);
  const store = b.store !== false;
  const input = arr(b.input).map(obj);
  if (!store && !arr(b.include).includes('reasoning.encrypted_content') && input.some((x) => x.type === 'reasoning'))
    p.push("Reasoning items sent back with `store: false` need their encrypted content: the request must have include: ['reasoning.encrypted_content'].");
  const calls = new Set<string>();
  input.forEach((it, i) => {
    const type = it.type === undefined && typeof it.role === 'string' ? 'message' : String(it.type);
    const allowed = RESPONSES_ITEM_KEYS[type];
    if (!allowed) {
      p.push(`Invalid value: '${type}'. Supported values are: 'message', 'reasoning', 'function_call', 'function_call_output' (input[${i}].type).`);
      return;
    }
    for (const k of Object.keys(it)) if (!allowed.includes(k)) p.push(`Unknown parameter: 'input[${i}].${k}'.`);
    if (type === 'reasoning') {
      const id = String(it.id);
      if (!/^rs_/.test(id)) p.push(`Invalid 'input[${i}].id': '${id}'. Expected an ID that begins with 'rs'.`);
      if (!Array.isArray(it.summary)) p.push(`Missing required parameter: 'input[${i}].summary'.`);
      else
        arr(it.summary).forEach((s, k) => {
          if (obj(s).type !== 'summary_text' || typeof obj(s).text !== 'string') p.push(`Invalid 'input[${i}].summary[${k}]': expected {type: 'summary_text', text}.`);
        });
      const known = issued.reasoningItems.get(id);
      if (it.encrypted_content !== undefined) {
        if (!known || known.encrypted === undefined || known.encrypted !== it.encrypted_content) p.push(`The encrypted content for item ${id} could not be verified.`);
      } else if (!store) {
        p.push(`Item with id '${id}' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\` set to true, or remove this item from your input.`);
      } else if (!known) {
        p.push(`Item with id '${id}' not found.`);
      }
      const next = input[i + 1];
      if (known && !(next !== undefined && next.id === known.followedBy)) p.push(`Item '${id}' of type 'reasoning' was provided without its required following item.`);
    }
    if (type === 'function_call') {
      if (typeof it.call_id !== 'string' || typeof it.name !== 'string' || typeof it.arguments !== 'string') p.push(`Invalid 'input[${i}]': a function_call needs call_id, name and arguments (a string).`);
      calls.add(String(it.call_id));
    }
    if (type === 'function_call_output' && !calls.has(String(it.call_id))) p.push(`No tool call found for function call output with call_id ${String(it.call_id)}.`);
  });
  return p;
}

const CHAT_MESSAGE_KEYS: Record<string, string[]> = {
  system: ['role', 'content', 'name'],
  developer: ['role', 'content', 'name'],
  user: ['role', 'content', 'name'],
  assistant: ['role', 'content', 'name', 'tool_calls', 'refusal', 'audio', 'function_call'],
  tool: ['role', 'content', 'tool_call_id'],
};

/** OpenAI Chat Completions messages; `assistantExtra` are the fields a compatible provider adds (docs/wire-facts.md#chat-completions-request). */
export function chatProblems(body: unknown, assistantExtra: string[] = []): string[] {
  const p: string[] = [];
  const msgs = arr(obj(body).messages).map(obj);
  let open = new Set<string>();
  msgs.forEach((m, i) => {
    const role = String(m.role);
    const allowed = CHAT_MESSAGE_KEYS[role];
    if (!allowed) {
      p.push(`Invalid value: '${role}'. Supported values are: 'system', 'assistant', 'user', 'tool', 'developer'. (messages[${i}].role)`);
      return;
    }
    const keys = role === 'assistant' ? [...allowed, ...assistantExtra] : allowed;
    for (const k of Object.keys(m)) if (!keys.includes(k)) p.push(`Additional properties are not allowed ('${k}' was unexpected) - 'messages.${i}'`);
    if (role === 'assistant') {
      open = new Set(arr(m.tool_calls).map((c) => String(obj(c).id)));
      arr(m.tool_calls).forEach((c, k) => {
        const f = obj(obj(c).function);
        if (obj(c).type !== 'function' || typeof f.name !== 'string' || typeof f.arguments !== 'string') p.push(`Invalid 'messages[${i}].tool_calls[${k}]': expected {id, type: 'function', function: {name, arguments}}.`);
      });
    } else if (role === 'tool') {
      if (!open.has(String(m.tool_call_id))) p.push(`Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'. (messages[${i}])`);
    } else open = new Set();
  });
  return p;
}

/**
 * DeepSeek (docs/wire-facts.md#deepseek): deepseek-reasoner (R1) rejects earlier reasoning_content;
 * the thinking models reject an assistant turn without it, and a tool-call turn needs its own reasoning.
 */
export function deepseekProblems(body: unknown, issued: Issued): string[] {
  const p = chatProblems(body, ['reasoning_content', 'prefix']);
  const model = String(obj(body).model);
  const r1 = /^deepseek-reasoner/.test(model);
  arr(obj(body).messages)
    .map(obj)
    .forEach((m, i) => {
      if (m.role !== 'assistant') return;
      if (r1) {
        if (has(m, 'reasoning_content')) p.push(`messages[${i}]: \`reasoning_content\` must not be sent back to ${model}; remove it from the input messages.`);
        return;
      }
      if (typeof m.reasoning_content !== 'string') {
        p.push(`Missing \`reasoning_content\` field in the assistant message at message index ${i}. For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls`);
        return;
      }
      for (const c of arr(m.tool_calls)) {
        const want = issued.reasoningByCall.get(String(obj(c).id));
        if (want !== undefined && m.reasoning_content !== want) p.push(`messages[${i}].reasoning_content does not match the reasoning of the turn that made tool call ${String(obj(c).id)}.`);
      }
    });
  return p;
}

/**
 * OpenRouter routing to Claude with reasoning on: reasoning_details go upstream as Claude thinking
 * blocks, so they must come back unchanged (signature included), and the running tool loop's
 * assistant turn must carry them (docs/wire-facts.md#openrouter, #anthropic-continuity).
 */
export function openrouterProblems(body: unknown, issued: Issued): string[] {
  const p = chatProblems(body, ['reasoning', 'reasoning_details']);
  const b = obj(body);
  const msgs = arr(b.messages).map(obj);
  msgs.forEach((m, i) => {
    arr(m.reasoning_details).forEach((d, k) => {
      const det = obj(d);
      if (det.type === 'reasoning.text' && det.signature !== undefined && det.signature !== null) {
        if (issued.signedThinking.get(String(det.signature)) !== det.text)
          p.push(`Provider returned error: messages.${i}.content.${k}: Invalid \`signature\` in \`thinking\` block (messages[${i}].reasoning_details[${k}])`);
      }
    });
  });
  // reasoning_details go upstream as they came: unchanged, in order.
  msgs.forEach((m, i) => {
    if (m.role !== 'assistant') return;
    for (const c of arr(m.tool_calls)) {
      const want = issued.detailsByCall.get(String(obj(c).id));
      if (want && m.reasoning_details !== undefined && !isDeepStrictEqual(m.reasoning_details, want))
        p.push(`messages[${i}].reasoning_details must be sent back unchanged: expected ${JSON.stringify(want)}, got ${JSON.stringify(m.reasoning_details)}`);
    }
  });
  const reasoningOn = b.reasoning !== undefined && obj(b.reasoning).enabled !== false;
  const last = msgs[msgs.length - 1];
  if (reasoningOn && /^anthropic\//.test(String(b.model)) && last?.role === 'tool') {
    const k = msgs.map((m) => m.role).lastIndexOf('assistant');
    const details = arr(msgs[k]?.reasoning_details).map(obj);
    if (!details.some((d) => (d.type === 'reasoning.text' && typeof d.signature === 'string') || d.type === 'reasoning.encrypted'))
      p.push(
        `Provider returned error: messages.${k}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`tool_use\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks).`,
      );
  }
  return p;
}

/**
 * Gemini (docs/wire-facts.md#gemini-continuity): thoughtSignatures come back unchanged on their own
 * parts; a function-call turn needs a signature on its first functionCall part (or the documented
 * skip sentinel); thought parts are the model's own; responses answer every call in the next user
 * turn.
 */
export function geminiProblems(body: unknown, issued: Issued): string[] {
  const p: string[] = [];
  const contents = arr(obj(body).contents).map(obj);
  contents.forEach((c, i) => {
    if (c.role !== 'user' && c.role !== 'model') p.push(`Please use a valid role: user, model. (contents[${i}].role)`);
    const parts = arr(c.parts).map(obj);
    let firstCall = true;
    parts.forEach((part, j) => {
      const sig = part.thoughtSignature;
      if (sig !== undefined && sig !== SKIP_SIGNATURE && !issued.thoughtSignatures.has(String(sig))) p.push(`Unable to submit request because Thought signature is not valid. (contents[${i}].parts[${j}])`);
      if (part.thought === true && (c.role !== 'model' || typeof sig !== 'string' || issued.thoughts.get(sig) !== part.text))
        p.push(`contents[${i}].parts[${j}]: a thought part must be the model's own, with its thoughtSignature.`);
      if (part.functionCall !== undefined) {
        if (c.role !== 'model') p.push(`contents[${i}].parts[${j}]: functionCall parts belong to model turns.`);
        if (firstCall && sig === undefined)
          p.push(
            `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${String(obj(part.functionCall).name)}\` , position ${i + 1}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`,
          );
        firstCall = false;
      }
    });
    const callCount = parts.filter((x) => x.functionCall !== undefined).length;
    if (callCount > 0) {
      if (i === 0 || contents[i - 1]!.role !== 'user') p.push('Please ensure that function call turn comes immediately after a user turn or after a function response turn.');
      const next = contents[i + 1];
      const responses = arr(next?.parts).filter((x) => obj(x).functionResponse !== undefined).length;
      if (next && responses !== callCount) p.push('Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.');
    }
  });
  return p;
}

// ---------------------------------------------------------------------------------------------
// A checking provider over loopback

export interface CheckedProvider {
  server: LoopbackServer;
  client(options?: Partial<ClientOptions>): Client;
  /** Bodies of the requests received, in order. */
  bodies(): unknown[];
  close(): Promise<void>;
}

export const TEST_KEY = 'sk-continuity-0123456789abcdef';

/**
 * A loopback `id` server: each request is checked (`check` returns the provider's error messages);
 * a rejected one gets 400 in the provider's error shape, an accepted one `reply`'s turn, streamed
 * or as a JSON body depending on what the request asked for.
 */
export async function startCheckedProvider(
  id: ProviderId,
  model: string,
  check: (body: unknown, req: RecordedRequest, index: number) => string[],
  reply: (body: unknown, req: RecordedRequest, index: number) => WireBodies,
): Promise<CheckedProvider> {
  const server = await startLoopbackServer((req, i) => {
    const problems = check(req.body, req, i);
    if (problems.length) return errorFor(id, 400, problems.join('\n'));
    return respond(reply(req.body, req, i), isStreamingRequest(id, req));
  });
  return {
    server,
    client: (options = {}) => createClient(id, { apiKey: TEST_KEY, baseUrl: `${server.url}/v1`, model, maxRetries: 0, ...options }),
    bodies: () => server.requests.map((r) => r.body),
    close: () => server.close(),
  };
}

/** The body without the fields only streaming adds (`stream`, `stream_options`). */
export function withoutStreamFlags(body: unknown): Json {
  const { stream: _s, stream_options: _o, ...rest } = obj(body);
  return rest;
}
