/**
 * The bridge's behaviour with the real `ai` package: errors (a 429 and a 400 as APICallError with
 * wireforge's typed error as cause, and maxRetries meaning exactly that many HTTP requests),
 * abort, structured output with Output.object and zod, createProviderRegistry and NoSuchModelError,
 * the UI message stream read back with the AI SDK's own reader, and wireforge's fidelity warnings
 * as V4 warnings. Every server is a mock on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import {
  APICallError,
  createProviderRegistry,
  generateText,
  jsonSchema,
  NoSuchModelError,
  Output,
  parseJsonEventStream,
  readUIMessageStream,
  streamText,
  uiMessageChunkSchema,
  type UIMessage,
  type UIMessageChunk,
} from 'ai';
import { z } from 'zod';
import { createMockServer, type MockServer } from '../../node/index.js';
import { createWireforgeProvider, languageModel, type LanguageModelOptions } from '../../ai-sdk/index.js';
import { ProviderError } from '../../runtime/errors.js';
import { quietAiSdkWarnings } from '../helpers/ai-sdk-quiet.js';

quietAiSdkWarnings();

const KEY = 'sk-bridge-behaviour-0123456789';

describe('errors and retries', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await createMockServer({
      provider: 'openai-chat',
      apiKey: KEY,
      script: [
        { when: { lastUserText: 'rate' }, fault: { status: 429, message: 'slow down', retryAfter: 0 }, times: 1 },
        { when: { lastUserText: 'bad' }, fault: { status: 400, message: 'messages must not be empty' } },
        { reply: { text: 'fine' } },
      ],
    });
  });
  afterAll(() => mock.close());
  const model = () => languageModel('openai-chat', { model: 'gpt-x', apiKey: KEY, baseUrl: mock.url });

  it('a 400 is an APICallError with the status, the body and the typed error as cause; never retried', async () => {
    const before = mock.requests.length;
    const error = await generateText({ model: model(), prompt: 'bad request', maxRetries: 2 }).catch((e: unknown) => e);
    expect(APICallError.isInstance(error)).toBe(true);
    const e = error as APICallError;
    expect(e.statusCode).toBe(400);
    expect(e.isRetryable).toBe(false);
    expect(e.responseBody).toContain('messages must not be empty');
    expect(e.cause).toBeInstanceOf(ProviderError);
    expect(e.url).toBe(`${mock.url}/chat/completions`);
    expect(e.message).not.toContain(KEY);
    expect(mock.requests.length - before).toBe(1);
  });

  it('a 429 with maxRetries 0 is exactly one HTTP request, retryable', async () => {
    const before = mock.requests.length;
    const error = await generateText({ model: model(), prompt: 'rate me', maxRetries: 0 }).catch((e: unknown) => e);
    expect(APICallError.isInstance(error)).toBe(true);
    expect((error as APICallError).statusCode).toBe(429);
    expect((error as APICallError).isRetryable).toBe(true);
    expect(mock.requests.length - before).toBe(1);
  });

  it('retries do not stack: the AI SDK retry is the only one', async () => {
    const mock2 = await createMockServer({ provider: 'anthropic-messages', apiKey: KEY, script: [{ fault: { status: 529, message: 'overloaded', retryAfter: 0 }, times: 1 }, { reply: { text: 'after the retry' } }] });
    try {
      const r = await generateText({ model: languageModel('anthropic-messages', { model: 'c', apiKey: KEY, baseUrl: mock2.url }), prompt: 'hi', maxRetries: 1 });
      expect(r.text).toBe('after the retry');
      expect(mock2.requests).toHaveLength(2);
    } finally {
      await mock2.close();
    }
  });
});

describe('abort', () => {
  it('aborting streamText cancels the request: the server sees the client go, no further text arrives', async () => {
    const long = 'word '.repeat(400);
    const mock = await createMockServer({ provider: 'anthropic-messages', apiKey: KEY, chunk: 5, delayMs: 5, script: [{ reply: { text: long } }] });
    try {
      const controller = new AbortController();
      const r = streamText({ model: languageModel('anthropic-messages', { model: 'c', apiKey: KEY, baseUrl: mock.url }), prompt: 'go', abortSignal: controller.signal, maxRetries: 0 });
      let text = '';
      let aborted = false;
      for await (const p of r.fullStream) {
        if (p.type === 'text-delta') {
          text += p.text;
          if (text.length >= 20) controller.abort();
        }
        if (p.type === 'abort') aborted = true;
      }
      expect(aborted).toBe(true);
      expect(text.length).toBeLessThan(long.length);
      await expect.poll(() => mock.requests[0]?.aborted).toBe(true);
    } finally {
      await mock.close();
    }
  });
});

describe('structured output', () => {
  const Weather = z.object({ city: z.string(), temperature: z.number(), sky: z.enum(['sunny', 'cloudy']) });
  const value = { city: 'Paris', temperature: 18, sky: 'sunny' };
  it.each(['openai-chat', 'openai-responses', 'gemini'])('%s: Output.object with a zod schema, the schema sent as the wire\'s JSON mode', async (provider) => {
    const mock = await createMockServer({ provider, apiKey: KEY, script: [{ reply: { text: JSON.stringify(value) } }] });
    try {
      const r = await generateText({ model: languageModel(provider, { model: 'm', apiKey: KEY, baseUrl: mock.url }), prompt: 'weather?', output: Output.object({ schema: Weather }), maxRetries: 0 });
      expect(r.output).toEqual(value);
      const sent = JSON.stringify(mock.requests[0]!.body);
      // The wire carries the schema (each spec puts it where its API wants it).
      expect(sent).toContain('"sky"');
      expect(sent).toContain('"cloudy"');
    } finally {
      await mock.close();
    }
  });
});

describe('options', () => {
  it("every createClient option but telemetry (the AI SDK's experimental_telemetry traces the call)", () => {
    expectTypeOf<LanguageModelOptions>().toHaveProperty('baseUrl');
    expectTypeOf<LanguageModelOptions>().toHaveProperty('maxRetries');
    expectTypeOf<LanguageModelOptions>().not.toHaveProperty('telemetry');
    // @ts-expect-error: left out of the type
    const untyped: LanguageModelOptions = { model: 'm', telemetry: {} };
    void untyped; // checked by the type-check (pnpm typecheck), as the expectTypeOf lines are
  });
});

describe('providers', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await createMockServer({ provider: 'gemini', apiKey: KEY, script: [{ reply: { text: 'from the registry' } }] });
  });
  afterAll(() => mock.close());

  it('createWireforgeProvider in createProviderRegistry: ids split at the first slash', async () => {
    const wf = createWireforgeProvider({ clients: { gemini: { apiKey: KEY, baseUrl: mock.url } } });
    const registry = createProviderRegistry({ wf });
    const model = registry.languageModel('wf:gemini/gemini-x');
    expect(model.modelId).toBe('gemini-x');
    expect(model.provider).toBe('wireforge.gemini');
    const r = await generateText({ model, prompt: 'hi', maxRetries: 0 });
    expect(r.text).toBe('from the registry');
    expect(mock.requests.at(-1)!.path).toContain('/models/gemini-x:generateContent');
  });

  it('an unknown spec id, a missing model and other model kinds are NoSuchModelError', () => {
    const wf = createWireforgeProvider();
    expect(() => wf('acme/m')).toThrow(NoSuchModelError);
    expect(() => wf('gemini')).toThrow(NoSuchModelError);
    expect(() => wf.imageModel('gemini/x')).toThrow(NoSuchModelError);
    expect(() => wf.embeddingModel('gemini/x')).toThrow(NoSuchModelError);
    expect(wf('openai-chat/gpt-x/2026').modelId).toBe('gpt-x/2026');
  });
});

describe('UI message stream', () => {
  it('toUIMessageStreamResponse, read back with the AI SDK\'s own reader: reasoning and text parts', async () => {
    const mock = await createMockServer({ provider: 'anthropic-messages', apiKey: KEY, script: [{ reply: { thinking: { text: 'Short thought.', signature: 'sig-ui-1' }, text: 'The answer.' } }] });
    try {
      const r = streamText({ model: languageModel('anthropic-messages', { model: 'c', apiKey: KEY, baseUrl: mock.url }), prompt: 'q', maxRetries: 0 });
      const response = r.toUIMessageStreamResponse({ sendReasoning: true });
      expect(response.headers.get('content-type')).toContain('text/event-stream');
      const chunks = parseJsonEventStream({ stream: response.body!, schema: uiMessageChunkSchema }).pipeThrough(
        new TransformStream({ transform: (p, c) => (p.success ? c.enqueue(p.value as UIMessageChunk) : c.error(p.error)) }),
      );
      let last: UIMessage | undefined;
      for await (const m of readUIMessageStream({ stream: chunks })) last = m;
      const parts = last!.parts.filter((p) => p.type === 'text' || p.type === 'reasoning') as Array<{ type: string; text: string }>;
      expect(parts).toEqual([
        expect.objectContaining({ type: 'reasoning', text: 'Short thought.' }),
        expect.objectContaining({ type: 'text', text: 'The answer.' }),
      ]);
    } finally {
      await mock.close();
    }
  });
});

describe('warnings', () => {
  it('options the unified request has no field for, and wireforge\'s fidelity warnings, are V4 warnings', async () => {
    const mock = await createMockServer({ provider: 'anthropic-messages', apiKey: KEY, script: [{ reply: { text: 'ok' } }] });
    try {
      const r = await generateText({ model: languageModel('anthropic-messages', { model: 'c', apiKey: KEY, baseUrl: mock.url }), prompt: 'q', seed: 7, frequencyPenalty: 0.5, maxRetries: 0 });
      const features = r.warnings!.map((w) => ('feature' in w ? w.feature : w.type));
      expect(features).toContain('seed');
      expect(features).toContain('frequencyPenalty');
      expect(JSON.stringify(mock.requests[0]!.body)).not.toContain('seed');
    } finally {
      await mock.close();
    }
  });
});

describe('streamed tool calls after text', () => {
  it('each call keeps its own id and input (a stream index is the wire block, not the position among calls)', async () => {
    const mock = await createMockServer({
      provider: 'anthropic-messages',
      apiKey: KEY,
      script: [{ reply: { text: 'Looking both up.', toolCalls: [{ id: 'toolu_a', name: 'lookup', arguments: { q: 'first' } }, { id: 'toolu_b', name: 'lookup', arguments: { q: 'second' } }] } }],
    });
    try {
      const r = streamText({ model: languageModel('anthropic-messages', { model: 'c', apiKey: KEY, baseUrl: mock.url }), prompt: 'q', tools: { lookup: { inputSchema: jsonSchema({ type: 'object' }) } }, maxRetries: 0 });
      const calls = (await r.toolCalls).map((c) => [c.toolCallId, c.input]);
      expect(calls).toEqual([
        ['toolu_a', { q: 'first' }],
        ['toolu_b', { q: 'second' }],
      ]);
    } finally {
      await mock.close();
    }
  });
});
