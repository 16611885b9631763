/**
 * What the mock server writes, field by field, against the providers' documented 2026 bodies
 * (docs/wire-facts.md: "served bodies" of each wire). Expected values are written here from those
 * formats, not read from the specs: a field the API always sends is there, null where the API
 * sends null; a response echoes the request's settings; a stream's last word is the blocking body.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../node/index.js';
import { sseEvents } from '../helpers/frame-stream.js';

type Json = Record<string, any>;

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: Json; events: Json[] }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer k-served-0001', 'x-api-key': 'k-served-0001', ...headers }, body: JSON.stringify(body) });
  const text = await res.text();
  if ((res.headers.get('content-type') ?? '').includes('event-stream')) {
    return { status: res.status, json: {}, events: sseEvents(text).filter((e) => e.data !== '[DONE]').map((e) => JSON.parse(e.data) as Json) };
  }
  return { status: res.status, json: JSON.parse(text) as Json, events: [] };
}

const USAGE = { inputTokens: 40, outputTokens: 12, cachedInputTokens: 8, reasoningTokens: 4 };

describe('OpenAI Responses: the whole response object', () => {
  let mock: MockServer;
  const url = () => `${mock.url}/responses`;
  beforeAll(async () => {
    mock = await createMockServer({
      provider: 'openai-responses',
      script: [
        { when: { lastUserText: 'weather' }, reply: { text: 'Checking.', toolCalls: [{ id: 'call_w1', name: 'get_weather', arguments: { city: 'Paris' } }], usage: USAGE } },
        { when: { lastUserText: 'long' }, reply: { text: 'Cut', finishReason: 'length' } },
        { when: { lastUserText: 'broken' }, reply: { text: '', finishReason: 'error' } },
        { when: { lastUserText: 'think' }, reply: { thinking: { text: 'Weighing it.', signature: 'enc-1' }, text: 'Done.' } },
        { reply: { text: 'Hello there.', usage: USAGE } },
      ],
    });
  });
  afterAll(() => mock.close());

  it('a request with no settings: every field, with the values the API fills in', async () => {
    const { status, json } = await post(url(), { model: 'gpt-test', input: 'hi' });
    expect(status).toBe(200);
    const { output, id, ...rest } = json;
    expect(id).toEqual(expect.any(String));
    expect(rest).toEqual({
      object: 'response',
      created_at: expect.any(Number),
      status: 'completed',
      completed_at: json.created_at,
      error: null,
      incomplete_details: null,
      instructions: null,
      model: 'gpt-test',
      parallel_tool_calls: true,
      previous_response_id: null,
      reasoning: { effort: null, summary: null },
      store: true,
      temperature: 1,
      text: { format: { type: 'text' }, verbosity: 'medium' },
      tool_choice: 'auto',
      tools: [],
      top_p: 1,
      presence_penalty: 0,
      frequency_penalty: 0,
      top_logprobs: 0,
      truncation: 'disabled',
      max_output_tokens: null,
      max_tool_calls: null,
      background: false,
      service_tier: 'default',
      safety_identifier: null,
      prompt_cache_key: null,
      user: null,
      metadata: {},
      usage: { input_tokens: 40, input_tokens_details: { cached_tokens: 8 }, output_tokens: 12, output_tokens_details: { reasoning_tokens: 4 }, total_tokens: 52 },
    });
    expect(output).toEqual([{ id: expect.any(String), type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Hello there.', annotations: [], logprobs: [] }] }]);
  });

  it('the request settings come back as they were sent', async () => {
    const tools = [{ type: 'function', name: 'get_weather', description: 'Weather by city', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: true }];
    const sent = {
      model: 'gpt-test',
      input: 'weather in Paris?',
      instructions: 'Be brief.',
      tools,
      tool_choice: 'required',
      parallel_tool_calls: false,
      temperature: 0.2,
      top_p: 0.9,
      max_output_tokens: 256,
      max_tool_calls: 3,
      reasoning: { effort: 'low', summary: 'auto' },
      text: { format: { type: 'json_object' }, verbosity: 'low' },
      truncation: 'auto',
      store: false,
      metadata: { run: 'r1' },
      previous_response_id: 'resp_prev',
      prompt_cache_key: 'cache-1',
      safety_identifier: 'user-hash',
      service_tier: 'flex',
      top_logprobs: 2,
    };
    const { json } = await post(url(), sent);
    for (const [k, v] of Object.entries(sent)) if (k !== 'model' && k !== 'input') expect(json[k], k).toEqual(v);
    expect(json.output.map((i: Json) => [i.type, i.status])).toEqual([['message', 'completed'], ['function_call', 'completed']]);
    expect(json.output[1]).toEqual({ id: expect.any(String), type: 'function_call', call_id: 'call_w1', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed' });
  });

  it('a response cut short is incomplete with its reason, and not completed', async () => {
    const { json } = await post(url(), { model: 'gpt-test', input: 'long story' });
    expect(json).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, completed_at: null, error: null });
  });

  it('a failed response carries an error object', async () => {
    const { json } = await post(url(), { model: 'gpt-test', input: 'broken' });
    expect(json).toMatchObject({ status: 'failed', error: { code: expect.any(String), message: expect.any(String) }, incomplete_details: null, completed_at: null });
  });

  it('a reasoning item: its summary part closes before the item, and the item is the body’s', async () => {
    const { events } = await post(url(), { model: 'gpt-test', input: 'think first', stream: true });
    const types = events.map((e) => e.type);
    expect(types.indexOf('response.reasoning_summary_part.done')).toBeGreaterThan(types.indexOf('response.reasoning_summary_text.done'));
    expect(types.indexOf('response.reasoning_summary_part.done')).toBeLessThan(types.indexOf('response.output_item.done'));
    const last = events[events.length - 1]!.response;
    expect(last.output[0]).toEqual({ id: expect.any(String), type: 'reasoning', summary: [{ type: 'summary_text', text: 'Weighing it.' }], encrypted_content: 'enc-1' });
    for (const e of events.filter((x) => x.type === 'response.output_item.done')) expect(e.item).toEqual(last.output[e.output_index]);
  });

  it('the stream: sequence numbers on every event, a created response without usage, a last word equal to the blocking body', async () => {
    const request = { model: 'gpt-test', input: 'weather in Paris?', instructions: 'Be brief.', temperature: 0.5 };
    const blocking = (await post(url(), request)).json;
    const { events } = await post(url(), { ...request, stream: true });
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    expect(events.slice(0, 2).map((e) => e.type)).toEqual(['response.created', 'response.in_progress']);
    const created = events[0]!.response;
    expect(created).toMatchObject({ status: 'in_progress', output: [], usage: null, completed_at: null, instructions: 'Be brief.', temperature: 0.5 });
    const last = events[events.length - 1]!;
    expect(last.type).toBe('response.completed');
    // The mock numbers responses: the two answers differ in their ids only.
    const renamed = JSON.parse(JSON.stringify(last.response).replaceAll(last.response.id, blocking.id));
    expect(renamed).toEqual(blocking);
    // Each output_item.done says what the final body says of that item.
    const done = events.filter((e) => e.type === 'response.output_item.done');
    expect(done).toHaveLength(2);
    for (const e of done) expect(e.item).toEqual(last.response.output[e.output_index]);
    // Every text event carries logprobs, every text part its annotations.
    for (const e of events.filter((x) => x.type === 'response.output_text.delta' || x.type === 'response.output_text.done')) expect(e.logprobs).toEqual([]);
    for (const e of events.filter((x) => x.type.startsWith('response.content_part.'))) expect(e.part).toMatchObject({ annotations: [], logprobs: [] });
  });
});

describe('Anthropic Messages', () => {
  let mock: MockServer;
  const CALL = { type: 'server_tool_use', id: 'srvtoolu_9', name: 'web_search', input: { query: 'Paris weather' } };
  const RESULT = { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_9', content: [{ type: 'web_search_result', url: 'https://w.example/p', title: 'P', encrypted_content: 'e', page_age: null }] };
  beforeAll(async () => {
    mock = await createMockServer({
      provider: 'anthropic-messages',
      script: [
        { when: { lastUserText: 'search' }, reply: { parts: [CALL, RESULT], text: 'Sunny.' } },
        { reply: { text: 'Hello.', usage: { inputTokens: 30, outputTokens: 6, cachedInputTokens: 20, cacheWriteTokens: 4 } } },
      ],
    });
  });
  afterAll(() => mock.close());
  const ask = (text: string, stream = false) => post(`${mock.url}/messages`, { model: 'claude-test', max_tokens: 100, stream, messages: [{ role: 'user', content: text }] });

  it('the body: stop_sequence, container and the full usage', async () => {
    const { json } = await ask('hi');
    expect(json).toEqual({
      id: expect.any(String),
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      content: [{ type: 'text', text: 'Hello.' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      // input_tokens leaves out cache reads and writes: 30 − 20 − 4.
      usage: { input_tokens: 6, cache_creation_input_tokens: 4, cache_read_input_tokens: 20, cache_creation: { ephemeral_5m_input_tokens: 4, ephemeral_1h_input_tokens: 0 }, output_tokens: 6, service_tier: 'standard' },
      container: null,
    });
  });

  it('message_start says the real input tokens; message_delta the body’s usage', async () => {
    const { events } = await ask('hi', true);
    const start = events[0]!;
    expect(start.type).toBe('message_start');
    expect(start.message).toMatchObject({ content: [], stop_reason: null, stop_sequence: null, container: null });
    expect(start.message.usage).toMatchObject({ input_tokens: 6, cache_read_input_tokens: 20, cache_creation_input_tokens: 4, output_tokens: 0 });
    const delta = events.find((e) => e.type === 'message_delta')!;
    expect(delta).toEqual({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: (await ask('hi')).json.usage });
  });

  it('a server-tool call streams its input as input_json_delta; its result comes whole', async () => {
    const { events } = await ask('search it', true);
    const blocks = events.filter((e) => e.index === 0);
    expect(blocks).toEqual([
      { type: 'content_block_start', index: 0, content_block: { ...CALL, input: {} } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(CALL.input) } },
      { type: 'content_block_stop', index: 0 },
    ]);
    expect(events.filter((e) => e.index === 1)).toEqual([
      { type: 'content_block_start', index: 1, content_block: RESULT },
      { type: 'content_block_stop', index: 1 },
    ]);
  });
});

describe('Chat Completions', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await createMockServer({
      provider: 'openai-chat',
      script: [
        { when: { lastUserText: 'tool' }, reply: { toolCalls: [{ id: 'call_a', name: 'a', arguments: { x: 1 } }, { id: 'call_b', name: 'b', arguments: {} }] } },
        { reply: { text: 'Hello.', usage: { inputTokens: 9, outputTokens: 3, cachedInputTokens: 2, reasoningTokens: 1 } } },
      ],
    });
  });
  afterAll(() => mock.close());
  const ask = (text: string, extra: Json = {}) => post(`${mock.url}/chat/completions`, { model: 'gpt-test', messages: [{ role: 'user', content: text }], ...extra });

  it('the body: refusal, annotations, logprobs, service_tier, system_fingerprint and the usage details', async () => {
    const { json } = await ask('hi');
    expect(json).toEqual({
      id: expect.any(String),
      object: 'chat.completion',
      created: expect.any(Number),
      model: 'gpt-test',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hello.', refusal: null, annotations: [] }, logprobs: null, finish_reason: 'stop' }],
      usage: {
        prompt_tokens: 9,
        completion_tokens: 3,
        total_tokens: 12,
        prompt_tokens_details: { cached_tokens: 2, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 1, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
      },
      service_tier: 'default',
      system_fingerprint: null,
    });
  });

  it('a text stream opens with the role and content "", every chunk with the same envelope', async () => {
    const { events } = await ask('hi', { stream: true });
    expect(events[0]!.choices[0].delta).toEqual({ role: 'assistant', content: '', refusal: null });
    for (const e of events) expect(e).toMatchObject({ object: 'chat.completion.chunk', model: 'gpt-test', service_tier: 'default', system_fingerprint: null });
    // No usage chunk unless stream_options.include_usage asks for one.
    expect(events.some((e) => 'usage' in e)).toBe(false);
  });

  it('a tool-only stream opens with content null beside its first call; the usage chunk when asked', async () => {
    const { events } = await ask('tool', { stream: true, stream_options: { include_usage: true } });
    expect(events[0]!.choices[0].delta).toEqual({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'a', arguments: '' } }], refusal: null });
    const second = events.find((e) => e.choices[0]?.delta?.tool_calls?.[0]?.index === 1)!;
    expect(second.choices[0].delta).toEqual({ tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'b', arguments: '' } }] });
    expect(events.filter((e) => e.choices.some((c: Json) => 'role' in c.delta))).toHaveLength(1);
    const last = events[events.length - 1]!;
    expect(last.choices).toEqual([]);
    expect(last.usage).toMatchObject({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 });
  });
});

describe('Gemini', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await createMockServer({ provider: 'gemini', script: [{ reply: { thinking: 'Hmm.', text: 'Hi.', usage: { inputTokens: 10, outputTokens: 8, reasoningTokens: 3, cachedInputTokens: 4 } } }] });
  });
  afterAll(() => mock.close());
  const body = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };

  it('the body: modelVersion, responseId and usageMetadata with its details', async () => {
    const { json } = await post(`${mock.url}/models/gemini-test:generateContent`, body);
    expect(json.modelVersion).toBe('gemini-test');
    expect(json.responseId).toEqual(expect.any(String));
    // Output 8 counts the 3 thought tokens: candidates are the other 5.
    expect(json.usageMetadata).toEqual({ promptTokenCount: 10, candidatesTokenCount: 5, thoughtsTokenCount: 3, cachedContentTokenCount: 4, totalTokenCount: 18, promptTokensDetails: [{ modality: 'TEXT', tokenCount: 10 }] });
  });

  it('every chunk names the model and response; the last carries the usage as the body does', async () => {
    const { events } = await post(`${mock.url}/models/gemini-test:streamGenerateContent?alt=sse`, body);
    for (const e of events) expect(e).toMatchObject({ modelVersion: 'gemini-test', responseId: expect.any(String) });
    const blocking = (await post(`${mock.url}/models/gemini-test:generateContent`, body)).json;
    expect(events[events.length - 1]!.usageMetadata).toEqual(blocking.usageMetadata);
  });
});

describe('Mistral', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await createMockServer({ provider: 'mistral', apiKey: 'k-mistral-0001', script: [{ reply: { text: 'Bonjour.', usage: { inputTokens: 7, outputTokens: 2 } } }] });
  });
  afterAll(() => mock.close());

  it('usage comes on the finish chunk; there is no usage-only chunk, no OpenAI-only chunk field', async () => {
    const { events } = await post(`${mock.url}/chat/completions`, { model: 'mistral-small-latest', stream: true, messages: [{ role: 'user', content: 'hi' }] }, { authorization: 'Bearer k-mistral-0001' });
    expect(events.every((e) => e.choices.length === 1)).toBe(true);
    const last = events[events.length - 1]!;
    expect(last.choices[0].finish_reason).toBe('stop');
    expect(last.usage).toEqual({ prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 });
    for (const e of events) {
      expect(e).not.toHaveProperty('service_tier');
      expect(e).not.toHaveProperty('system_fingerprint');
    }
  });

  it('an error is one flat object', async () => {
    const { status, json } = await post(`${mock.url}/chat/completions`, { model: 'mistral-small-latest', messages: [{ role: 'user', content: 'hi' }] }, { authorization: 'Bearer wrong-key' });
    expect(status).toBe(401);
    expect(json).toEqual({ object: 'error', message: expect.any(String), type: expect.any(String), param: null, code: null });
  });
});

describe('xAI', () => {
  it('each tool call comes whole, in one chunk of its own', async () => {
    const mock = await createMockServer({ provider: 'xai', script: [{ reply: { toolCalls: [{ id: 'call_1', name: 'f', arguments: { city: 'Paris', days: 3 } }, { id: 'call_2', name: 'g', arguments: {} }] } }] });
    try {
      const { events } = await post(`${mock.url}/chat/completions`, { model: 'grok-test', stream: true, messages: [{ role: 'user', content: 'hi' }] });
      const calls = events.filter((e) => e.choices[0]?.delta?.tool_calls);
      expect(calls.map((e) => e.choices[0].delta)).toEqual([
        { role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"city":"Paris","days":3}' } }] },
        { tool_calls: [{ index: 1, id: 'call_2', type: 'function', function: { name: 'g', arguments: '{}' } }] },
      ]);
    } finally {
      await mock.close();
    }
  });
});

describe('Mistral errors read back', () => {
  it('this library’s Mistral client reads the flat error body: message and type', async () => {
    const { createClient } = await import('../../generated/index.js');
    const mock = await createMockServer({ provider: 'mistral', script: [{ fault: { status: 429, type: 'rate_limit_error', message: 'Too many requests' } }] });
    try {
      const client = createClient('mistral', { apiKey: 'k-mistral-0001', baseUrl: mock.url, model: 'mistral-small-latest', maxRetries: 0 });
      const err = await client.chat({ messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
      expect(err).toMatchObject({ status: 429, providerMessage: 'Too many requests', type: 'rate_limit_error' });
    } finally {
      await mock.close();
    }
  });
});

describe('OpenRouter reasoning chunks', () => {
  it('reasoning streams as chunks of one choice: reasoning text and a reasoning.text detail, then the signature, then the text', async () => {
    const mock = await createMockServer({ provider: 'openrouter', script: [{ reply: { thinking: { text: 'Weighing it.', signature: 'sig-1' }, text: 'Done.' } }] });
    try {
      const { events } = await post(`${mock.url}/chat/completions`, { model: 'anthropic/claude-test', stream: true, messages: [{ role: 'user', content: 'hi' }] });
      const choices = events.filter((e) => e.choices?.length && e.choices[0].finish_reason === null).map((e) => e.choices);
      // Every chunk before the finish is one choice, as the Chat Completions chunk format writes it.
      for (const c of choices) expect(c).toEqual([{ index: 0, delta: expect.any(Object), logprobs: null, finish_reason: null }]);
      const deltas = choices.map((c) => c[0].delta);
      const reasoning = deltas.filter((d) => 'reasoning' in d);
      expect(reasoning.map((d) => d.reasoning).join('')).toBe('Weighing it.');
      for (const d of reasoning) expect(d.reasoning_details).toEqual([{ type: 'reasoning.text', text: d.reasoning, index: 0 }]);
      const signed = deltas.filter((d) => d.reasoning_details?.[0]?.signature !== undefined);
      expect(signed).toEqual([{ reasoning_details: [{ type: 'reasoning.text', text: '', signature: 'sig-1', index: 0 }] }]);
      // The signature closes the reasoning before any text is written.
      const at = (d: Json) => deltas.indexOf(d);
      expect(at(signed[0]!)).toBeGreaterThan(at(reasoning[reasoning.length - 1]!));
      expect(deltas.filter((d) => typeof d.content === 'string').map((d) => d.content).join('')).toBe('Done.');
      expect(deltas.findIndex((d) => d.content === 'Done.' || (typeof d.content === 'string' && d.content !== ''))).toBeGreaterThan(at(signed[0]!));
    } finally {
      await mock.close();
    }
  });

  it('DeepSeek reasoning chunks carry reasoning_content in the same one-choice chunk', async () => {
    const mock = await createMockServer({ provider: 'deepseek', script: [{ reply: { thinking: { text: 'Hmm.' }, text: 'Yes.' } }] });
    try {
      const { events } = await post(`${mock.url}/chat/completions`, { model: 'deepseek-reasoner', stream: true, messages: [{ role: 'user', content: 'hi' }] });
      const thinking = events.filter((e) => e.choices?.[0]?.delta?.reasoning_content !== undefined);
      expect(thinking.map((e) => e.choices[0].delta.reasoning_content).join('')).toBe('Hmm.');
      for (const e of thinking) expect(e.choices).toEqual([{ index: 0, delta: { reasoning_content: e.choices[0].delta.reasoning_content }, logprobs: null, finish_reason: null }]);
      expect(thinking[0]).toMatchObject({ object: 'chat.completion.chunk', model: 'deepseek-reasoner' });
    } finally {
      await mock.close();
    }
  });
});
