/**
 * Reasoning that no stream event announces (docs/serving.md#reasoning-without-events): Anthropic's
 * `redacted_thinking` block (whole in its content_block_start, then content_block_stop), a Responses
 * reasoning item with only its `encrypted_content` and its `rs_…` id (no summary unless asked
 * for). Served by the mock and passed through the gateway's stream; the official SDKs read them,
 * and the next turn, sent back as the SDK gives it, must reach the upstream with the block
 * unchanged and in its place. Expected values are written from the providers' documented formats
 * (docs/wire-facts.md), not from the templates.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as anthropicMessages from '../../generated/anthropic-messages.js';
import * as openaiResponses from '../../generated/openai-responses.js';
import type { StreamEvent } from '../../runtime/contract/unified-model.js';
import { StreamWriter } from '../../runtime/serve/stream-writer.js';
import { decodeRequest } from '../../runtime/serve/decode-request.js';
import { createMockServer, startGateway, type Listening, type MockServer } from '../../node/index.js';
import { adapters, createClientFor, type ProviderAdapter } from '../../generated/index.js';
import { serves, eventEncoder, servedTurn, turnEvents, type ServeCodec } from '../../generated/serve.js';
import { chunked, fetchReturning } from '../helpers/replay.js';
import { accessFor } from '../helpers/client-access.js';
import { startLoopbackServer, type ScriptedResponse } from '../helpers/loopback-server.js';

type Json = Record<string, any>;

// Opaque provider data, made up for the test (Anthropic's redacted data and OpenAI's encrypted content are base64-like).
const REDACTED_A = 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP';
const REDACTED_B = 'EtgBCkYIBxgCKkDQfGkwzflEJP5asG3oQfJXcTwJLoRznn8CmuczWCsJ36d';
const SIGNATURE = 'EqQBCkYIBxgCKkBzaWduZWQtdGhpbmtpbmctZm9yLXRoZS10ZXN0';
const THOUGHT = 'The user wants the weather; I should call the tool.';
const ENCRYPTED = 'gAAAAABpPDIUph8czEXzDePCV2lJ27wm7TsbCvazrvHSn0yWitN7RGWq8sj';
const REASONING_ID = 'rs_0a1b2c3d4e5f60718293a4b5c6d7e8f9';
const WEATHER = { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] };

/** An Anthropic turn: redacted, thinking (signed), redacted, then a tool call. */
const anthropicTurn = { thinking: [{ redacted: REDACTED_A }, { text: THOUGHT, signature: SIGNATURE }, { redacted: REDACTED_B }], toolCalls: [{ id: 'toolu_w1', name: 'get_weather', arguments: { city: 'Paris' } }] };
/** The same turn's content as Anthropic's Messages API writes it (and takes it back). */
const anthropicContent = [
  { type: 'redacted_thinking', data: REDACTED_A },
  { type: 'thinking', thinking: THOUGHT, signature: SIGNATURE },
  { type: 'redacted_thinking', data: REDACTED_B },
  { type: 'tool_use', id: 'toolu_w1', name: 'get_weather', input: { city: 'Paris' } },
];
/**
 * A Responses turn: a reasoning item with only its encrypted content (no summary), a message, then
 * a call (the message is the item the reasoning leads to: it must go back with its id).
 */
const responsesTurn = { thinking: { signature: ENCRYPTED, id: REASONING_ID }, text: 'Let me check.', toolCalls: [{ id: 'call_w1', name: 'get_weather', arguments: { city: 'Paris' } }] };

/** The SSE events of a body, parsed (the `data:` lines). */
async function sse(res: Response): Promise<Json[]> {
  const text = await res.text();
  return text
    .split('\n')
    .filter((l) => l.startsWith('data: ') && l !== 'data: [DONE]')
    .map((l) => JSON.parse(l.slice(6)) as Json);
}

describe('the mock serves reasoning with no text in a stream', () => {
  let anthropic: MockServer;
  let responses: MockServer;
  beforeAll(async () => {
    anthropic = await createMockServer({ provider: 'anthropic-messages', script: [{ reply: anthropicTurn }] });
    responses = await createMockServer({ provider: 'openai-responses', script: [{ reply: responsesTurn }] });
  });
  afterAll(async () => {
    await anthropic.close();
    await responses.close();
  });

  it('Anthropic SDK: finalMessage holds the redacted_thinking blocks in order; each is a start with its data, then a stop', async () => {
    const client = new Anthropic({ apiKey: 'unused', baseURL: anthropic.url, maxRetries: 0 });
    const stream = client.messages.stream({ model: 'claude-test', max_tokens: 1024, messages: [{ role: 'user', content: 'Weather in Paris?' }] });
    const events: Json[] = [];
    stream.on('streamEvent', (e) => events.push(e as Json));
    const final = await stream.finalMessage();
    expect(final.content).toEqual(anthropicContent);
    // No deltas for a redacted block: content_block_start then content_block_stop at its index.
    const at0 = events.filter((e) => e.index === 0).map((e) => e.type);
    expect(at0).toEqual(['content_block_start', 'content_block_stop']);
    expect(events.find((e) => e.type === 'content_block_start' && e.index === 2)!.content_block).toEqual({ type: 'redacted_thinking', data: REDACTED_B });
  });

  it('OpenAI SDK: the final response holds the reasoning item with its id and encrypted_content, summary []; no summary part events', async () => {
    const client = new OpenAI({ apiKey: 'unused', baseURL: responses.url, maxRetries: 0 });
    const stream = client.responses.stream({ model: 'gpt-test', input: 'Weather in Paris?', tools: [{ type: 'function', name: 'get_weather', parameters: WEATHER, strict: false }] });
    const types: string[] = [];
    stream.on('event', (e) => types.push(e.type));
    const final = await stream.finalResponse();
    expect(final.output[0]).toMatchObject({ type: 'reasoning', id: REASONING_ID, summary: [], encrypted_content: ENCRYPTED });
    expect(final.output[1]).toMatchObject({ type: 'message', content: [{ type: 'output_text', text: 'Let me check.' }] });
    expect(final.output[2]).toMatchObject({ type: 'function_call', call_id: 'call_w1', name: 'get_weather' });
    expect(types.filter((t) => t.startsWith('response.reasoning_summary'))).toEqual([]);
    expect(types.slice(0, 4)).toEqual(['response.created', 'response.in_progress', 'response.output_item.added', 'response.output_item.done']);
  });
});

describe('gateway stream, same protocol: the block reaches the caller and comes back unchanged, in place', () => {
  let anthropic: MockServer;
  let responses: MockServer;
  let calls: MockServer;
  let gw: Listening;
  beforeAll(async () => {
    anthropic = await createMockServer({ provider: 'anthropic-messages', script: [{ when: { toolResultFor: 'toolu_w1' }, reply: { text: '18C in Paris.' } }, { reply: anthropicTurn }] });
    responses = await createMockServer({ provider: 'openai-responses', script: [{ when: { toolResultFor: 'call_w1' }, reply: { text: '18C in Paris.' } }, { reply: responsesTurn }] });
    calls = await createMockServer({ provider: 'openai-responses', script: [{ when: { toolResultFor: 'call_w1' }, reply: { text: '18C in Paris.' } }, { reply: { thinking: responsesTurn.thinking, toolCalls: responsesTurn.toolCalls } }] });
    gw = await startGateway({
      listen: [
        { spec: 'anthropic-messages', path: '/anthropic' },
        { spec: 'openai-responses', path: '/openai' },
        { spec: 'openai-chat', path: '/chat' },
      ],
      routes: [
        { model: 'claude', targets: [{ spec: 'anthropic-messages', model: 'claude-up', baseUrl: anthropic.url, key: { keys: ['sk-ant-up-01'] } }] },
        { model: 'gpt', targets: [{ spec: 'openai-responses', model: 'gpt-up', baseUrl: responses.url, key: { keys: ['sk-openai-up-01'] } }] },
        { model: 'gpt-calls', targets: [{ spec: 'openai-responses', model: 'gpt-up', baseUrl: calls.url, key: { keys: ['sk-openai-up-01'] } }] },
      ],
    });
  });
  afterAll(async () => {
    await gw.close();
    await anthropic.close();
    await responses.close();
    await calls.close();
  });

  it('Anthropic caller → Anthropic upstream: redacted blocks streamed; the tool round sends them back as they came', async () => {
    const client = new Anthropic({ apiKey: 'unused', baseURL: `${gw.url}/anthropic`, maxRetries: 0 });
    const tools = [{ name: 'get_weather', input_schema: WEATHER }];
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }];
    const first = await client.messages.stream({ model: 'claude', max_tokens: 1024, messages, tools, thinking: { type: 'enabled', budget_tokens: 512 } }).finalMessage();
    expect(first.content).toEqual(anthropicContent);
    messages.push({ role: 'assistant', content: first.content as Anthropic.ContentBlockParam[] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_w1', content: '18C' }] });
    const second = await client.messages.create({ model: 'claude', max_tokens: 1024, messages, tools, thinking: { type: 'enabled', budget_tokens: 512 } });
    expect(second.content).toEqual([{ type: 'text', text: '18C in Paris.' }]);
    const sent = (anthropic.requests.at(-1)!.body as { messages: Json[] }).messages;
    expect(sent[1]).toEqual({ role: 'assistant', content: anthropicContent });
  });

  it('Responses caller → Responses upstream: the encrypted reasoning item keeps its rs_ id; sent back, the upstream gets it whole, in its place', async () => {
    const client = new OpenAI({ apiKey: 'unused', baseURL: `${gw.url}/openai`, maxRetries: 0 });
    const tools = [{ type: 'function' as const, name: 'get_weather', parameters: WEATHER, strict: false }];
    const first = await client.responses.stream({ model: 'gpt', input: 'Weather in Paris?', tools, store: false, include: ['reasoning.encrypted_content'] }).finalResponse();
    expect(first.output[0]).toEqual({ id: REASONING_ID, type: 'reasoning', summary: [], encrypted_content: ENCRYPTED });
    const input = [{ role: 'user' as const, content: 'Weather in Paris?' }, ...(first.output as OpenAI.Responses.ResponseInputItem[]), { type: 'function_call_output' as const, call_id: 'call_w1', output: '18C' }];
    const second = await client.responses.create({ model: 'gpt', input, tools, store: false, include: ['reasoning.encrypted_content'] });
    expect(second.output_text).toBe('18C in Paris.');
    const sent = (responses.requests.at(-1)!.body as { input: Json[] }).input;
    expect(sent[1]).toEqual({ type: 'reasoning', id: REASONING_ID, summary: [], encrypted_content: ENCRYPTED });
    expect(sent[2]).toMatchObject({ type: 'message', id: first.output[1]!.id, content: [{ type: 'output_text', text: 'Let me check.' }] });
    expect(sent[3]).toMatchObject({ type: 'function_call', call_id: 'call_w1', name: 'get_weather' });
  });

  it('Responses, reasoning then a call (no message), blocking and streamed: the call item goes back with its id after the reasoning', async () => {
    const client = new OpenAI({ apiKey: 'unused', baseURL: `${gw.url}/openai`, maxRetries: 0 });
    const tools = [{ type: 'function' as const, name: 'get_weather', parameters: WEATHER, strict: false }];
    for (const stream of [false, true]) {
      const ask = { model: 'gpt-calls', input: 'Weather in Paris?', tools, store: false, include: ['reasoning.encrypted_content' as const] };
      const first = stream ? await client.responses.stream(ask).finalResponse() : await client.responses.create(ask);
      expect(first.output.map((o) => o.type)).toEqual(['reasoning', 'function_call']);
      const call = first.output[1] as OpenAI.Responses.ResponseFunctionToolCall;
      const input = [{ role: 'user' as const, content: 'Weather in Paris?' }, ...(first.output as OpenAI.Responses.ResponseInputItem[]), { type: 'function_call_output' as const, call_id: 'call_w1', output: '18C' }];
      const second = await client.responses.create({ ...ask, input });
      expect(second.output_text).toBe('18C in Paris.');
      const sent = (calls.requests.at(-1)!.body as { input: Json[] }).input;
      expect(sent[1]).toEqual({ type: 'reasoning', id: REASONING_ID, summary: [], encrypted_content: ENCRYPTED });
      // The call as the form writes it, with the id the caller got (and nothing the SDK added to it).
      expect(sent[2]).toEqual({ id: call.id, type: 'function_call', call_id: 'call_w1', name: 'get_weather', arguments: '{"city":"Paris"}' });
    }
  });

  it('cross protocol: an Anthropic caller over Responses gets none of its encrypted reasoning or ids', async () => {
    const res = await fetch(`${gw.url}/anthropic/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'unused' },
      body: JSON.stringify({ model: 'gpt', max_tokens: 256, stream: true, messages: [{ role: 'user', content: 'Weather in Paris?' }], tools: [{ name: 'get_weather', input_schema: WEATHER }] }),
    });
    const events = await sse(res);
    const raw = JSON.stringify(events);
    expect(raw).not.toContain(ENCRYPTED);
    expect(raw).not.toContain(REASONING_ID);
    // The encrypted item made no block; the message and the call are there.
    expect(events.filter((e) => e.type === 'content_block_start').map((e) => e.content_block.type)).toEqual(['text', 'tool_use']);
  });

  it('cross protocol: an OpenAI Chat caller over Anthropic gets none of the redacted data', async () => {
    const res = await fetch(`${gw.url}/chat/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer unused' },
      body: JSON.stringify({ model: 'claude', stream: true, messages: [{ role: 'user', content: 'Weather in Paris?' }], tools: [{ type: 'function', function: { name: 'get_weather', parameters: WEATHER } }] }),
    });
    expect(res.status).toBe(200);
    const chunks = await sse(res);
    const raw = JSON.stringify(chunks);
    expect(raw).not.toContain(REDACTED_A);
    expect(raw).not.toContain(REDACTED_B);
    // The rest of the turn is there: the call.
    expect(chunks.flatMap((c) => c.choices?.[0]?.delta?.tool_calls ?? []).map((t: Json) => t.function?.name).filter(Boolean)).toEqual(['get_weather']);
  });
});

describe('the stream writer: another protocol’s redacted reasoning is left out, and the warning says so', () => {
  const turn = { message: { role: 'assistant' as const, content: 'Hi.', thinking: [{ text: '', redacted: REDACTED_A }] } };
  const events: StreamEvent[] = [
    { type: 'start', id: 'm1', model: 'c', warnings: [] },
    { type: 'text-delta', delta: 'Hi.' },
    { type: 'finish', finishReason: 'stop', rawFinishReason: null, usage: null },
  ];

  it('foreign: no redacted_thinking block, a warning naming the upstream', () => {
    const w = new StreamWriter(anthropicMessages.adapter, anthropicMessages.serve, { id: 'm1', model: 'c', created: 0 }, { snapshot: () => turn, reasoning: { foreign: 'bedrock-converse' } });
    const out = events.flatMap((e) => w.write(e));
    expect(JSON.stringify(out)).not.toContain(REDACTED_A);
    expect(w.warnings).toContainEqual({ type: 'dropped', field: 'thinking', message: 'redacted reasoning from bedrock-converse is not valid for anthropic-messages; it was left out' });
  });

  it('foreign: another protocol’s signature is left out too (the text stays), with a warning', () => {
    const signed = { message: { role: 'assistant' as const, content: 'Hi.', thinking: [{ text: 'Hm.', signature: ENCRYPTED, id: REASONING_ID }] } };
    const w = new StreamWriter(anthropicMessages.adapter, anthropicMessages.serve, { id: 'm1', model: 'c', created: 0 }, { snapshot: () => signed, reasoning: { foreign: 'openai-responses' } });
    const out = [events[0]!, { type: 'thinking-signature', signature: ENCRYPTED }, { type: 'thinking-delta', delta: 'Hm.' }, ...events.slice(1)].flatMap((e) => w.write(e as StreamEvent)).map((e) => e.data as Json);
    expect(JSON.stringify(out)).not.toContain(ENCRYPTED);
    expect(JSON.stringify(out)).not.toContain(REASONING_ID);
    expect(out.filter((e) => e.type === 'content_block_start').map((e) => e.content_block)).toEqual([{ type: 'thinking', thinking: '', signature: '' }, { type: 'text', text: '' }]);
    expect(w.warnings).toContainEqual({ type: 'dropped', field: 'thinking.signature', message: 'reasoning signatures from openai-responses are not valid for anthropic-messages; they were left out' });
  });

  it('a signing dialect: the data marked with the spec that made it', () => {
    const w = new StreamWriter(anthropicMessages.adapter, anthropicMessages.serve, { id: 'm1', model: 'c', created: 0 }, { snapshot: () => turn, reasoning: { mark: 'bedrock-converse' } });
    const out = events.flatMap((e) => w.write(e));
    expect(out.find((e) => (e.data as Json).type === 'content_block_start')!.data).toEqual({ type: 'content_block_start', index: 0, content_block: { type: 'redacted_thinking', data: `bedrock-converse:${REDACTED_A}` } });
    // The text block follows it, at the next index.
    expect(out.filter((e) => (e.data as Json).type === 'content_block_start').map((e) => (e.data as Json).index)).toEqual([0, 1]);
  });
});

describe('our own client reads a served redacted block back, in its place (Bedrock Converse, OpenRouter)', () => {
  // Bedrock's redactedContent is base64 of bytes (docs/wire-facts.md); OpenRouter's encrypted detail is the upstream's data.
  const turn = { thinking: [{ text: THOUGHT, signature: SIGNATURE }, { redacted: REDACTED_A }], text: 'Sunny.' };
  it.each(['bedrock-converse', 'openrouter'])('%s', async (id) => {
    const adapter = (adapters as Record<string, ProviderAdapter>)[id]!;
    const serve = (serves as Record<string, ServeCodec>)[id]!;
    const unified = servedTurn(turn, { id: 'resp1', model: 'm-1', created: 1767225600 });
    const writer = new StreamWriter(adapter, serve, { id: 'resp1', model: 'm-1', created: 1767225600 }, { snapshot: () => unified });
    const encoder = eventEncoder(adapter);
    const events = [...turnEvents(unified).flatMap((e) => writer.write(e)), ...writer.end()];
    const body = new Uint8Array([...encoder.bytes(events), ...encoder.end()]);
    const client = createClientFor(adapter, { ...accessFor(adapter), apiKey: 'test-key-0000', baseUrl: 'http://127.0.0.1:9/v1', fetch: fetchReturning(chunked(body, 7), encoder.contentType), maxRetries: 0 });
    const r = await client.stream({ messages: [{ role: 'user', content: 'hi' }], model: 'm-1' }).final();
    expect(r.message.thinking?.map((t) => ({ text: t.text, signature: t.signature, redacted: t.redacted }))).toEqual([
      { text: THOUGHT, signature: SIGNATURE, redacted: undefined },
      { text: '', signature: undefined, redacted: REDACTED_A },
    ]);
    expect(r.text).toBe('Sunny.');
  });
});

describe('consecutive reasoning blocks stay apart in a served stream', () => {
  it('Anthropic: two signed thinking blocks with a redacted one between are three blocks, each with its own signature', async () => {
    const SECOND = 'Paris it is.';
    const turn = { thinking: [{ text: THOUGHT, signature: SIGNATURE }, { redacted: REDACTED_A }, { text: SECOND, signature: `${SIGNATURE}2` }], text: 'Sunny.' };
    const mock = await createMockServer({ provider: 'anthropic-messages', script: [{ reply: turn }] });
    try {
      const client = new Anthropic({ apiKey: 'unused', baseURL: mock.url, maxRetries: 0 });
      const final = await client.messages.stream({ model: 'claude-test', max_tokens: 1024, messages: [{ role: 'user', content: 'hi' }] }).finalMessage();
      expect(final.content).toEqual([
        { type: 'thinking', thinking: THOUGHT, signature: SIGNATURE },
        { type: 'redacted_thinking', data: REDACTED_A },
        { type: 'thinking', thinking: SECOND, signature: `${SIGNATURE}2` },
        { type: 'text', text: 'Sunny.' },
      ]);
    } finally {
      await mock.close();
    }
  });
});

describe('gateway stream, signing dialect: OpenRouter Chat callers get Anthropic redacted reasoning marked, and send it back', () => {
  let anthropic: MockServer;
  let gw: Listening;
  beforeAll(async () => {
    anthropic = await createMockServer({ provider: 'anthropic-messages', script: [{ when: { toolResultFor: 'toolu_w1' }, reply: { text: '18C in Paris.' } }, { reply: anthropicTurn }] });
    gw = await startGateway({
      listen: [{ spec: 'openai-chat', path: '/openai' }],
      routes: [{ model: 'claude-or', dialect: 'openrouter', targets: [{ spec: 'anthropic-messages', model: 'claude-up', baseUrl: anthropic.url, key: { keys: ['sk-ant-up-01'] } }] }],
    });
  });
  afterAll(async () => {
    await gw.close();
    await anthropic.close();
  });

  it('reasoning_details hold reasoning.encrypted details (marked anthropic-messages:) in order; the second turn reaches Anthropic with them unmarked, in place', async () => {
    const body = { model: 'claude-or', stream: true, messages: [{ role: 'user', content: 'Weather in Paris?' }], tools: [{ type: 'function', function: { name: 'get_weather', parameters: WEATHER } }] };
    const res = await fetch(`${gw.url}/openai/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer unused' }, body: JSON.stringify(body) });
    const chunks = await sse(res);
    // Details merge by index, as an OpenRouter client does (texts appended, other fields kept).
    const details: Json[] = [];
    for (const c of chunks) {
      for (const d of (c.choices?.[0]?.delta?.reasoning_details ?? []) as Json[]) {
        const at = (details[d.index] ??= { type: d.type, index: d.index });
        if (d.text) at.text = (at.text ?? '') + d.text;
        for (const k of ['signature', 'data']) if (d[k] !== undefined) at[k] = d[k];
      }
    }
    expect(details.map((d) => ({ type: d.type, text: d.text, signature: d.signature, data: d.data }))).toEqual([
      { type: 'reasoning.encrypted', text: undefined, signature: undefined, data: `anthropic-messages:${REDACTED_A}` },
      { type: 'reasoning.text', text: THOUGHT, signature: `anthropic-messages:${SIGNATURE}`, data: undefined },
      { type: 'reasoning.encrypted', text: undefined, signature: undefined, data: `anthropic-messages:${REDACTED_B}` },
    ]);
    const call = chunks.flatMap((c) => c.choices?.[0]?.delta?.tool_calls ?? [])[0] as Json;
    const assistant = { role: 'assistant', content: null, reasoning_details: details, tool_calls: [{ id: call.id, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] };
    const second = { model: 'claude-or', messages: [body.messages[0], assistant, { role: 'tool', tool_call_id: call.id, content: '18C' }], tools: body.tools };
    const r = await fetch(`${gw.url}/openai/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer unused' }, body: JSON.stringify(second) });
    expect(r.status).toBe(200);
    const sent = (anthropic.requests.at(-1)!.body as { messages: Json[] }).messages;
    expect(sent[1]).toEqual({ role: 'assistant', content: anthropicContent });
  });
});

describe('the stream writer matches each reasoning block to its part', () => {
  it('Responses: an item with only its id (stored, no summary) is written whole in its place, not taken for the next block; the next keeps its own id', () => {
    const turn = { message: { role: 'assistant' as const, content: null, thinking: [{ text: '', id: 'rs_stored' }, { text: 'Checking.', signature: ENCRYPTED, id: REASONING_ID }] } };
    const w = new StreamWriter(openaiResponses.adapter, openaiResponses.serve, { id: 'resp_1', model: 'gpt', created: 0 }, { snapshot: () => turn });
    const events: StreamEvent[] = [
      { type: 'start', id: 'resp_1', model: 'gpt', warnings: [] },
      { type: 'thinking-signature', signature: ENCRYPTED },
      { type: 'thinking-delta', delta: 'Checking.' },
      { type: 'finish', finishReason: 'stop', rawFinishReason: null, usage: null },
    ];
    const out = events.flatMap((e) => w.write(e)).map((e) => e.data as Json);
    const done = out.filter((e) => e.type === 'response.output_item.done').map((e) => e.item);
    // The stored item as the API streams one (added and done, `summary: []`), then the next.
    expect(done).toEqual([
      { id: 'rs_stored', type: 'reasoning', summary: [] },
      { id: REASONING_ID, type: 'reasoning', summary: [{ type: 'summary_text', text: 'Checking.' }], encrypted_content: ENCRYPTED },
    ]);
    // The summary part opens with the first text, after the item was added with its signature.
    const second = out.findIndex((e) => e.type === 'response.output_item.added' && e.item.id === REASONING_ID);
    expect(out.map((e) => e.type).slice(second, second + 3)).toEqual(['response.output_item.added', 'response.reasoning_summary_part.added', 'response.reasoning_summary_text.delta']);
  });
});

describe('reading a Responses turn back: the message after reasoning keeps its id', () => {
  const message = { type: 'message', id: 'msg_01', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Let me check.', annotations: [] }] };
  const read = (items: Json[]) => decodeRequest(openaiResponses.adapter, openaiResponses.serve, { model: 'gpt', input: [{ role: 'user', content: 'hi' }, ...items, { role: 'user', content: 'go on' }] }, '/v1/responses').request.messages[1] as Json;

  it('after a reasoning item: the turn lists its parts, the message with its id (so it goes back with it)', () => {
    const turn = read([{ type: 'reasoning', id: REASONING_ID, summary: [], encrypted_content: ENCRYPTED }, message]);
    expect(turn.parts).toEqual([
      { type: 'thinking', text: '', signature: ENCRYPTED, id: REASONING_ID },
      { type: 'text', text: 'Let me check.', id: 'msg_01' },
    ]);
  });

  it('without reasoning: no parts (the id matters to nothing, and another provider would warn about it)', () => {
    expect(read([message]).parts).toBeUndefined();
  });

  const call = { id: 'fc_01', type: 'function_call', status: 'completed', call_id: 'call_w1', name: 'get_weather', arguments: '{}', parsed_arguments: null };
  const decode = (items: Json[]) => decodeRequest(openaiResponses.adapter, openaiResponses.serve, { model: 'gpt', input: [{ role: 'user', content: 'hi' }, ...items, { type: 'function_call_output', call_id: 'call_w1', output: '18C' }] }, '/v1/responses');

  it('a call after reasoning keeps its item: the fields its form writes and its id (not what the SDK added); the id is read, not left over', () => {
    const d = decode([{ type: 'reasoning', id: REASONING_ID, summary: [], encrypted_content: ENCRYPTED }, call]);
    expect((d.request.messages[1] as Json).toolCalls).toEqual([{ id: 'call_w1', name: 'get_weather', arguments: '{}', wire: { id: 'fc_01', type: 'function_call', call_id: 'call_w1', name: 'get_weather', arguments: '{}' } }]);
    expect(d.unread).toEqual(['input[2].status']);
  });

  it('a call without reasoning before it reads as before (its id left over)', () => {
    const d = decode([call]);
    expect((d.request.messages[1] as Json).toolCalls).toEqual([{ id: 'call_w1', name: 'get_weather', arguments: '{}' }]);
    expect(d.unread).toContain('input[1].id');
  });
});

/** SSE text of named events (`event:` from each event's `type`), as Anthropic and Responses send them. */
const sseOf = (events: Json[]): string[] => events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`);
/** How the upstream's body reaches the gateway: in one read (the turn read ahead of the events), or one event per read. */
const SPLITS = [
  ['one piece', (events: string[]) => ({ headers: { 'content-type': 'text/event-stream' }, body: events.join('') })],
  ['event by event', (events: string[]) => ({ headers: { 'content-type': 'text/event-stream' }, body: events, chunkDelayMs: 5 })],
] as const;

/** A gateway listening as `spec` in front of a scripted upstream of the same spec (its body split as asked). */
async function passThrough(spec: 'anthropic-messages' | 'openai-responses', body: ScriptedResponse): Promise<{ url: string; close: () => Promise<void> }> {
  const up = await startLoopbackServer(body);
  const gw = await startGateway({
    listen: [{ spec, path: '/p' }],
    routes: [{ model: 'm', targets: [{ spec, model: 'up', baseUrl: spec === 'openai-responses' ? `${up.url}/v1` : up.url, key: { keys: ['sk-up-000000001'] } }] }],
  });
  return { url: `${gw.url}/p`, close: async () => void (await Promise.all([gw.close(), up.close()])) };
}

describe('the gateway writes silent reasoning in its place however the upstream body is split', () => {
  // Anthropic: signed thinking, text, a redacted block, then a call (the redacted block comes after the text).
  const start = { type: 'message_start', message: { id: 'msg_01Up', type: 'message', role: 'assistant', model: 'claude-up', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 12, output_tokens: 1 } } };
  const anthropicEvents = [
    start,
    { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: THOUGHT } },
    { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: SIGNATURE } },
    { type: 'content_block_stop', index: 0 },
    { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
    { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Let me check.' } },
    { type: 'content_block_stop', index: 1 },
    { type: 'content_block_start', index: 2, content_block: { type: 'redacted_thinking', data: REDACTED_A } },
    { type: 'content_block_stop', index: 2 },
    { type: 'content_block_start', index: 3, content_block: { type: 'tool_use', id: 'toolu_w1', name: 'get_weather', input: {} } },
    { type: 'content_block_delta', index: 3, delta: { type: 'input_json_delta', partial_json: '{"city":"Paris"}' } },
    { type: 'content_block_stop', index: 3 },
    { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 40 } },
    { type: 'message_stop' },
  ];

  // Failed before the fix in one piece: the redacted block was written before the text.
  it.each(SPLITS)('Anthropic, %s: a redacted block after the text stays after it', async (_name, split) => {
    const p = await passThrough('anthropic-messages', split(sseOf(anthropicEvents)));
    try {
      const client = new Anthropic({ apiKey: 'unused', baseURL: p.url, maxRetries: 0 });
      const final = await client.messages.stream({ model: 'm', max_tokens: 1024, messages: [{ role: 'user', content: 'Weather in Paris?' }] }).finalMessage();
      expect(final.content).toEqual([
        { type: 'thinking', thinking: THOUGHT, signature: SIGNATURE },
        { type: 'text', text: 'Let me check.' },
        { type: 'redacted_thinking', data: REDACTED_A },
        { type: 'tool_use', id: 'toolu_w1', name: 'get_weather', input: { city: 'Paris' } },
      ]);
    } finally {
      await p.close();
    }
  });
});

/** Responses stream events, numbered as the API numbers them, ending with `response.completed` (its output: the done items). */
function responsesEvents(items: Json[][]): Json[] {
  const response = (status: string, output: Json[]) => ({ id: 'resp_up01', object: 'response', created_at: 1767225600, status, model: 'gpt-up', output, usage: status === 'completed' ? { input_tokens: 12, input_tokens_details: { cached_tokens: 0 }, output_tokens: 30, output_tokens_details: { reasoning_tokens: 20 }, total_tokens: 42 } : null });
  const events = [{ type: 'response.created', response: response('in_progress', []) }, ...items.flat()];
  const done = events.filter((e) => e.type === 'response.output_item.done').map((e) => e.item as Json);
  events.push({ type: 'response.completed', response: response('completed', done) });
  return events.map((e, i) => ({ ...e, sequence_number: i }));
}
/** A reasoning item's events: added (its encrypted content already there), its summary if any, done. */
function reasoningItem(at: number, id: string, encrypted: string | undefined, summary?: string): Json[] {
  const item = (s: Json[]) => ({ id, type: 'reasoning', summary: s, ...(encrypted === undefined ? {} : { encrypted_content: encrypted }) });
  const text = summary === undefined ? [] : [
    { type: 'response.reasoning_summary_part.added', item_id: id, output_index: at, summary_index: 0, part: { type: 'summary_text', text: '' } },
    { type: 'response.reasoning_summary_text.delta', item_id: id, output_index: at, summary_index: 0, delta: summary },
    { type: 'response.reasoning_summary_text.done', item_id: id, output_index: at, summary_index: 0, text: summary },
    { type: 'response.reasoning_summary_part.done', item_id: id, output_index: at, summary_index: 0, part: { type: 'summary_text', text: summary } },
  ];
  const whole = item(summary === undefined ? [] : [{ type: 'summary_text', text: summary }]);
  return [{ type: 'response.output_item.added', output_index: at, item: item([]) }, ...text, { type: 'response.output_item.done', output_index: at, item: whole }];
}
/** A message item's events, its text in one delta. */
function messageItem(at: number, id: string, text: string): Json[] {
  const part = { type: 'output_text', text, annotations: [] };
  return [
    { type: 'response.output_item.added', output_index: at, item: { id, type: 'message', status: 'in_progress', role: 'assistant', content: [] } },
    { type: 'response.content_part.added', item_id: id, output_index: at, content_index: 0, part: { ...part, text: '' } },
    { type: 'response.output_text.delta', item_id: id, output_index: at, content_index: 0, delta: text },
    { type: 'response.output_text.done', item_id: id, output_index: at, content_index: 0, text },
    { type: 'response.content_part.done', item_id: id, output_index: at, content_index: 0, part },
    { type: 'response.output_item.done', output_index: at, item: { id, type: 'message', status: 'completed', role: 'assistant', content: [part] } },
  ];
}
const ENCRYPTED_2 = 'gAAAAABpPDIVc2Vjb25kLXJlYXNvbmluZy1pdGVtLWVuY3J5cHRlZC1jb250ZW50';
const REASONING_ID_2 = 'rs_1f2e3d4c5b6a79808f7e6d5c4b3a2910';

describe('back-to-back Responses reasoning items stay two items, each with its own encrypted content', () => {
  // Failed before the fix: the second item's encrypted content (sent when it is added) went to the
  // first, and a second item without a summary was not written at all.
  for (const summary of ['with', 'without'] as const) {
    it.each(SPLITS)(`gateway, %s: the second item ${summary} a summary`, async (_name, split) => {
      const second = summary === 'with' ? 'Then the tool.' : undefined;
      const events = responsesEvents([reasoningItem(0, REASONING_ID, ENCRYPTED, 'First the city.'), reasoningItem(1, REASONING_ID_2, ENCRYPTED_2, second), messageItem(2, 'msg_0c1d2e3f', 'Sunny.')]);
      const p = await passThrough('openai-responses', split(sseOf(events)));
      try {
        const client = new OpenAI({ apiKey: 'unused', baseURL: p.url, maxRetries: 0 });
        const final = await client.responses.stream({ model: 'm', input: 'Weather in Paris?', store: false, include: ['reasoning.encrypted_content'] }).finalResponse();
        expect(final.output.slice(0, 2)).toEqual([
          { id: REASONING_ID, type: 'reasoning', summary: [{ type: 'summary_text', text: 'First the city.' }], encrypted_content: ENCRYPTED },
          { id: REASONING_ID_2, type: 'reasoning', summary: second === undefined ? [] : [{ type: 'summary_text', text: second }], encrypted_content: ENCRYPTED_2 },
        ]);
        expect(final.output.map((o) => o.type)).toEqual(['reasoning', 'reasoning', 'message']);
      } finally {
        await p.close();
      }
    });
  }

  it('the mock: streamed as its blocking body lists them (the ids, the encrypted content, the message numbered after both)', async () => {
    const mock = await createMockServer({ provider: 'openai-responses', script: [{ reply: { thinking: [{ signature: ENCRYPTED, id: REASONING_ID }, { signature: ENCRYPTED_2, id: REASONING_ID_2 }], text: 'Sunny.' } }] });
    try {
      const client = new OpenAI({ apiKey: 'unused', baseURL: mock.url, maxRetries: 0 });
      const ask = { model: 'gpt-test', input: 'Weather in Paris?', store: false, include: ['reasoning.encrypted_content' as const] };
      const blocking = await client.responses.create(ask);
      const streamed = await client.responses.stream(ask).finalResponse();
      const view = (r: OpenAI.Responses.Response) => r.output.map((o) => [o.type, (o as Json).encrypted_content, o.id!.replace(r.id, '<id>')]);
      expect(view(blocking)).toEqual([['reasoning', ENCRYPTED, REASONING_ID], ['reasoning', ENCRYPTED_2, REASONING_ID_2], ['message', undefined, 'msg_<id>_2']]);
      expect(view(streamed)).toEqual(view(blocking));
    } finally {
      await mock.close();
    }
  });
});

describe('a Responses reasoning item with nothing but its id (store: true, no summary, no encrypted content) is streamed in its place', () => {
  const CALL = { id: 'fc_5e6f7a8b', type: 'function_call', status: 'completed', call_id: 'call_w1', name: 'get_weather', arguments: '{"city":"Paris"}' };
  const callItem = (at: number): Json[] => [
    { type: 'response.output_item.added', output_index: at, item: { ...CALL, status: 'in_progress', arguments: '' } },
    { type: 'response.function_call_arguments.delta', item_id: CALL.id, output_index: at, delta: CALL.arguments },
    { type: 'response.function_call_arguments.done', item_id: CALL.id, output_index: at, arguments: CALL.arguments },
    { type: 'response.output_item.done', output_index: at, item: CALL },
  ];

  // Failed before the fix: the item was passed over, and the caller's next turn lost it.
  it.each(SPLITS)('gateway, %s: the item, then the message and the call with their own ids', async (_name, split) => {
    const events = responsesEvents([reasoningItem(0, REASONING_ID, undefined), messageItem(1, 'msg_0c1d2e3f', 'Let me check.'), callItem(2)]);
    const p = await passThrough('openai-responses', split(sseOf(events)));
    try {
      const client = new OpenAI({ apiKey: 'unused', baseURL: p.url, maxRetries: 0 });
      const final = await client.responses.stream({ model: 'm', input: 'Weather in Paris?' }).finalResponse();
      expect(final.output[0]).toEqual({ id: REASONING_ID, type: 'reasoning', summary: [] });
      expect(final.output.map((o) => [o.type, o.id])).toEqual([['reasoning', REASONING_ID], ['message', 'msg_0c1d2e3f'], ['function_call', CALL.id]]);
    } finally {
      await p.close();
    }
  });

  it('the mock: streamed as its blocking body lists it, the message and the call numbered after it in both', async () => {
    const mock = await createMockServer({ provider: 'openai-responses', script: [{ reply: { thinking: [{ id: REASONING_ID }], text: 'Let me check.', toolCalls: [{ id: 'call_w1', name: 'get_weather', arguments: { city: 'Paris' } }] } }] });
    try {
      const client = new OpenAI({ apiKey: 'unused', baseURL: mock.url, maxRetries: 0 });
      const ask = { model: 'gpt-test', input: 'Weather in Paris?', tools: [{ type: 'function' as const, name: 'get_weather', parameters: WEATHER, strict: false }] };
      const view = (r: OpenAI.Responses.Response) => r.output.map((o) => [o.type, o.id!.replace(r.id, '<id>')]);
      const blocking = view(await client.responses.create(ask));
      expect(blocking).toEqual([['reasoning', REASONING_ID], ['message', 'msg_<id>_1'], ['function_call', 'fc_<id>_2']]);
      expect(view(await client.responses.stream(ask).finalResponse())).toEqual(blocking);
    } finally {
      await mock.close();
    }
  });
});

describe('consecutive Responses message items stay apart, each under its own id', () => {
  // Failed before the fix: the second message's text went into the first item (msg_… "Checking.Done.").
  it('gateway, one piece: reasoning, then two messages, each under its own id with its own text', async () => {
    const events = responsesEvents([reasoningItem(0, REASONING_ID, ENCRYPTED), messageItem(1, 'msg_0c1d2e3f', 'Checking.'), messageItem(2, 'msg_4a5b6c7d', 'Done.')]);
    const p = await passThrough('openai-responses', SPLITS[0][1](sseOf(events)));
    try {
      const client = new OpenAI({ apiKey: 'unused', baseURL: p.url, maxRetries: 0 });
      const final = await client.responses.stream({ model: 'm', input: 'Weather in Paris?', store: false, include: ['reasoning.encrypted_content'] }).finalResponse();
      expect(final.output.map((o) => [o.type, o.id, o.type === 'message' ? (o.content[0] as { text: string }).text : undefined])).toEqual([
        ['reasoning', REASONING_ID, undefined],
        ['message', 'msg_0c1d2e3f', 'Checking.'],
        ['message', 'msg_4a5b6c7d', 'Done.'],
      ]);
      expect(final.output_text).toBe('Checking.Done.');
    } finally {
      await p.close();
    }
  });

  it('without a turn to read (no source), one text block as before', () => {
    const w = new StreamWriter(openaiResponses.adapter, openaiResponses.serve, { id: 'resp_1', model: 'gpt', created: 0 });
    const events: StreamEvent[] = [
      { type: 'start', id: 'resp_1', model: 'gpt', warnings: [] },
      { type: 'text-delta', delta: 'Checking.' },
      { type: 'text-delta', delta: 'Done.' },
      { type: 'finish', finishReason: 'stop', rawFinishReason: null, usage: null },
    ];
    const out = events.flatMap((e) => w.write(e)).map((e) => e.data as Json);
    expect(out.filter((e) => e.type === 'response.output_item.done').map((e) => e.item.content[0].text)).toEqual(['Checking.Done.']);
  });
});
