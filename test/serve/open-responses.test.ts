/**
 * The Open Responses conformance checks (docs/serving.md#open-responses-conformance: the six
 * cases and what each requires, in this project's words) run against the mock server for
 * openai-responses and the gateway listening as openai-responses over Anthropic, Gemini and Chat
 * Completions upstreams. Every body and every stream event is validated with ajv against
 * open-responses.schema.json, written here from those requirements.
 */
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, startGateway, type MockServer } from '../../node/index.js';
import { sseEvents } from '../helpers/frame-stream.js';

type Json = Record<string, any>;

const schema = JSON.parse(readFileSync(new URL('./open-responses.schema.json', import.meta.url), 'utf8')) as Json;
const ajv = new Ajv({ allErrors: true, strict: false });
// Plain checks (not type guards): a refused value stays a value to report.
const validResponse: { (v: unknown): boolean; errors?: unknown } = ajv.compile(schema);
const validEvent: { (v: unknown): boolean; errors?: unknown } = ajv.compile({ ...schema, $ref: '#/definitions/event' });

const WEATHER_TOOL = {
  type: 'function',
  name: 'get_weather',
  description: 'The current weather for a place',
  parameters: { type: 'object', properties: { location: { type: 'string', description: 'City and region' } }, required: ['location'] },
};
// A 1×1 PNG, made for this test.
const PIXEL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';

interface Case {
  id: string;
  stream: boolean;
  body: Json;
  /** What the final response must hold besides the schema. */
  check: (response: Json, events: Json[]) => string[];
}

const hasOutput = (r: Json) => (Array.isArray(r.output) && r.output.length > 0 ? [] : ['the response has no output items']);
const completed = (r: Json) => (r.status === 'completed' ? [] : [`status is ${r.status}, not completed`]);
const hasItem = (type: string) => (r: Json) => (r.output?.some((i: Json) => i.type === type) ? [] : [`no output item of type ${type}`]);
const eventsSeen = (_: Json, events: Json[]) => (events.length ? [] : ['no stream events']);
const callEvents = (_: Json, events: Json[]) => {
  const has = (type: string, itemType?: string) => events.some((e) => e.type === type && (itemType === undefined || e.item?.type === itemType));
  return [
    has('response.output_item.added', 'function_call') ? [] : ['no output_item.added with a function_call'],
    has('response.function_call_arguments.delta') ? [] : ['no function_call_arguments.delta'],
    has('response.function_call_arguments.done') ? [] : ['no function_call_arguments.done'],
    has('response.output_item.done', 'function_call') ? [] : ['no output_item.done with a function_call'],
  ].flat();
};

const CASES: Case[] = [
  { id: 'basic text', stream: false, body: { input: [{ type: 'message', role: 'user', content: 'Say hello in three words.' }] }, check: (r) => [...hasOutput(r), ...completed(r)] },
  { id: 'streaming', stream: true, body: { input: [{ type: 'message', role: 'user', content: 'Count to five.' }] }, check: (r, e) => [...eventsSeen(r, e), ...completed(r)] },
  {
    id: 'system prompt',
    stream: false,
    body: { input: [{ type: 'message', role: 'system', content: 'Answer like a ship captain.' }, { type: 'message', role: 'user', content: 'Greet me.' }] },
    check: (r) => [...hasOutput(r), ...completed(r)],
  },
  { id: 'tool calling', stream: false, body: { input: [{ type: 'message', role: 'user', content: 'What is the weather in Lyon?' }], tools: [WEATHER_TOOL] }, check: (r) => [...hasOutput(r), ...hasItem('function_call')(r)] },
  {
    id: 'tool calling, streamed',
    stream: true,
    body: { input: [{ type: 'message', role: 'user', content: 'What is the weather in Lyon?' }], tools: [WEATHER_TOOL] },
    check: (r, e) => [...eventsSeen(r, e), ...callEvents(r, e)],
  },
  {
    id: 'image input',
    stream: false,
    body: { input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'What is in this picture?' }, { type: 'input_image', image_url: PIXEL }] }] },
    check: (r) => [...hasOutput(r), ...completed(r)],
  },
  {
    id: 'multi-turn',
    stream: false,
    body: {
      input: [
        { type: 'message', role: 'user', content: 'My name is Ada.' },
        { type: 'message', role: 'assistant', content: 'Nice to meet you, Ada.' },
        { type: 'message', role: 'user', content: 'What is my name?' },
      ],
    },
    check: (r) => [...hasOutput(r), ...completed(r)],
  },
];

/** One case against a server: every problem found, as text (none: it passes). */
async function conformance(url: string, token: string, c: Case): Promise<string[]> {
  const res = await fetch(`${url}/responses`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ model: 'conformance-model', ...c.body, stream: c.stream }) });
  const text = await res.text();
  if (!res.ok) return [`HTTP ${res.status}: ${text}`];
  const problems: string[] = [];
  let final: Json | undefined;
  const events: Json[] = [];
  if (c.stream) {
    for (const { event, data } of sseEvents(text)) {
      const e = JSON.parse(data) as Json;
      events.push(e);
      if (event !== undefined && event !== e.type) problems.push(`event: ${event} names a ${e.type} payload`);
      if (!validEvent(e)) problems.push(`${e.type}: ${ajv.errorsText(validEvent.errors as Parameters<typeof ajv.errorsText>[0])}`);
      if (e.type === 'response.completed' || e.type === 'response.failed' || e.type === 'response.incomplete') final = e.response;
    }
    if (!final) return [...problems, 'the stream has no final response event'];
  } else {
    final = JSON.parse(text) as Json;
  }
  if (!validResponse(final)) problems.push(`response: ${ajv.errorsText(validResponse.errors as Parameters<typeof ajv.errorsText>[0])}`);
  return [...problems, ...c.check(final!, events)];
}

const script = [
  { when: { lastUserText: 'weather' }, reply: { toolCalls: [{ id: 'call_lyon', name: 'get_weather', arguments: { location: 'Lyon, FR' } }] } },
  { reply: { text: 'Ahoy there, Ada.' } },
];

describe('the schema is not a rubber stamp', () => {
  it('refuses a body that lacks a required field or carries a wrong type', () => {
    const ok = { id: 'r', object: 'response', created_at: 1, completed_at: 1, status: 'completed', incomplete_details: null, model: 'm', previous_response_id: null, instructions: null, output: [], error: null, tools: [], tool_choice: 'auto', truncation: 'disabled', parallel_tool_calls: true, text: { format: { type: 'text' } }, top_p: 1, presence_penalty: 0, frequency_penalty: 0, top_logprobs: 0, temperature: 1, reasoning: null, user: null, usage: null, max_output_tokens: null, max_tool_calls: null, store: true, background: false, service_tier: 'default', metadata: {}, safety_identifier: null, prompt_cache_key: null };
    expect(validResponse(ok)).toBe(true);
    const { completed_at: _c, ...missing } = ok;
    expect(validResponse(missing)).toBe(false);
    expect(validResponse({ ...ok, output: [{ type: 'message', id: 'm', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'x' }] }] })).toBe(false);
    expect(validEvent({ type: 'response.output_text.delta', item_id: 'm', output_index: 0, content_index: 0, delta: 'x', logprobs: [] })).toBe(false);
  });
});

describe('Open Responses conformance: the mock server', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await createMockServer({ provider: 'openai-responses', apiKey: 'k-conformance-01', script });
  });
  afterAll(() => mock.close());
  it.each(CASES.map((c) => [c.id, c] as const))('%s', async (_id, c) => {
    expect(await conformance(mock.url, 'k-conformance-01', c)).toEqual([]);
  });
});

describe.each(['anthropic-messages', 'gemini', 'openai-chat'])('Open Responses conformance: the gateway over %s', (upstreamId) => {
  let upstream: MockServer;
  let gateway: { url: string; close(): Promise<void> };
  const token = 'gw-conformance-token-01';
  beforeAll(async () => {
    upstream = await createMockServer({ provider: upstreamId, script });
    gateway = await startGateway({ listen: 'openai-responses', upstream: upstreamId, clientToken: token, client: { apiKey: 'k-upstream-0001', baseUrl: upstream.url, maxRetries: 0 } });
  });
  afterAll(async () => {
    await gateway.close();
    await upstream.close();
  });
  it.each(CASES.map((c) => [c.id, c] as const))('%s', async (_id, c) => {
    expect(await conformance(gateway.url, token, c)).toEqual([]);
  });
});
