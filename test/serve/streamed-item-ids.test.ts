/**
 * A Responses caller streaming through the gateway to a Responses upstream gets the upstream's own
 * output item ids (docs/serving.md#reasoning-without-events). OpenAI wants a reasoning item followed
 * by the item it produced, named by its real id (docs/wire-facts.md#openai-responses-item-rules),
 * and the SDK sends output items back as they came: ids the gateway made up would not be the
 * upstream's. The mock's ids carry OpenAI's prefixes, not the gateway's `<response id>_<index>`, so
 * agreement cannot come by chance; what the mock itself streams (asked directly, a twin with the
 * same script) is the oracle.
 */
import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMockServer, startGateway, type Listening, type MockServer } from '../../node/index.js';
import * as openaiResponses from '../../generated/openai-responses.js';
import type { AssistantMessage, StreamEvent } from '../../runtime/contract/unified-model.js';
import { StreamWriter, type TurnSource } from '../../runtime/serve/stream-writer.js';

type Json = Record<string, any>;

// Made up for the test, in the forms OpenAI uses (base64-like encrypted content, an rs_ id).
const ENCRYPTED = 'gAAAAABpQk9xR2l0ZW1pZHMtdGVzdC1lbmNyeXB0ZWQtcmVhc29uaW5n';
const REASONING_ID = 'rs_68c1f0a9b2d34e5f8a7b6c5d4e3f2a1b';
const WEATHER = { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] };
const tools = [{ type: 'function' as const, name: 'get_weather', parameters: WEATHER, strict: false }];
const ask = { input: 'Weather in Paris?', tools, store: false, include: ['reasoning.encrypted_content' as const] };

/** Reasoning (encrypted, no summary) then a call; reasoning, a message, then a call; a shell call (a client-run kind). */
const CALL_TURN = { thinking: { signature: ENCRYPTED, id: REASONING_ID }, toolCalls: [{ id: 'call_w1', name: 'get_weather', arguments: { city: 'Paris' } }] };
const MESSAGE_TURN = { ...CALL_TURN, text: 'Let me check.' };
const SHELL_TURN = { toolCalls: [{ kind: 'shell', id: 'call_s1', arguments: { commands: ['ls'] } }] };

const script = () => [
  { when: { toolResultFor: 'call_w1' }, reply: { text: '18C in Paris.' } },
  { when: { model: 'gpt-calls' }, reply: CALL_TURN },
  { when: { model: 'gpt-message' }, reply: MESSAGE_TURN },
  { when: { model: 'gpt-shell' }, reply: SHELL_TURN },
];

/** The output items' ids as a streamed answer's events give them (added and done alike). */
async function streamedItems(url: string, body: Json): Promise<Json[]> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer unused' }, body: JSON.stringify({ ...body, stream: true }) });
  expect(res.status).toBe(200);
  const events = (await res.text())
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => JSON.parse(l.slice(6)) as Json);
  const added = events.filter((e) => e.type === 'response.output_item.added').map((e) => e.item.id);
  const done = events.filter((e) => e.type === 'response.output_item.done').map((e) => e.item);
  expect(added).toEqual(done.map((i) => i.id));
  return done;
}

/** A mock upstream behind a gateway, and its twin (the same script, asked directly): fresh ones number their answers alike. */
async function mocks(): Promise<{ upstream: MockServer; twin: MockServer; gw: Listening; close: () => Promise<void> }> {
  const upstream = await createMockServer({ provider: 'openai-responses', script: script() });
  const twin = await createMockServer({ provider: 'openai-responses', script: script() });
  const target = { spec: 'openai-responses', baseUrl: upstream.url, key: { keys: ['sk-openai-up-01'] } };
  const gw = await startGateway({
    listen: [{ spec: 'openai-responses', path: '/openai' }],
    routes: ['gpt-calls', 'gpt-message', 'gpt-shell'].map((model) => ({ model, targets: [{ ...target, model }] })),
  });
  return { upstream, twin, gw, close: async () => void (await Promise.all([gw.close(), upstream.close(), twin.close()])) };
}

describe('streamed Responses items keep the upstream’s ids through the gateway', () => {
  let m: Awaited<ReturnType<typeof mocks>>;
  beforeEach(async () => {
    m = await mocks();
  });
  afterEach(() => m.close());

  for (const [model, types] of [
    ['gpt-calls', ['reasoning', 'function_call']],
    ['gpt-message', ['reasoning', 'message', 'function_call']],
  ] as const) {
    it(`${model}: the SDK's streamed items carry the mock's ids; the next turn reaches the mock with them, in order, and is accepted`, async () => {
      const own = await streamedItems(`${m.twin.url}/v1/responses`, { model, ...ask });
      expect(own.map((i) => i.type)).toEqual(types);
      // The mock names items as OpenAI does, not as the gateway makes ids up (`<response id>_<index>`).
      const call = own.at(-1)!;
      expect(call.id).toMatch(/^fc_/);
      if (model === 'gpt-message') expect(own[1]!.id).toMatch(/^msg_/);
      for (const [i, item] of own.entries()) if (item.type !== 'reasoning') expect(item.id).not.toMatch(/^mock_\d+_\d+$/);

      const client = new OpenAI({ apiKey: 'unused', baseURL: `${m.gw.url}/openai`, maxRetries: 0 });
      const stream = client.responses.stream({ model, ...ask });
      const addedIds: string[] = [];
      stream.on('response.output_item.added', (e) => addedIds.push(e.item.id!));
      const first = await stream.finalResponse();
      expect(addedIds).toEqual(own.map((i) => i.id));
      expect(first.output.map((o) => [o.type, o.id])).toEqual(own.map((i) => [i.type, i.id]));

      // The caller's next turn: the output items as the SDK gives them, then the call's result.
      const input = [{ role: 'user' as const, content: 'Weather in Paris?' }, ...(first.output as OpenAI.Responses.ResponseInputItem[]), { type: 'function_call_output' as const, call_id: 'call_w1', output: '18C' }];
      const second = await client.responses.create({ model, ...ask, input });
      expect(second.output_text).toBe('18C in Paris.');
      const sent = (m.upstream.requests.at(-1)!.body as { input: Json[] }).input;
      expect(sent[0]).toMatchObject({ role: 'user' });
      expect(sent.slice(1).map((i) => i.type)).toEqual([...types, 'function_call_output']);
      expect(sent[1]).toEqual({ type: 'reasoning', id: REASONING_ID, summary: [], encrypted_content: ENCRYPTED });
      expect(sent.slice(1, -1).map((i) => i.id)).toEqual(own.map((i) => i.id));
      expect(sent.at(-2)).toEqual({ id: call.id, type: 'function_call', call_id: 'call_w1', name: 'get_weather', arguments: '{"city":"Paris"}' });
      if (model === 'gpt-message') expect(sent[2]).toMatchObject({ type: 'message', id: own[1]!.id, role: 'assistant', content: [{ type: 'output_text', text: 'Let me check.' }] });
    });
  }

  it("a client-run kind's call (shell) streams as the upstream's item, its id included", async () => {
    const own = await streamedItems(`${m.twin.url}/v1/responses`, { model: 'gpt-shell', input: 'List the files.', tools: [{ type: 'shell' }] });
    expect(own).toEqual([{ type: 'shell_call', id: expect.any(String), status: 'completed', call_id: 'call_s1', action: { commands: ['ls'] } }]);
    expect(own[0]!.id).not.toMatch(/_call\d+$/);
    const through = await streamedItems(`${m.gw.url}/openai/v1/responses`, { model: 'gpt-shell', input: 'List the files.', tools: [{ type: 'shell' }] });
    expect(through).toEqual(own);
  });
});

describe('the stream writer finds each item in the turn as it stands', () => {
  // A turn as a Responses upstream's reader holds it: an empty message after reasoning (its own
  // item, no text), a message, a call (its item as it came), then another message.
  const call = { id: 'call_w1', name: 'get_weather', arguments: '{"city":"Paris"}', wire: { type: 'function_call', id: 'fc_0b7e', call_id: 'call_w1', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed' } };
  const message: AssistantMessage = {
    role: 'assistant',
    content: 'Let me check.\n\nIt is 18C.',
    thinking: [{ text: '', signature: ENCRYPTED, id: REASONING_ID }],
    toolCalls: [call],
    parts: [
      { type: 'thinking', text: '', signature: ENCRYPTED, id: REASONING_ID },
      { type: 'text', text: '', id: 'msg_empty' },
      { type: 'text', text: 'Let me check.', id: 'msg_01a' },
      { type: 'tool-call', call },
      { type: 'text', text: 'It is 18C.', id: 'msg_02b' },
    ],
  };
  const events: StreamEvent[] = [
    { type: 'start', id: 'resp_1', model: 'gpt', warnings: [] },
    { type: 'thinking-signature', signature: ENCRYPTED },
    { type: 'text-delta', delta: 'Let me ' },
    { type: 'text-delta', delta: 'check.' },
    { type: 'tool-call-start', index: 0, id: 'call_w1', name: 'get_weather' },
    { type: 'tool-call-delta', index: 0, delta: '{"city":"Paris"}' },
    { type: 'tool-call', index: 0, call: { id: 'call_w1', name: 'get_weather', arguments: '{"city":"Paris"}' } },
    // The client puts a blank line before text that follows a call.
    { type: 'text-delta', delta: '\n\nIt is 18C.' },
    { type: 'finish', finishReason: 'tool_calls', rawFinishReason: null, usage: null },
  ];
  const serve = (source: TurnSource) => {
    const w = new StreamWriter(openaiResponses.adapter, openaiResponses.serve, { id: 'resp_1', model: 'gpt', created: 0 }, source);
    const out = events.flatMap((e) => w.write(e)).map((e) => e.data as Json);
    return { added: out.filter((e) => e.type === 'response.output_item.added').map((e) => [e.item.type, e.item.id]), final: out.at(-1)!.response.output as Json[] };
  };

  it('same protocol: each message and the call are named by their own items (the empty message passed over), in the events and the finished body alike', () => {
    const { added, final } = serve({ snapshot: () => ({ message }) });
    expect(added).toEqual([['reasoning', REASONING_ID], ['message', 'msg_01a'], ['function_call', 'fc_0b7e'], ['message', 'msg_02b']]);
    expect(final.map((i) => [i.type, i.id])).toEqual(added);
  });

  it('another protocol: none of its ids pass; the items get the ids the gateway makes up', () => {
    const { added, final } = serve({ snapshot: () => ({ message }), reasoning: { foreign: 'open-responses' } });
    expect(added).toEqual([['message', 'resp_1_0'], ['function_call', 'resp_1_1'], ['message', 'resp_1_2']]);
    expect(final.map((i) => [i.type, i.id])).toEqual(added);
  });

  it('a text block whose text is not the next run of text in the turn gets a made-up id, not another item’s', () => {
    const other: AssistantMessage = { ...message, parts: [{ type: 'text', text: 'Something else.', id: 'msg_other' }] };
    const { added } = serve({ snapshot: () => ({ message: other }) });
    expect(added[1]).toEqual(['message', 'resp_1_1']);
  });
});
