/**
 * The official SDKs (openai, @anthropic-ai/sdk, @google/genai) against the mock server for their
 * own protocol, over 127.0.0.1: text, streaming, a tool-call round and an error. Their own parsers
 * must accept every byte the mock writes, and what they send is recorded as the spec reads it.
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../node/index.js';
import { SDK_KEY, WEATHER, script } from '../helpers/sdk-drivers.js';

const KEY = SDK_KEY;

describe('openai SDK → Chat Completions mock', () => {
  let mock: MockServer;
  let client: OpenAI;
  beforeAll(async () => {
    mock = await createMockServer({ provider: 'openai-chat', apiKey: KEY, script: script() });
    client = new OpenAI({ apiKey: KEY, baseURL: mock.url, maxRetries: 0 });
  });
  afterAll(() => mock.close());

  it('text', async () => {
    const r = await client.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] });
    expect(r.choices[0]!.message.content).toBe('Hello there, this is the mock speaking.');
    expect(r.choices[0]!.finish_reason).toBe('stop');
    expect(r.usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 8, total_tokens: 20 });
    expect(mock.requests.at(-1)!.request!.messages).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it('stream, with the SDK stream helper', async () => {
    const stream = client.chat.completions.stream({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }], stream_options: { include_usage: true } });
    const deltas: string[] = [];
    stream.on('content', (d) => deltas.push(d));
    const final = await stream.finalChatCompletion();
    expect(deltas.join('')).toBe('Hello there, this is the mock speaking.');
    expect(deltas.length).toBeGreaterThan(1);
    expect(final.choices[0]!.message.content).toBe('Hello there, this is the mock speaking.');
    expect(final.usage?.total_tokens).toBe(20);
  });

  it('tools: a call, then the answer to its result', async () => {
    const tools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: WEATHER } }];
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'What is the weather in Paris?' }];
    const stream = client.chat.completions.stream({ model: 'gpt-test', messages, tools });
    const first = await stream.finalChatCompletion();
    const call = first.choices[0]!.message.tool_calls![0]!;
    expect(first.choices[0]!.finish_reason).toBe('tool_calls');
    expect(call).toMatchObject({ id: 'call_w1', type: 'function', function: { name: 'get_weather' } });
    expect(JSON.parse((call as { function: { arguments: string } }).function.arguments)).toEqual({ city: 'Paris' });
    messages.push(first.choices[0]!.message, { role: 'tool', tool_call_id: call.id, content: '18C' });
    const second = await client.chat.completions.create({ model: 'gpt-test', messages, tools });
    expect(second.choices[0]!.message.content).toBe('It is 18 degrees in Paris.');
    const recorded = mock.requests.at(-1)!.request!;
    expect(recorded.tools).toEqual([{ name: 'get_weather', parameters: WEATHER }]);
    expect(recorded.messages.at(-1)).toEqual({ role: 'tool', toolCallId: 'call_w1', content: '18C' });
  });

  it('an error in the provider shape', async () => {
    const err = await client.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'fail please' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    expect((err as InstanceType<typeof OpenAI.APIError>).status).toBe(429);
    expect((err as InstanceType<typeof OpenAI.APIError>).headers?.get('retry-after')).toBe('1');
    expect((err as { error?: { message?: string; type?: string } }).error).toMatchObject({ message: 'slow down', type: 'rate_limit_error' });
  });

  it('a wrong key is a 401 in the provider shape', async () => {
    const bad = new OpenAI({ apiKey: 'sk-wrong', baseURL: mock.url, maxRetries: 0 });
    await expect(bad.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] })).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
  });
});

describe('openai SDK → Responses mock', () => {
  let mock: MockServer;
  let client: OpenAI;
  beforeAll(async () => {
    mock = await createMockServer({ provider: 'openai-responses', apiKey: KEY, script: script() });
    client = new OpenAI({ apiKey: KEY, baseURL: mock.url, maxRetries: 0 });
  });
  afterAll(() => mock.close());

  it('text', async () => {
    const r = await client.responses.create({ model: 'gpt-test', input: 'hi' });
    expect(r.output_text).toBe('Hello there, this is the mock speaking.');
    expect(r.status).toBe('completed');
  });

  it('stream, with the SDK stream helper', async () => {
    const stream = client.responses.stream({ model: 'gpt-test', input: [{ role: 'user', content: 'hi' }] });
    const deltas: string[] = [];
    stream.on('response.output_text.delta', (e) => deltas.push(e.delta));
    const final = await stream.finalResponse();
    expect(deltas.join('')).toBe('Hello there, this is the mock speaking.');
    expect(final.output_text).toBe('Hello there, this is the mock speaking.');
    expect(final.usage?.input_tokens).toBe(12);
  });

  it('tools: a call, then the answer to its result', async () => {
    const tools = [{ type: 'function' as const, name: 'get_weather', parameters: WEATHER, strict: false }];
    const first = await client.responses.create({ model: 'gpt-test', input: 'What is the weather in Paris?', tools });
    const call = first.output.find((o) => o.type === 'function_call');
    expect(call).toMatchObject({ type: 'function_call', call_id: 'call_w1', name: 'get_weather' });
    const second = await client.responses.create({
      model: 'gpt-test',
      tools,
      input: [{ role: 'user', content: 'What is the weather in Paris?' }, ...(first.output as OpenAI.Responses.ResponseInputItem[]), { type: 'function_call_output', call_id: 'call_w1', output: '18C' }],
    });
    expect(second.output_text).toBe('It is 18 degrees in Paris.');
  });

  it('an error in the provider shape', async () => {
    await expect(client.responses.create({ model: 'gpt-test', input: 'fail please' })).rejects.toBeInstanceOf(OpenAI.RateLimitError);
  });
});

describe('@anthropic-ai/sdk → Messages mock', () => {
  let mock: MockServer;
  let client: Anthropic;
  beforeAll(async () => {
    mock = await createMockServer({ provider: 'anthropic-messages', apiKey: KEY, script: script() });
    client = new Anthropic({ apiKey: KEY, baseURL: mock.url, maxRetries: 0 });
  });
  afterAll(() => mock.close());

  it('text, with thinking', async () => {
    const r = await client.messages.create({ model: 'claude-test', max_tokens: 256, messages: [{ role: 'user', content: 'hi' }] });
    expect(r.content.map((b) => b.type)).toEqual(['thinking', 'text']);
    expect(r.content[1]).toMatchObject({ type: 'text', text: 'Hello there, this is the mock speaking.' });
    expect(r.content[0]).toMatchObject({ type: 'thinking', thinking: 'A greeting is due.', signature: 'sig-abc' });
    expect(r.stop_reason).toBe('end_turn');
    expect(r.usage).toMatchObject({ input_tokens: 12, output_tokens: 8 });
  });

  it('stream, with the SDK stream helper', async () => {
    const stream = client.messages.stream({ model: 'claude-test', max_tokens: 256, messages: [{ role: 'user', content: 'hi' }] });
    const deltas: string[] = [];
    stream.on('text', (d) => deltas.push(d));
    const final = await stream.finalMessage();
    expect(deltas.join('')).toBe('Hello there, this is the mock speaking.');
    expect(final.content[0]).toMatchObject({ type: 'thinking', thinking: 'A greeting is due.', signature: 'sig-abc' });
    expect(final.usage.output_tokens).toBe(8);
  });

  it('tools: a call, then the answer to its result', async () => {
    const tools = [{ name: 'get_weather', input_schema: WEATHER }];
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'What is the weather in Paris?' }];
    const first = await client.messages.stream({ model: 'claude-test', max_tokens: 256, messages, tools }).finalMessage();
    expect(first.stop_reason).toBe('tool_use');
    expect(first.content[0]).toMatchObject({ type: 'tool_use', id: 'call_w1', name: 'get_weather', input: { city: 'Paris' } });
    messages.push({ role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_w1', content: '18C' }] });
    const second = await client.messages.create({ model: 'claude-test', max_tokens: 256, messages, tools });
    expect(second.content[0]).toMatchObject({ type: 'text', text: 'It is 18 degrees in Paris.' });
  });

  it('an error in the provider shape', async () => {
    const err = await client.messages.create({ model: 'claude-test', max_tokens: 10, messages: [{ role: 'user', content: 'fail please' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.RateLimitError);
    expect((err as { error?: unknown }).error).toMatchObject({ type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } });
  });
});

describe('@google/genai → Gemini mock', () => {
  let mock: MockServer;
  let ai: GoogleGenAI;
  beforeAll(async () => {
    mock = await createMockServer({ provider: 'gemini', apiKey: KEY, script: script() });
    ai = new GoogleGenAI({ apiKey: KEY, httpOptions: { baseUrl: mock.url } });
  });
  afterAll(() => mock.close());

  it('text', async () => {
    const r = await ai.models.generateContent({ model: 'gemini-test', contents: 'hi' });
    expect(r.text).toBe('Hello there, this is the mock speaking.');
    expect(r.candidates?.[0]?.finishReason).toBe('STOP');
    expect(r.usageMetadata?.promptTokenCount).toBe(12);
  });

  it('stream', async () => {
    const stream = await ai.models.generateContentStream({ model: 'gemini-test', contents: 'hi' });
    let text = '';
    let chunks = 0;
    for await (const chunk of stream) {
      text += chunk.text ?? '';
      chunks++;
    }
    expect(text).toBe('Hello there, this is the mock speaking.');
    expect(chunks).toBeGreaterThan(2);
    expect(mock.requests.at(-1)!.stream).toBe(true);
  });

  it('tools: a call, then the answer to its result', async () => {
    const config = { tools: [{ functionDeclarations: [{ name: 'get_weather', parametersJsonSchema: WEATHER }] }] };
    const first = await ai.models.generateContent({ model: 'gemini-test', contents: 'What is the weather in Paris?', config });
    expect(first.functionCalls?.[0]).toMatchObject({ name: 'get_weather', args: { city: 'Paris' } });
    // Gemini results go back by name; the mock reads them as the answer to the call of that name.
    const script2 = mock.requests.length;
    const second = await ai.models.generateContent({
      model: 'gemini-test',
      config,
      contents: [
        { role: 'user', parts: [{ text: 'What is the weather in Paris?' }] },
        first.candidates![0]!.content!,
        { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { output: '18C' } } }] },
      ],
    });
    expect(mock.requests.length).toBe(script2 + 1);
    const recorded = mock.requests.at(-1)!.request!;
    expect(recorded.messages.at(-1)).toMatchObject({ role: 'tool', toolName: 'get_weather', content: '18C' });
    expect(second.text).toBeDefined();
  });

  it('an error in the provider shape', async () => {
    const err = await ai.models.generateContent({ model: 'gemini-test', contents: 'fail please' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(String((err as Error).message)).toContain('slow down');
    expect((err as { status?: number }).status).toBe(429);
  });
});
