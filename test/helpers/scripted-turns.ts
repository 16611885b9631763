/**
 * Scripted model turns for tool-loop tests: one description of a turn (text, thinking, tool calls,
 * usage) rendered in each wire family's documented shape (docs/wire-facts.md), both as the blocking JSON
 * body and as the streamed body (SSE or NDJSON), plus checks of what a client sent back: the
 * follow-up request with the assistant's tool calls and the tool results, in the provider's wire
 * shape. Everything is written by hand from the documented formats; nothing here is a recording.
 *
 * Wire families: every spec id resolves through its `extends:` chain to one of
 * openai-chat, openai-responses, anthropic-messages, gemini, ollama.
 */
import { isDeepStrictEqual } from 'node:util';
import { specChain, specIds } from './spec-chain.js';
import { adapters, createClient, type Client, type ClientOptions, type ProviderAdapter, type ProviderId } from '../../generated/index.js';
import { streamBodyFor } from './frame-stream.js';
import { chunked } from './replay.js';
import {
  jsonResponse,
  splitInto,
  startLoopbackServer,
  type LoopbackServer,
  type RecordedRequest,
  type ScriptedResponse,
} from './loopback-server.js';

export type WireFamily = 'openai-chat' | 'openai-responses' | 'anthropic-messages' | 'gemini' | 'ollama';
const FAMILIES: readonly string[] = ['openai-chat', 'openai-responses', 'anthropic-messages', 'gemini', 'ollama'];

// ---------------------------------------------------------------------------------------------
// Spec ids and their wire family

export { specIds };

/**
 * Specs that speak one of the wire families these helpers script (themselves or through their
 * `extends:` chain). A spec of another protocol (a user's own) gets the generic conformance checks
 * and its own cases instead; it never turns these tests red.
 */
export function familySpecIds(): string[] {
  return specIds().filter((id) => familyOrUndefined(id) !== undefined);
}

function familyOrUndefined(id: string): WireFamily | undefined {
  return specChain(id).find((x) => FAMILIES.includes(x)) as WireFamily | undefined;
}

/** The wire family a spec speaks: itself when it is a family root, else the root of its `extends:` chain. */
export function wireFamilyOf(id: string): WireFamily {
  const family = familyOrUndefined(id);
  if (!family) throw new Error(`spec ${id}: no known wire family in its extends chain (${specChain(id).join(' → ')})`);
  return family;
}

// ---------------------------------------------------------------------------------------------
// Scripted turns

export interface ScriptedCall {
  /** Ignored for Gemini (no ids on that wire). */
  id: string;
  name: string;
  args: Record<string, unknown>;
  /** Raw argument text for the wires that carry a string (OpenAI Chat, Responses); default JSON.stringify(args). */
  argsText?: string;
  /** Gemini `thoughtSignature` on the functionCall part. */
  signature?: string;
}

export interface ScriptedUsage {
  /** Every input token, cached ones included. */
  input: number;
  /** Every output token, reasoning included. */
  output: number;
  cached?: number;
  reasoning?: number;
}

export interface ScriptedTurn {
  /** Suffix of the response id (`chatcmpl-<x>`, `resp_<x>`, `msg_<x>`, …). */
  responseId?: string;
  thinking?: { text: string; signature: string };
  text?: string;
  calls?: ScriptedCall[];
  /** Default { input: 10, output: 5 }. */
  usage?: ScriptedUsage;
}

export interface WireBodies {
  json: unknown;
  stream: string;
  streamContentType: string;
}

const CREATED = 1767225600;

/** Wires that carry tool arguments as a string. */
export function argumentsAreText(family: WireFamily): boolean {
  return family === 'openai-chat' || family === 'openai-responses';
}

/** The unified `arguments` a call should come back with (docs/unified-model.md#tool-call-arguments). */
export function expectedArguments(family: WireFamily, call: ScriptedCall): string {
  return argumentsAreText(family) ? (call.argsText ?? JSON.stringify(call.args)) : JSON.stringify(call.args);
}

/** Cuts a text into about n pieces on code-point boundaries. */
export function pieces(text: string, n: number): string[] {
  const cps = Array.from(text);
  if (cps.length === 0) return [''];
  const size = Math.max(1, Math.ceil(cps.length / n));
  const out: string[] = [];
  for (let i = 0; i < cps.length; i += size) out.push(cps.slice(i, i + size).join(''));
  return out;
}

/** The turn in `id`'s wire shape: blocking body and streamed body. */
export function buildTurn(id: string, turn: ScriptedTurn, model = 'm-1'): WireBodies {
  const family = wireFamilyOf(id);
  switch (family) {
    case 'openai-chat':
      return openaiChatTurn(id, turn, model);
    case 'openai-responses':
      return responsesTurn(turn, model);
    case 'anthropic-messages':
      return anthropicTurn(turn, model);
    case 'gemini':
      return geminiTurn(turn, model);
    case 'ollama':
      return ollamaTurn(turn, model);
  }
}

/** A loopback response for the turn: the streamed body cut into small writes, or the JSON body. */
export function respondWith(id: string, turn: ScriptedTurn, streaming: boolean, model = 'm-1'): ScriptedResponse {
  const b = buildTurn(id, turn, model);
  if (!streaming) return jsonResponse(200, b.json);
  const adapter = (adapters as Record<string, ProviderAdapter>)[id];
  if (adapter?.stream.framing === 'event-stream') {
    // An event-stream deployment of the wire gets the same events in its own frames.
    const framed = streamBodyFor(adapter, b.stream);
    return { status: 200, headers: { 'content-type': framed.contentType }, body: chunked(framed.body, 29) };
  }
  const bytes = Buffer.byteLength(b.stream);
  return { status: 200, headers: { 'content-type': b.streamContentType, 'cache-control': 'no-cache' }, body: splitInto(b.stream, Math.ceil(bytes / 29)) };
}

// --- OpenAI Chat Completions and its compatible overlays (docs/wire-facts.md#openai-chat-completions, #openai-compatible-providers) ---

type ChatProfile = 'openai' | 'usage-on-finish' | 'groq' | 'openrouter';

/** Where each compatible provider puts stream usage (docs/wire-facts.md#openai-compatible-providers). */
function chatProfile(id: string): ChatProfile {
  if (id === 'deepseek' || id === 'mistral') return 'usage-on-finish';
  if (id === 'groq') return 'groq';
  if (id === 'openrouter') return 'openrouter';
  return 'openai';
}

function openaiChatTurn(id: string, t: ScriptedTurn, model: string): WireBodies {
  const profile = chatProfile(id);
  const respId = `chatcmpl-${t.responseId ?? 'wf0001'}`;
  const calls = t.calls ?? [];
  const finish = calls.length > 0 ? 'tool_calls' : 'stop';
  const u = t.usage ?? { input: 10, output: 5 };
  const usage = {
    prompt_tokens: u.input,
    completion_tokens: u.output,
    total_tokens: u.input + u.output,
    prompt_tokens_details: { cached_tokens: u.cached ?? 0 },
    completion_tokens_details: { reasoning_tokens: u.reasoning ?? 0 },
  };
  const toolCalls = calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: expectedArguments('openai-chat', c) } }));
  const json = {
    id: respId,
    object: 'chat.completion',
    created: CREATED,
    model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: t.text ?? null, refusal: null, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}), annotations: [] },
        logprobs: null,
        finish_reason: finish,
      },
    ],
    usage,
    system_fingerprint: 'fp_wf0001',
  };

  const base = { id: respId, ...(profile === 'openrouter' ? { provider: 'WireforgeTest' } : {}), object: 'chat.completion.chunk', created: CREATED, model, system_fingerprint: 'fp_wf0001' };
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null, extra: Record<string, unknown> = {}) => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason, ...(profile === 'openrouter' ? { native_finish_reason: finishReason } : {}) }],
    ...(profile === 'openai' ? { usage: null } : {}),
    ...extra,
  });
  const events: unknown[] = [];
  events.push(chunk({ role: 'assistant', content: t.text === undefined ? null : '', refusal: null }));
  if (t.text) for (const p of pieces(t.text, 4)) events.push(chunk({ content: p }));
  calls.forEach((c, k) => {
    // First fragment: id, type, name and empty arguments; then argument text in pieces (docs/wire-facts.md#chat-completions-streaming).
    events.push(chunk({ tool_calls: [{ index: k, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] }));
    for (const p of pieces(expectedArguments('openai-chat', c), 3)) events.push(chunk({ tool_calls: [{ index: k, function: { arguments: p } }] }));
  });
  switch (profile) {
    case 'openai':
      events.push(chunk({}, finish));
      events.push({ ...base, choices: [], usage });
      break;
    case 'usage-on-finish':
      events.push(chunk({ content: '' }, finish, { usage }));
      break;
    case 'groq':
      events.push(chunk({}, finish, { x_groq: { id: 'req_wf0001', usage } }));
      break;
    case 'openrouter':
      events.push(chunk({ role: 'assistant', content: '' }, finish));
      events.push({
        ...base,
        choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null, native_finish_reason: null, logprobs: null }],
        usage: { ...usage, cost: 0, is_byok: false },
      });
      break;
  }
  let stream = '';
  events.forEach((e, i) => {
    if (profile === 'openrouter' && (i === 0 || i === 2)) stream += ': OPENROUTER PROCESSING\n\n';
    stream += `data: ${JSON.stringify(e)}\n\n`;
  });
  stream += 'data: [DONE]\n\n';
  return { json, stream, streamContentType: 'text/event-stream' };
}

// --- OpenAI Responses (docs/wire-facts.md#openai-responses) ---------------------------------------------

function responsesTurn(t: ScriptedTurn, model: string): WireBodies {
  const respId = `resp_${t.responseId ?? 'wf0001'}`;
  const u = t.usage ?? { input: 10, output: 5 };
  const usage = {
    input_tokens: u.input,
    input_tokens_details: { cached_tokens: u.cached ?? 0 },
    output_tokens: u.output,
    output_tokens_details: { reasoning_tokens: u.reasoning ?? 0 },
    total_tokens: u.input + u.output,
  };
  const shell = (status: string, output: unknown[], withUsage: boolean) => ({
    id: respId,
    object: 'response',
    created_at: CREATED,
    status,
    background: false,
    error: null,
    incomplete_details: null,
    instructions: null,
    max_output_tokens: null,
    model,
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    store: true,
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
  const events: Array<Record<string, unknown>> = [];
  let seq = 0;
  const push = (type: string, fields: Record<string, unknown>) => events.push({ type, sequence_number: seq++, ...fields });
  const output: unknown[] = [];
  push('response.created', { response: shell('in_progress', [], false) });
  push('response.in_progress', { response: shell('in_progress', [], false) });
  if (t.text !== undefined) {
    const itemId = `msg_${t.responseId ?? 'wf0001'}`;
    const part = { type: 'output_text', annotations: [], logprobs: [], text: t.text };
    const done = { id: itemId, type: 'message', status: 'completed', content: [part], role: 'assistant' };
    const at = output.length;
    push('response.output_item.added', { output_index: at, item: { ...done, status: 'in_progress', content: [] } });
    push('response.content_part.added', { item_id: itemId, output_index: at, content_index: 0, part: { ...part, text: '' } });
    for (const p of pieces(t.text, 4)) push('response.output_text.delta', { item_id: itemId, output_index: at, content_index: 0, delta: p, logprobs: [], obfuscation: 'wfObf' });
    push('response.output_text.done', { item_id: itemId, output_index: at, content_index: 0, text: t.text, logprobs: [] });
    push('response.content_part.done', { item_id: itemId, output_index: at, content_index: 0, part });
    push('response.output_item.done', { output_index: at, item: done });
    output.push(done);
  }
  for (const c of t.calls ?? []) {
    const itemId = `fc_${c.id.replace(/^call_/, '')}`;
    const args = expectedArguments('openai-responses', c);
    const done = { id: itemId, type: 'function_call', status: 'completed', arguments: args, call_id: c.id, name: c.name };
    const at = output.length;
    push('response.output_item.added', { output_index: at, item: { ...done, status: 'in_progress', arguments: '' } });
    for (const p of pieces(args, 3)) push('response.function_call_arguments.delta', { item_id: itemId, output_index: at, delta: p, obfuscation: 'wfObf' });
    push('response.function_call_arguments.done', { item_id: itemId, output_index: at, arguments: args });
    push('response.output_item.done', { output_index: at, item: done });
    output.push(done);
  }
  const final = shell('completed', output, true);
  push('response.completed', { response: final });
  const stream = events.map((e) => `event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`).join('');
  return { json: final, stream, streamContentType: 'text/event-stream' };
}

// --- Anthropic Messages (docs/wire-facts.md#anthropic-messages) -------------------------------------------

function anthropicTurn(t: ScriptedTurn, model: string): WireBodies {
  const msgId = `msg_${t.responseId ?? 'wf0001'}`;
  const calls = t.calls ?? [];
  const u = t.usage ?? { input: 10, output: 5 };
  const cached = u.cached ?? 0;
  const blocks: Array<Record<string, unknown>> = [];
  if (t.thinking) blocks.push({ type: 'thinking', thinking: t.thinking.text, signature: t.thinking.signature });
  if (t.text !== undefined) blocks.push({ type: 'text', text: t.text });
  for (const c of calls) blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: c.args });
  const stop = calls.length > 0 ? 'tool_use' : 'end_turn';
  const usage = { input_tokens: u.input - cached, cache_creation_input_tokens: 0, cache_read_input_tokens: cached, output_tokens: u.output };
  const json = { id: msgId, type: 'message', role: 'assistant', model, content: blocks, stop_reason: stop, stop_sequence: null, usage };

  let stream = '';
  // Anthropic pads some payloads with spaces before the closing brace (docs/wire-facts.md#sse-framing).
  const ev = (type: string, payload: Record<string, unknown>, pad = 0) => {
    stream += `event: ${type}\ndata: ${JSON.stringify({ type, ...payload }).replace(/}$/, `${' '.repeat(pad)}}`)}\n\n`;
  };
  ev('message_start', {
    message: { id: msgId, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } },
  }, 4);
  blocks.forEach((b, index) => {
    switch (b.type) {
      case 'thinking':
        ev('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } }, 10);
        for (const p of pieces(String(b.thinking), 3)) ev('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: p } }, 7);
        ev('content_block_delta', { index, delta: { type: 'signature_delta', signature: b.signature } }, 13);
        break;
      case 'text':
        ev('content_block_start', { index, content_block: { type: 'text', text: '' } });
        for (const p of pieces(String(b.text), 4)) ev('content_block_delta', { index, delta: { type: 'text_delta', text: p } });
        break;
      case 'tool_use':
        ev('content_block_start', { index, content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} } }, 5);
        ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: '' } });
        for (const p of pieces(JSON.stringify(b.input), 3)) ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: p } }, 2);
        break;
    }
    if (index === 0) stream += 'event: ping\ndata: {"type": "ping"}\n\n';
    ev('content_block_stop', { index }, 15);
  });
  ev('message_delta', { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: u.output } }, 6);
  ev('message_stop', {}, 5);
  return { json, stream, streamContentType: 'text/event-stream' };
}

// --- Gemini (docs/wire-facts.md#google-gemini) ------------------------------------------------------------

function geminiTurn(t: ScriptedTurn, model: string): WireBodies {
  const responseId = `wf${t.responseId ?? '0001'}`;
  const u = t.usage ?? { input: 10, output: 5 };
  const finalUsage = {
    promptTokenCount: u.input,
    candidatesTokenCount: u.output - (u.reasoning ?? 0),
    totalTokenCount: u.input + u.output,
    ...(u.reasoning !== undefined ? { thoughtsTokenCount: u.reasoning } : {}),
    ...(u.cached !== undefined ? { cachedContentTokenCount: u.cached } : {}),
  };
  const early = { promptTokenCount: u.input, totalTokenCount: u.input };
  const streamed: Array<Record<string, unknown>> = [];
  const merged: Array<Record<string, unknown>> = [];
  if (t.thinking) {
    const part = { text: t.thinking.text, thought: true, thoughtSignature: t.thinking.signature };
    streamed.push(part);
    merged.push(part);
  }
  if (t.text !== undefined) {
    for (const p of pieces(t.text, 4)) streamed.push({ text: p });
    merged.push({ text: t.text });
  }
  for (const c of t.calls ?? []) {
    // No id on this wire; a thoughtSignature may ride on the call (docs/wire-facts.md#gemini-response-and-streaming).
    const part = { functionCall: { name: c.name, args: c.args }, ...(c.signature ? { thoughtSignature: c.signature } : {}) };
    streamed.push(part);
    merged.push(part);
  }
  const json = { candidates: [{ content: { parts: merged, role: 'model' }, finishReason: 'STOP', index: 0 }], usageMetadata: finalUsage, modelVersion: model, responseId };
  const stream = streamed
    .map((part, i) => {
      const last = i === streamed.length - 1;
      const chunk = {
        candidates: [{ content: { parts: [part], role: 'model' }, ...(last ? { finishReason: 'STOP' } : {}), index: 0 }],
        usageMetadata: last ? finalUsage : early,
        modelVersion: model,
        responseId,
      };
      return `data: ${JSON.stringify(chunk)}\r\n\r\n`;
    })
    .join('');
  return { json, stream, streamContentType: 'text/event-stream' };
}

// --- Ollama native /api/chat (docs/wire-facts.md#ollama) -------------------------------------------------

function ollamaTurn(t: ScriptedTurn, model: string): WireBodies {
  const createdAt = '2026-01-01T00:00:00.000000Z';
  const u = t.usage ?? { input: 10, output: 5 };
  const calls = (t.calls ?? []).map((c, k) => ({ id: c.id, function: { index: k, name: c.name, arguments: c.args } }));
  const done = {
    done_reason: 'stop',
    done: true,
    total_duration: 1_250_000_000,
    load_duration: 40_000_000,
    prompt_eval_count: u.input,
    prompt_eval_duration: 16_000_000,
    eval_count: u.output,
    eval_duration: 1_190_000_000,
  };
  const json = {
    model,
    created_at: createdAt,
    message: { role: 'assistant', content: t.text ?? '', ...(t.thinking ? { thinking: t.thinking.text } : {}), ...(calls.length > 0 ? { tool_calls: calls } : {}) },
    ...done,
  };
  const lines: unknown[] = [];
  if (t.thinking) for (const p of pieces(t.thinking.text, 3)) lines.push({ model, created_at: createdAt, message: { role: 'assistant', content: '', thinking: p }, done: false });
  if (t.text) for (const p of pieces(t.text, 4)) lines.push({ model, created_at: createdAt, message: { role: 'assistant', content: p }, done: false });
  // Tool calls arrive whole, in one line.
  if (calls.length > 0) lines.push({ model, created_at: createdAt, message: { role: 'assistant', content: '', tool_calls: calls }, done: false });
  lines.push({ model, created_at: createdAt, message: { role: 'assistant', content: '' }, ...done });
  return { json, stream: lines.map((l) => `${JSON.stringify(l)}\n`).join(''), streamContentType: 'application/x-ndjson' };
}

// ---------------------------------------------------------------------------------------------
// Reading requests

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Whether the client asked for a stream, the way `id`'s wire says it. */
export function isStreamingRequest(id: string, req: RecordedRequest): boolean {
  // A deployment that streams at a path of its own says so by the path (Bedrock's invoke-with-response-stream).
  const ep = (adapters as Record<string, ProviderAdapter>)[id]?.endpoint;
  if (ep?.streamPath && ep.streamPath !== ep.path && ep.streamPath.split('/').pop() !== ep.path.split('/').pop()) {
    return req.url.split('?')[0]!.endsWith(ep.streamPath.split('/').pop()!.replace('{model}', ''));
  }
  const family = wireFamilyOf(id);
  if (family === 'gemini') return req.url.includes(':streamGenerateContent');
  if (family === 'ollama') return obj(req.body).stream !== false;
  return obj(req.body).stream === true;
}

/** The conversation part of a request body: messages / input / contents. */
export function historyOf(family: WireFamily, body: unknown): unknown[] {
  const b = obj(body);
  if (family === 'openai-responses') return arr(b.input);
  if (family === 'gemini') return arr(b.contents);
  return arr(b.messages);
}

/** Whether the request carries tool results (i.e. it is a follow-up turn). */
export function hasToolResults(family: WireFamily, body: unknown): boolean {
  const h = historyOf(family, body).map(obj);
  switch (family) {
    case 'openai-chat':
    case 'ollama':
      return h.some((m) => m.role === 'tool');
    case 'anthropic-messages':
      return h.some((m) => m.role === 'user' && arr(m.content).some((b) => obj(b).type === 'tool_result'));
    case 'openai-responses':
      return h.some((i) => i.type === 'function_call_output');
    case 'gemini':
      return h.some((c) => arr(c.parts).some((p) => obj(p).functionResponse !== undefined));
  }
}

/** An error response in the provider's documented error-body shape. */
export function wireError(family: WireFamily, status: number, message: string): ScriptedResponse {
  switch (family) {
    case 'anthropic-messages':
      return jsonResponse(status, { type: 'error', error: { type: 'invalid_request_error', message }, request_id: 'req_wf0001' });
    case 'gemini':
      return jsonResponse(status, { error: { code: status, message, status: 'INVALID_ARGUMENT' } });
    case 'ollama':
      return jsonResponse(status, { error: message });
    default:
      return jsonResponse(status, { error: { message, type: 'invalid_request_error', param: null, code: null } });
  }
}

/** Text of a string content or of an array of text parts (`text`, `input_text`, `output_text`). */
function textOf(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const texts = content.map(obj).filter((p) => typeof p.text === 'string' && (p.type === undefined || /text$/.test(String(p.type))));
  if (texts.length !== content.length) return undefined;
  return texts.map((p) => String(p.text)).join('');
}

class Problems {
  readonly list: string[] = [];
  eq(path: string, actual: unknown, expected: unknown): boolean {
    if (isDeepStrictEqual(actual, expected)) return true;
    this.list.push(`${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
    return false;
  }
  ok(path: string, cond: boolean, what: string): boolean {
    if (!cond) this.list.push(`${path}: ${what}`);
    return cond;
  }
}

export interface DeclaredTool {
  description?: string;
  /** The JSON Schema the wire must carry (these tests declare JSON Schema tools). */
  parameters: unknown;
}

/** The request declares exactly these tools, with their JSON Schemas, in the family's tool shape. */
export function checkTools(family: WireFamily, body: unknown, tools: Record<string, DeclaredTool>): string[] {
  const p = new Problems();
  const b = obj(body);
  let declared: Array<{ name: unknown; description: unknown; parameters: unknown; at: string }>;
  switch (family) {
    case 'openai-chat':
    case 'ollama':
      declared = arr(b.tools).map((t, i) => {
        p.eq(`/tools/${i}/type`, obj(t).type, 'function');
        const f = obj(obj(t).function);
        return { name: f.name, description: f.description, parameters: f.parameters, at: `/tools/${i}/function` };
      });
      break;
    case 'openai-responses':
      declared = arr(b.tools).map((t, i) => {
        p.eq(`/tools/${i}/type`, obj(t).type, 'function');
        return { name: obj(t).name, description: obj(t).description, parameters: obj(t).parameters, at: `/tools/${i}` };
      });
      break;
    case 'anthropic-messages':
      declared = arr(b.tools).map((t, i) => ({ name: obj(t).name, description: obj(t).description, parameters: obj(t).input_schema, at: `/tools/${i}` }));
      break;
    case 'gemini':
      declared = arr(b.tools).flatMap((t, i) =>
        arr(obj(t).functionDeclarations).map((d, j) => ({
          name: obj(d).name,
          description: obj(d).description,
          parameters: obj(d).parametersJsonSchema ?? obj(d).parameters,
          at: `/tools/${i}/functionDeclarations/${j}`,
        })),
      );
      break;
  }
  p.eq('tool names', declared.map((d) => d.name).sort(), Object.keys(tools).sort());
  for (const d of declared) {
    const def = tools[String(d.name)];
    if (!def) continue;
    p.eq(`${d.at}/parameters`, d.parameters, def.parameters);
    if (def.description !== undefined) p.eq(`${d.at}/description`, d.description, def.description);
  }
  return p.list;
}

/** A first request: only the user's message. */
export function checkFirstRequest(family: WireFamily, body: unknown, userText: string): string[] {
  const p = new Problems();
  const h = historyOf(family, body).map(obj);
  if (!p.eq('history length', h.length, 1)) return p.list;
  const m = h[0]!;
  p.eq('/0/role', m.role, 'user');
  if (family === 'gemini') p.eq('/0/parts text', textOf(m.parts), userText);
  else p.eq('/0/content text', textOf(m.content), userText);
  return p.list;
}

export interface FollowUp {
  userText: string;
  /** The assistant turn the server sent (its tool calls in order). */
  assistant: ScriptedTurn;
  /** Tool results in call order. */
  results: Array<{ content: string; isError?: boolean }>;
}

/**
 * The follow-up request carries [user, assistant turn with the calls, the results] in the wire
 * shape of `id`, calls and results linked by id (by name for Gemini). Returns the problems found.
 */
export function checkFollowUp(id: string, body: unknown, exp: FollowUp): string[] {
  const family = wireFamilyOf(id);
  const p = new Problems();
  const h = historyOf(family, body).map(obj);
  const calls = exp.assistant.calls ?? [];
  const n = calls.length;
  const first = h[0] ?? {};
  p.eq('/0/role', first.role, 'user');
  p.eq('/0 text', textOf(family === 'gemini' ? first.parts : first.content), exp.userText);

  switch (family) {
    case 'openai-chat': {
      p.eq('messages.length', h.length, 2 + n);
      const a = h[1] ?? {};
      p.eq('/messages/1/role', a.role, 'assistant');
      if (exp.assistant.text === undefined) p.ok('/messages/1/content', a.content === null || a.content === undefined || a.content === '', `expected no content, got ${JSON.stringify(a.content)}`);
      else p.eq('/messages/1/content', textOf(a.content), exp.assistant.text);
      const tcs = arr(a.tool_calls).map(obj);
      p.eq('/messages/1/tool_calls.length', tcs.length, n);
      calls.forEach((c, k) => {
        const tc = tcs[k] ?? {};
        p.eq(`/messages/1/tool_calls/${k}/id`, tc.id, c.id);
        p.eq(`/messages/1/tool_calls/${k}/type`, tc.type, 'function');
        p.eq(`/messages/1/tool_calls/${k}/function/name`, obj(tc.function).name, c.name);
        // A string, byte-exact as the model sent it.
        p.eq(`/messages/1/tool_calls/${k}/function/arguments`, obj(tc.function).arguments, expectedArguments('openai-chat', c));
        const r = h[2 + k] ?? {};
        p.eq(`/messages/${2 + k}/role`, r.role, 'tool');
        p.eq(`/messages/${2 + k}/tool_call_id`, r.tool_call_id, c.id);
        p.eq(`/messages/${2 + k}/content`, textOf(r.content), exp.results[k]?.content);
        if (id === 'mistral') p.eq(`/messages/${2 + k}/name`, r.name, c.name);
      });
      break;
    }
    case 'anthropic-messages': {
      p.eq('messages.length', h.length, 3);
      const a = h[1] ?? {};
      p.eq('/messages/1/role', a.role, 'assistant');
      const blocks = arr(a.content).map(obj);
      const expected: Json[] = [];
      if (exp.assistant.thinking) expected.push({ type: 'thinking', thinking: exp.assistant.thinking.text, signature: exp.assistant.thinking.signature });
      if (exp.assistant.text !== undefined) expected.push({ type: 'text', text: exp.assistant.text });
      for (const c of calls) expected.push({ type: 'tool_use', id: c.id, name: c.name, input: c.args });
      p.eq('/messages/1/content', blocks, expected);
      const u = h[2] ?? {};
      p.eq('/messages/2/role', u.role, 'user');
      const results = arr(u.content).map(obj);
      p.eq('/messages/2/content.length', results.length, n);
      calls.forEach((c, k) => {
        const r = results[k] ?? {};
        p.eq(`/messages/2/content/${k}/type`, r.type, 'tool_result');
        p.eq(`/messages/2/content/${k}/tool_use_id`, r.tool_use_id, c.id);
        p.eq(`/messages/2/content/${k}/content`, textOf(r.content), exp.results[k]?.content);
        if (exp.results[k]?.isError) p.eq(`/messages/2/content/${k}/is_error`, r.is_error, true);
        else p.ok(`/messages/2/content/${k}/is_error`, r.is_error === undefined || r.is_error === false, `expected no error flag, got ${JSON.stringify(r.is_error)}`);
      });
      break;
    }
    case 'openai-responses': {
      const items = h.slice(1);
      const expectedLength = n * 2 + (exp.assistant.text !== undefined ? 1 : 0);
      p.eq('input.length', h.length, 1 + expectedLength);
      let at = 1;
      if (exp.assistant.text !== undefined) {
        const m = items.shift() ?? {};
        p.eq(`/input/${at}/role`, m.role, 'assistant');
        p.eq(`/input/${at} text`, textOf(m.content), exp.assistant.text);
        at++;
      }
      calls.forEach((c, k) => {
        const fc = items[k] ?? {};
        p.eq(`/input/${at + k}/type`, fc.type, 'function_call');
        p.eq(`/input/${at + k}/call_id`, fc.call_id, c.id);
        p.eq(`/input/${at + k}/name`, fc.name, c.name);
        p.eq(`/input/${at + k}/arguments`, fc.arguments, expectedArguments('openai-responses', c));
        const out = items[n + k] ?? {};
        p.eq(`/input/${at + n + k}/type`, out.type, 'function_call_output');
        p.eq(`/input/${at + n + k}/call_id`, out.call_id, c.id);
        p.eq(`/input/${at + n + k}/output`, textOf(out.output), exp.results[k]?.content);
      });
      break;
    }
    case 'gemini': {
      p.eq('contents.length', h.length, 3);
      const m = h[1] ?? {};
      p.eq('/contents/1/role', m.role, 'model');
      const parts = arr(m.parts).map(obj);
      const calledParts = parts.filter((q) => q.functionCall !== undefined);
      p.eq('/contents/1/parts (functionCall).length', calledParts.length, n);
      p.ok('/contents/1/parts', parts.length === n + (exp.assistant.text !== undefined ? 1 : 0), `unexpected parts ${JSON.stringify(parts)}`);
      calls.forEach((c, k) => {
        const q = calledParts[k] ?? {};
        p.eq(`/contents/1/parts/${k}/functionCall/name`, obj(q.functionCall).name, c.name);
        p.eq(`/contents/1/parts/${k}/functionCall/args`, obj(q.functionCall).args, c.args);
        if (c.signature) p.eq(`/contents/1/parts/${k}/thoughtSignature`, q.thoughtSignature, c.signature);
      });
      const u = h[2] ?? {};
      p.eq('/contents/2/role', u.role, 'user');
      const responses = arr(u.parts).map(obj);
      p.eq('/contents/2/parts.length', responses.length, n);
      calls.forEach((c, k) => {
        const fr = obj(responses[k]?.functionResponse);
        p.eq(`/contents/2/parts/${k}/functionResponse/name`, fr.name, c.name);
        const resp = fr.response;
        if (p.ok(`/contents/2/parts/${k}/functionResponse/response`, resp !== null && typeof resp === 'object' && !Array.isArray(resp), 'must be a JSON object')) {
          const want = exp.results[k]?.content;
          p.ok(
            `/contents/2/parts/${k}/functionResponse/response`,
            Object.values(resp as Json).some((v) => v === want),
            `expected a value ${JSON.stringify(want)}, got ${JSON.stringify(resp)}`,
          );
          if (exp.results[k]?.isError) p.ok(`/contents/2/parts/${k}/functionResponse/response`, 'error' in (resp as Json), 'an error result goes under "error"');
        }
      });
      break;
    }
    case 'ollama': {
      p.eq('messages.length', h.length, 2 + n);
      const a = h[1] ?? {};
      p.eq('/messages/1/role', a.role, 'assistant');
      p.ok('/messages/1/content', typeof a.content === 'string', 'content must be a string');
      const tcs = arr(a.tool_calls).map(obj);
      p.eq('/messages/1/tool_calls.length', tcs.length, n);
      calls.forEach((c, k) => {
        const f = obj(tcs[k]?.function);
        p.eq(`/messages/1/tool_calls/${k}/function/name`, f.name, c.name);
        // An object on this wire, not a string.
        p.eq(`/messages/1/tool_calls/${k}/function/arguments`, f.arguments, c.args);
        const r = h[2 + k] ?? {};
        p.eq(`/messages/${2 + k}/role`, r.role, 'tool');
        p.eq(`/messages/${2 + k}/tool_name`, r.tool_name, c.name);
        p.eq(`/messages/${2 + k}/content`, r.content, exp.results[k]?.content);
      });
      break;
    }
  }
  return p.list;
}

// ---------------------------------------------------------------------------------------------
// A scripted model over loopback

export type ScriptStep = ScriptedTurn | ((req: RecordedRequest, index: number) => ScriptedResponse | Promise<ScriptedResponse>);

export interface ScriptedModel {
  server: LoopbackServer;
  /** A client of `id` pointed at the server (no retries). */
  client(options?: Partial<ClientOptions>): Client;
  close(): Promise<void>;
}

export const TEST_KEY = 'sk-scripted-turns-0123456789';

/**
 * A loopback server that answers request i with script step i (the last one repeats), as a stream
 * or a JSON body depending on what the request asked for.
 */
export async function startScriptedModel(id: ProviderId, script: ScriptStep[], model = 'm-1'): Promise<ScriptedModel> {
  if (script.length === 0) throw new Error('startScriptedModel: give at least one step');
  const server = await startLoopbackServer((req, i) => {
    const step = script[Math.min(i, script.length - 1)]!;
    return typeof step === 'function' ? step(req, i) : respondWith(id, step, isStreamingRequest(id, req), model);
  });
  return {
    server,
    client: (options = {}) => createClient(id, { apiKey: TEST_KEY, baseUrl: `${server.url}/v1`, model, maxRetries: 0, ...options }),
    close: () => server.close(),
  };
}
