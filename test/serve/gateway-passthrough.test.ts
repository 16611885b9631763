/**
 * What passes through the gateway and what is named as not passing, with the official SDKs as
 * callers and a recording upstream on 127.0.0.1: Anthropic cache marks between Anthropic wires
 * (and listed when the upstream has no place for them), Gemini tools declared with `parameters`
 * (OpenAPI) or `parametersJsonSchema`, and a Gemini tool round whose result is any object.
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI, Type } from '@google/genai';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockServer, startGateway } from '../../node/index.js';
import { WARNINGS_HEADER } from '../../runtime/serve/gateway.js';
import { startLoopbackServer, type LoopbackServer, type ScriptedResponse } from '../helpers/loopback-server.js';
import { SDK_KEY } from '../helpers/sdk-drivers.js';

/** Answers as the Messages API does (docs/wire-facts.md#anthropic-messages). */
const anthropicAnswer: ScriptedResponse = {
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-test', content: [{ type: 'text', text: 'cached' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 5, output_tokens: 1 } }),
};
/** Answers as Chat Completions does. */
const chatAnswer: ScriptedResponse = {
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ id: 'c1', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'plain' }, finish_reason: 'stop' }], usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 } }),
};

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});
async function through(listen: string, upstreamId: string, answer: ScriptedResponse): Promise<{ up: LoopbackServer; url: string }> {
  const up = await startLoopbackServer(answer);
  open.push(up);
  const gw = await startGateway({ listen, upstream: upstreamId, client: { apiKey: 'up', baseUrl: up.url } });
  open.push(gw);
  return { up, url: gw.url };
}

const EPHEMERAL = { type: 'ephemeral' } as const;
const HOUR = { type: 'ephemeral', ttl: '1h' } as const;
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** A request with a cache mark in each place the Messages API takes one. */
const marked: Anthropic.MessageCreateParamsNonStreaming = {
  model: 'claude-test',
  max_tokens: 10,
  system: [{ type: 'text', text: 'You are terse.', cache_control: EPHEMERAL }],
  tools: [{ name: 'lookup', input_schema: { type: 'object', properties: { q: { type: 'string' } } }, cache_control: HOUR }],
  messages: [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'A long document…', cache_control: HOUR },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG }, cache_control: EPHEMERAL },
        { type: 'text', text: 'What is in it?' },
      ],
    },
  ],
};

const warningsOf = (h: Headers | undefined) => JSON.parse(h?.get(WARNINGS_HEADER) ?? '[]') as { field: string; message: string }[];

describe('Anthropic cache marks', () => {
  it('pass between Anthropic wires on content and tools, where the caller put them', async () => {
    const { up, url } = await through('anthropic-messages', 'anthropic-messages', anthropicAnswer);
    const { data, response } = await new Anthropic({ apiKey: SDK_KEY, baseURL: url, maxRetries: 0 }).messages.create(marked).withResponse();
    expect(data.content).toEqual([{ type: 'text', text: 'cached', citations: undefined }].map(({ type, text }) => expect.objectContaining({ type, text })));
    const sent = up.requests[0]!.body as { messages: { content: { cache_control?: unknown }[] }[]; tools: { cache_control?: unknown }[] };
    expect(sent.messages[0]!.content.map((b) => b.cache_control)).toEqual([HOUR, EPHEMERAL, undefined]);
    expect(sent.tools[0]!.cache_control).toEqual(HOUR);
    // The unified request carries the system prompt as text: its mark is named, not lost silently.
    expect(warningsOf(response.headers).map((w) => w.field)).toEqual(['system[0].cache_control']);
  });

  it('to an upstream without cache marks: not sent, and each one named in the warnings header', async () => {
    const { up, url } = await through('anthropic-messages', 'openai-chat', chatAnswer);
    const { response } = await new Anthropic({ apiKey: SDK_KEY, baseURL: url, maxRetries: 0 }).messages.create(marked).withResponse();
    expect(up.requests[0]!.rawBody).not.toContain('cache_control');
    expect(up.requests[0]!.rawBody).not.toContain('ephemeral');
    expect(warningsOf(response.headers).map((w) => w.field).sort()).toEqual(['messages[0].content[0].cacheControl', 'messages[0].content[1].cacheControl', 'system[0].cache_control', 'tools[0].cacheControl']);
  });
});

describe('Gemini tool schemas', () => {
  const WEATHER_JSON = { type: 'object', properties: { city: { type: 'string', description: 'a city' }, days: { type: 'integer' } }, required: ['city'] };

  it('a tool declared with `parameters` (OpenAPI, types in capitals) reaches upstream with its schema as JSON Schema', async () => {
    const { up, url } = await through('gemini', 'openai-chat', chatAnswer);
    const ai = new GoogleGenAI({ apiKey: SDK_KEY, httpOptions: { baseUrl: url } });
    const r = await ai.models.generateContent({
      model: 'gemini-test',
      contents: 'weather?',
      config: { tools: [{ functionDeclarations: [{ name: 'get_weather', description: 'the weather', parameters: { type: Type.OBJECT, properties: { city: { type: Type.STRING, description: 'a city' }, days: { type: Type.INTEGER, nullable: true } }, required: ['city'], propertyOrdering: ['city', 'days'] } }] }] },
    });
    expect(r.text).toBe('plain');
    const sent = up.requests[0]!.body as { tools: { type: string; function: { name: string; description: string; parameters: unknown } }[] };
    expect(sent.tools[0]).toEqual({ type: 'function', function: { name: 'get_weather', description: 'the weather', parameters: { type: 'object', properties: { city: { type: 'string', description: 'a city' }, days: { type: ['integer', 'null'] } }, required: ['city'] } } });
  });

  it('a tool declared with `parametersJsonSchema` passes as it is', async () => {
    const { up, url } = await through('gemini', 'openai-chat', chatAnswer);
    await new GoogleGenAI({ apiKey: SDK_KEY, httpOptions: { baseUrl: url } }).models.generateContent({ model: 'gemini-test', contents: 'weather?', config: { tools: [{ functionDeclarations: [{ name: 'get_weather', parametersJsonSchema: WEATHER_JSON }] }] } });
    expect((up.requests[0]!.body as { tools: { function: { parameters: unknown } }[] }).tools[0]!.function.parameters).toEqual(WEATHER_JSON);
  });

  it('a part field the unified request has no place for is named in the warnings header', async () => {
    const { url } = await through('gemini', 'openai-chat', chatAnswer);
    const res = await fetch(`${url}/v1beta/models/gemini-test:generateContent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi', videoMetadata: { startOffset: '1s' } }] }] }),
    });
    expect(res.status).toBe(200);
    expect(warningsOf(res.headers).map((w) => w.field)).toEqual(['contents[0].parts[0].videoMetadata']);
  });
});

describe('Gemini tool round with any result object', () => {
  // A functionResponse.response of any shape is the tool's output (the request reader's accept forms).
  it('a result object of its own shape reaches upstream whole', async () => {
    const mock = await createMockServer({ provider: 'openai-chat', apiKey: 'up', script: (call) => (call.request?.messages.some((m) => m.role === 'tool') ? { reply: { text: 'It is 18 degrees.' } } : { reply: { toolCalls: [{ id: 'call_w', name: 'get_weather', arguments: { city: 'Paris' } }] } }) });
    open.push(mock);
    const gw = await startGateway({ listen: 'gemini', upstream: 'openai-chat', client: { apiKey: 'up', baseUrl: mock.url } });
    open.push(gw);
    const ai = new GoogleGenAI({ apiKey: SDK_KEY, httpOptions: { baseUrl: gw.url } });
    const config = { tools: [{ functionDeclarations: [{ name: 'get_weather', parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } } } }] }] };
    const first = await ai.models.generateContent({ model: 'gemini-test', contents: 'weather in Paris?', config });
    const call = first.functionCalls![0]!;
    const result = { temperature: 18, unit: 'C', conditions: ['cloudy'] };
    const second = await ai.models.generateContent({
      model: 'gemini-test',
      config,
      contents: [{ role: 'user', parts: [{ text: 'weather in Paris?' }] }, first.candidates![0]!.content!, { role: 'user', parts: [{ functionResponse: { name: call.name!, response: result } }] }],
    });
    expect(second.text).toBe('It is 18 degrees.');
    const last = mock.requests.at(-1)!.request!.messages.at(-1)!;
    expect(last).toMatchObject({ role: 'tool' });
    expect(JSON.parse((last as { content: string }).content)).toEqual(result);
  });
});
