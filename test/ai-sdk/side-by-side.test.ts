/**
 * The bridge beside the official AI SDK providers (issue 25, item 4): the same mock, the same
 * script, the same AI SDK calls. Where both are right the results are equal field by field;
 * where the official provider loses something, the test shows its loss and the bridge's fidelity
 * (docs/ai-sdk.md, "Beside the official providers", lists each with its reason).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateText, jsonSchema, streamText, tool, type LanguageModel } from 'ai';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createMistral } from '@ai-sdk/mistral';
import { createOpenAI } from '@ai-sdk/openai';
import { createMockServer, type MockServer } from '../../node/index.js';
import { languageModel } from '../../ai-sdk/index.js';
import { quietAiSdkWarnings } from '../helpers/ai-sdk-quiet.js';

quietAiSdkWarnings();

const KEY = 'sk-side-by-side-0123456789';
const TEXT = 'Both providers should read this sentence the same way.';

interface Pair {
  spec: string;
  official: (baseURL: string) => LanguageModel;
}

const PAIRS: Pair[] = [
  { spec: 'anthropic-messages', official: (baseURL) => createAnthropic({ baseURL, apiKey: KEY })('claude-x') },
  { spec: 'openai-chat', official: (baseURL) => createOpenAI({ baseURL, apiKey: KEY }).chat('gpt-x') },
  { spec: 'openai-responses', official: (baseURL) => createOpenAI({ baseURL, apiKey: KEY }).responses('gpt-x') },
  { spec: 'gemini', official: (baseURL) => createGoogleGenerativeAI({ baseURL, apiKey: KEY })('gemini-x') },
  { spec: 'mistral', official: (baseURL) => createMistral({ baseURL, apiKey: KEY })('mistral-x') },
];

const lookup = tool({
  inputSchema: jsonSchema<{ city: string; days: number }>({ type: 'object', properties: { city: { type: 'string' }, days: { type: 'number' } }, required: ['city', 'days'] }),
});

/** What both must agree on. */
function seen(r: { text: string; finishReason: string; usage: { inputTokens?: number | undefined; outputTokens?: number | undefined }; toolCalls: Array<{ toolName: string; input: unknown }> }) {
  return { text: r.text, finishReason: r.finishReason, input: r.usage.inputTokens, output: r.usage.outputTokens, calls: r.toolCalls.map((c) => ({ name: c.toolName, input: c.input })) };
}

describe.each(PAIRS)('$spec: the bridge and the official provider agree', ({ spec, official }) => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await createMockServer({
      provider: spec,
      apiKey: KEY,
      script: [
        { when: { lastUserText: 'tool' }, reply: { toolCalls: [{ id: 'call_s1', name: 'lookup', arguments: { city: 'Oslo', days: 3 } }], usage: { inputTokens: 21, outputTokens: 6 } } },
        { reply: { text: TEXT, usage: { inputTokens: 17, outputTokens: 11 } } },
      ],
    });
  });
  afterAll(() => mock.close());
  const ours = () => languageModel(spec, { model: 'm-x', apiKey: KEY, baseUrl: mock.url });

  it('generateText: text, finish, usage', async () => {
    const a = await generateText({ model: ours(), prompt: 'hello', maxRetries: 0 });
    const b = await generateText({ model: official(mock.url), prompt: 'hello', maxRetries: 0 });
    expect(seen(a)).toEqual(seen(b));
    expect(seen(a)).toMatchObject({ text: TEXT, finishReason: 'stop', input: 17, output: 11 });
  });

  it('generateText: a tool call', async () => {
    const a = await generateText({ model: ours(), prompt: 'use the tool', tools: { lookup }, maxRetries: 0 });
    const b = await generateText({ model: official(mock.url), prompt: 'use the tool', tools: { lookup }, maxRetries: 0 });
    expect(seen(a)).toEqual(seen(b));
    expect(seen(a).calls).toEqual([{ name: 'lookup', input: { city: 'Oslo', days: 3 } }]);
  });

  it('streamText: the same text, finish and usage', async () => {
    const run = async (model: LanguageModel) => {
      const s = streamText({ model, prompt: 'hello', maxRetries: 0 });
      return seen({ text: await s.text, finishReason: await s.finishReason, usage: await s.usage, toolCalls: await s.toolCalls });
    };
    expect(await run(ours())).toEqual(await run(official(mock.url)));
  });
});

describe('where an official provider loses what the bridge keeps', () => {
  it('an OpenAI-compatible server that finishes a tool-call turn with "stop": @ai-sdk/openai says stop, the bridge says tool-calls', async () => {
    const mock = await createMockServer({ provider: 'openai-compatible', apiKey: KEY, script: [{ reply: { toolCalls: [{ id: 'call_x1', name: 'lookup', arguments: { city: 'Rome', days: 1 } }], finishReason: 'stop' } }] });
    try {
      const a = await generateText({ model: languageModel('openai-compatible', { model: 'grok-x', apiKey: KEY, baseUrl: mock.url }), prompt: 'tool', tools: { lookup }, maxRetries: 0 });
      const b = await generateText({ model: createOpenAI({ baseURL: mock.url, apiKey: KEY }).chat('grok-x'), prompt: 'tool', tools: { lookup }, maxRetries: 0 });
      expect(b.finishReason).toBe('stop');
      expect(a.finishReason).toBe('tool-calls');
      expect(a.rawFinishReason).toBe('stop');
    } finally {
      await mock.close();
    }
  });

  it('the model the server says answered: the bridge reports it, the official Gemini provider reports the model asked for', async () => {
    const mock = await createMockServer({ provider: 'gemini', apiKey: KEY, script: [{ reply: { text: 'ok', model: 'gemini-x-002' } }] });
    try {
      const a = await generateText({ model: languageModel('gemini', { model: 'gemini-x', apiKey: KEY, baseUrl: mock.url }), prompt: 'hi', maxRetries: 0 });
      const b = await generateText({ model: createGoogleGenerativeAI({ baseURL: mock.url, apiKey: KEY })('gemini-x'), prompt: 'hi', maxRetries: 0 });
      expect(a.response.modelId).toBe('gemini-x-002');
      expect(b.response.modelId).toBe('gemini-x');
    } finally {
      await mock.close();
    }
  });
});
