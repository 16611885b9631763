/**
 * Request forms the real APIs accept, read back by the server side (decode-request.ts): Anthropic
 * `system: []` and history carrying server-tool blocks and their results (this library's own
 * client sending back its own `res.message` must get 200 from its own mock); Gemini function
 * results whose `response` is any object, and turns of the older role `function`. Bodies written
 * from the documented shapes (docs/wire-facts.md#anthropic-server-tools, #gemini-request).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adapters, createClient, type Message } from '../../generated/index.js';
import { decodeRequest, serves } from '../../generated/serve.js';
import { createMockServer, startGateway, type MockServer } from '../../node/index.js';

const decode = (id: keyof typeof adapters, body: unknown, path = '') => decodeRequest(adapters[id], serves[id], body, path).request;
const GEMINI_PATH = '/models/g:generateContent';

const SEARCH = { type: 'server_tool_use', id: 'srvtoolu_01A', name: 'web_search', input: { query: 'tide times Brest' } };
const SEARCH_RESULT = { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_01A', content: [{ type: 'web_search_result', url: 'https://tides.example/brest', title: 'Brest tides', encrypted_content: 'enc-brest-1', page_age: '2 hours' }] };
const CODE = { type: 'server_tool_use', id: 'srvtoolu_01B', name: 'code_execution', input: { code: 'print(6*7)' } };
const CODE_RESULT = { type: 'code_execution_tool_result', tool_use_id: 'srvtoolu_01B', content: { type: 'code_execution_result', stdout: '42\n', stderr: '', return_code: 0, content: [] } };
const ADVISOR = { type: 'server_tool_use', id: 'srvtoolu_01C', name: 'advisor', input: {} };
const ADVICE = { type: 'advisor_tool_result', tool_use_id: 'srvtoolu_01C', content: { type: 'advisor_result', text: 'Check the tide tables first.' } };

describe('Anthropic: what the API takes', () => {
  it('system: [] is no system text; a list of text blocks still joins', () => {
    const none = decode('anthropic-messages', { model: 'c', max_tokens: 10, system: [], messages: [{ role: 'user', content: 'hi' }] });
    expect(none.system).toBeUndefined();
    expect(none.messages).toEqual([{ role: 'user', content: 'hi' }]);
    const two = decode('anthropic-messages', { model: 'c', max_tokens: 10, system: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }], messages: [{ role: 'user', content: 'hi' }] });
    expect(two.system).toBe('a\n\nb');
  });

  it('history with server-tool calls and results: the blocks are kept in their place, text and calls read as usual', () => {
    const r = decode('anthropic-messages', {
      model: 'c',
      max_tokens: 10,
      messages: [
        { role: 'user', content: 'When is high tide in Brest?' },
        { role: 'assistant', content: [{ type: 'text', text: 'Searching.' }, SEARCH, SEARCH_RESULT, CODE, CODE_RESULT, ADVISOR, ADVICE, { type: 'text', text: 'At 06:12.' }] },
        { role: 'user', content: 'Thanks' },
      ],
    });
    const a = r.messages[1] as Extract<Message, { role: 'assistant' }>;
    expect(a.content).toBe('Searching.At 06:12.');
    expect(a.parts).toEqual([
      { type: 'text', text: 'Searching.' },
      ...[SEARCH, SEARCH_RESULT, CODE, CODE_RESULT, ADVISOR, ADVICE].map((b) => ({ type: 'opaque', kind: b.type, value: b, wire: b })),
      { type: 'text', text: 'At 06:12.' },
    ]);
  });

  it('a block of a kind Anthropic does not send is still refused, naming where', () => {
    expect(() => decode('anthropic-messages', { model: 'c', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: [{ type: 'holo_gram', x: 1 }] }] })).toThrow(/messages\[1\]/);
  });
});

describe('loopback: the client sends its own res.message back to its own mock', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await createMockServer({
      provider: 'anthropic-messages',
      // Each step answers one request, in order: the chat test's two turns, then the stream test's.
      script: [
        { times: 1, reply: { parts: [SEARCH, SEARCH_RESULT, ADVISOR, ADVICE], text: 'High tide is at 06:12.' } },
        { times: 1, reply: { text: 'You are welcome.' } },
        { times: 1, reply: { parts: [CODE, CODE_RESULT], text: '42' } },
        { times: 1, reply: { text: 'Yes.' } },
      ],
    });
  });
  afterAll(() => mock.close());

  it.each(['chat', 'stream'] as const)('a turn with server-tool blocks goes back and is answered 200 (%s)', async (mode) => {
    const client = createClient('anthropic-messages', { apiKey: 'k-0000000001', baseUrl: mock.url, model: 'claude-test', maxRetries: 0 });
    const first = { messages: [{ role: 'user' as const, content: mode === 'chat' ? 'High tide in Brest?' : 'What is 6 × 7?' }] };
    const r1 = mode === 'chat' ? await client.chat(first) : await client.stream(first).final();
    expect(r1.content.some((p) => p.type === 'provider-tool-result')).toBe(true);
    const second = { messages: [...first.messages, r1.message, { role: 'user' as const, content: 'Thanks' }] };
    const r2 = mode === 'chat' ? await client.chat(second) : await client.stream(second).final();
    expect(r2.text).toBe(mode === 'chat' ? 'You are welcome.' : 'Yes.');
    // The blocks went back as they came, in their place.
    const sent = mock.requests.at(-1)!.body as { messages: Array<{ content: unknown }> };
    const blocks = sent.messages[1]!.content as Array<{ type: string }>;
    expect(blocks.filter((b) => b.type !== 'text')).toEqual(mode === 'chat' ? [SEARCH, SEARCH_RESULT, ADVISOR, ADVICE] : [CODE, CODE_RESULT]);
  });
});

describe('Gemini: what the API takes', () => {
  const call = { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] };
  const ask = { role: 'user', parts: [{ text: 'Weather in Paris?' }] };
  const resultOf = (role: string, response: unknown) => decode('gemini', { contents: [ask, call, { role, parts: [{ functionResponse: { name: 'get_weather', response } }] }] }, GEMINI_PATH).messages.at(-1);

  it.each([
    ['{name, content} (the AI SDK’s shape)', { name: 'get_weather', content: [{ type: 'text', text: '18 °C' }] }],
    ['a plain object of fields', { temperature: 18, unit: 'C' }],
    ['{output} with another key beside it', { output: '18', source: 'station 7' }],
  ])('a response that is %s is the output as a whole (its JSON text)', (_, response) => {
    expect(resultOf('user', response)).toEqual({ role: 'tool', toolCallId: 'call_1_0', toolName: 'get_weather', content: JSON.stringify(response) });
  });

  it('{output}, {result} and {error} keep their meaning', () => {
    expect(resultOf('user', { output: '18 °C' })).toMatchObject({ content: '18 °C' });
    expect(resultOf('user', { output: '18 °C' })).not.toHaveProperty('isError');
    expect(resultOf('user', { result: '18 °C' })).toMatchObject({ content: '18 °C' });
    expect(resultOf('user', { error: 'station offline' })).toMatchObject({ content: 'station offline', isError: true });
  });

  it('results in a turn of the older role "function"', () => {
    expect(resultOf('function', { output: '18 °C' })).toEqual({ role: 'tool', toolCallId: 'call_1_0', toolName: 'get_weather', content: '18 °C' });
    expect(resultOf('function', { result: '18 °C' })).toMatchObject({ role: 'tool', content: '18 °C' });
    expect(resultOf('function', { temperature: 18 })).toMatchObject({ role: 'tool', content: '{"temperature":18}' });
    expect(resultOf('function', { error: 'station offline' })).toMatchObject({ role: 'tool', content: 'station offline', isError: true });
  });

  it('the mock answers such a request 200', async () => {
    const mock = await createMockServer({ provider: 'gemini', script: [{ reply: { text: 'It is 18 °C.' } }] });
    try {
      const res = await fetch(`${mock.url}/models/gemini-test:generateContent`, {
        method: 'POST',
        headers: { 'x-goog-api-key': 'k-0000000001', 'content-type': 'application/json' },
        body: JSON.stringify({ contents: [ask, call, { role: 'function', parts: [{ functionResponse: { name: 'get_weather', response: { name: 'get_weather', content: { temp: 18 } } } }] }] }),
      });
      expect(res.status).toBe(200);
      expect(mock.requests[0]!.request!.messages.at(-1)).toMatchObject({ role: 'tool', toolName: 'get_weather', content: '{"name":"get_weather","content":{"temp":18}}' });
    } finally {
      await mock.close();
    }
  });
});

describe('loopback (Gemini): a code-execution turn goes back to its own mock', () => {
  const CODE_PART = { executableCode: { language: 'PYTHON', code: 'print(6 * 7)' } };
  const CODE_RESULT_PART = { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '42\n' } };

  it('the client’s res.message with executableCode / codeExecutionResult parts is answered 200, the parts sent back in place', async () => {
    const mock = await createMockServer({ provider: 'gemini', script: [{ times: 1, reply: { parts: [CODE_PART, CODE_RESULT_PART], text: 'It is 42.' } }, { times: 1, reply: { text: 'Glad to help.' } }] });
    try {
      const client = createClient('gemini', { apiKey: 'k-0000000001', baseUrl: mock.url, model: 'gemini-test', maxRetries: 0 });
      const first = { messages: [{ role: 'user' as const, content: 'What is 6 × 7? Run code.' }] };
      const r1 = await client.chat(first);
      expect(r1.content.map((p) => p.type)).toEqual(['provider-tool-call', 'provider-tool-result', 'text']);
      const r2 = await client.chat({ messages: [...first.messages, r1.message, { role: 'user', content: 'Thanks' }] });
      expect(r2.text).toBe('Glad to help.');
      const sent = mock.requests.at(-1)!.body as { contents: Array<{ role: string; parts: unknown[] }> };
      expect(sent.contents[1]!.parts.slice(0, 2)).toEqual([CODE_PART, CODE_RESULT_PART]);
      expect(mock.requests.at(-1)!.request!.messages[1]).toMatchObject({ role: 'assistant', content: 'It is 42.' });
    } finally {
      await mock.close();
    }
  });

  it('a model part of no kind Gemini sends is still refused', () => {
    expect(() => decode('gemini', { contents: [{ role: 'user', parts: [{ text: 'x' }] }, { role: 'model', parts: [{ hologram: { x: 1 } }] }] }, GEMINI_PATH)).toThrow(/contents\[1\]/);
  });
});

describe('through the gateway', () => {
  it('Anthropic → Anthropic: history with server-tool blocks reaches upstream as it came', async () => {
    const upstream = await createMockServer({ provider: 'anthropic-messages', script: [{ reply: { text: 'You are welcome.' } }] });
    const gw = await startGateway({ listen: 'anthropic-messages', upstream: 'anthropic-messages', clientToken: 'gw-token-123456789', client: { apiKey: 'k-0000000001', baseUrl: upstream.url, maxRetries: 0 } });
    try {
      const history = [{ type: 'text', text: 'Searching.' }, SEARCH, SEARCH_RESULT, { type: 'text', text: 'At 06:12.' }];
      const res = await fetch(`${gw.url}/messages`, {
        method: 'POST',
        headers: { 'x-api-key': 'gw-token-123456789', 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'claude-test', max_tokens: 50, system: [], messages: [{ role: 'user', content: 'High tide?' }, { role: 'assistant', content: history }, { role: 'user', content: 'Thanks' }] }),
      });
      expect(res.status).toBe(200);
      const sent = upstream.requests[0]!.body as { messages: Array<{ content: unknown }>; system?: unknown };
      expect(sent.messages[1]!.content).toEqual(history);
    } finally {
      await gw.close();
      await upstream.close();
    }
  });

  it('Gemini → Chat Completions: a role "function" result of any object shape goes upstream as the tool message', async () => {
    const upstream = await createMockServer({ provider: 'openai-chat', script: [{ reply: { text: 'It is 18 °C.' } }] });
    const gw = await startGateway({ listen: 'gemini', upstream: 'openai-chat', clientToken: 'gw-token-123456789', client: { apiKey: 'k-0000000001', baseUrl: upstream.url, maxRetries: 0 } });
    try {
      const call = { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] };
      const res = await fetch(`${gw.url}/models/gpt-test:generateContent`, {
        method: 'POST',
        headers: { 'x-goog-api-key': 'gw-token-123456789', 'content-type': 'application/json' },
        body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Weather in Paris?' }] }, call, { role: 'function', parts: [{ functionResponse: { name: 'get_weather', response: { temperature: 18, unit: 'C' } } }] }] }),
      });
      expect(res.status).toBe(200);
      const sent = upstream.requests[0]!.body as { messages: Array<Record<string, unknown>> };
      expect(sent.messages.at(-1)).toMatchObject({ role: 'tool', content: '{"temperature":18,"unit":"C"}' });
    } finally {
      await gw.close();
      await upstream.close();
    }
  });
});
