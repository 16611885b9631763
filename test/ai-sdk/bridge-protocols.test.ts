/**
 * The bridge with the real `ai` package (7.x) through every built-in protocol's mock server:
 * generateText, streamText (fullStream order, textStream), and a two-step tool conversation with
 * `execute` and `stopWhen`. Expected values are the scripted replies (what the mock was told to
 * say), never what the bridge computed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai';
import { createMockServer, type MockServer } from '../../node/index.js';
import { languageModel } from '../../ai-sdk/index.js';
import { quietAiSdkWarnings } from '../helpers/ai-sdk-quiet.js';

quietAiSdkWarnings();

const KEY = 'sk-bridge-0123456789abcdef';
const ANSWER = 'Paris is sunny today, 18 degrees.';
const PROTOCOLS = ['openai-chat', 'openai-responses', 'anthropic-messages', 'gemini', 'bedrock-converse', 'ollama', 'mistral', 'xai', 'openrouter'] as const;
/** Bedrock signs with AWS credentials (SigV4) rather than a key; the mock checks keys only. */
const SIGNED = { aws: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' }, endpoint: { region: 'us-east-1' } };

const weather = tool({
  description: 'The weather in a city',
  inputSchema: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false }),
  execute: async ({ city }) => ({ city, temperature: 18, sky: 'sunny' }),
});

describe.each(PROTOCOLS)('%s through the AI SDK', (protocol) => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await createMockServer({
      provider: protocol,
      ...(protocol === 'bedrock-converse' ? {} : { apiKey: KEY }),
      script: [
        { when: { toolResultFor: 'call_w1' }, reply: { text: ANSWER, usage: { inputTokens: 40, outputTokens: 9 } } },
        { when: { lastUserText: 'weather' }, reply: { toolCalls: [{ id: 'call_w1', name: 'weather', arguments: { city: 'Paris' } }], usage: { inputTokens: 30, outputTokens: 7 } } },
        { reply: { text: ANSWER, usage: { inputTokens: 12, outputTokens: 8 } } },
      ],
    });
  });
  afterAll(() => mock.close());
  const model = () => languageModel(protocol, { model: 'm-1', baseUrl: mock.url, ...(protocol === 'bedrock-converse' ? SIGNED : { apiKey: KEY }) });

  it('generateText: the text, finish, usage and response metadata', async () => {
    const r = await generateText({ model: model(), prompt: 'Say hello', maxRetries: 0 });
    expect(r.text).toBe(ANSWER);
    expect(r.finishReason).toBe('stop');
    expect(r.usage.inputTokens).toBe(12);
    expect(r.usage.outputTokens).toBe(8);
    expect(r.response.modelId).toBeTypeOf('string');
    expect(mock.requests.at(-1)!.request?.messages.at(-1)).toMatchObject({ role: 'user' });
  });

  it('streamText: V4 parts in order, the text whole, one finish', async () => {
    const r = streamText({ model: model(), prompt: 'Say hello', maxRetries: 0 });
    const types: string[] = [];
    let text = '';
    for await (const p of r.fullStream) {
      types.push(p.type);
      if (p.type === 'text-delta') text += p.text;
    }
    expect(text).toBe(ANSWER);
    const core = types.filter((t) => t.startsWith('text') || t === 'finish' || t === 'start-step' || t === 'finish-step');
    expect(core[0]).toBe('start-step');
    expect(core[1]).toBe('text-start');
    expect(core.slice(-3)).toEqual(['text-end', 'finish-step', 'finish']);
    expect(await r.finishReason).toBe('stop');
    expect((await r.usage).outputTokens).toBe(8);
  });

  it('tools over two steps: the call runs, its result goes back, the answer comes', async () => {
    const r = await generateText({ model: model(), prompt: 'What is the weather in Paris?', tools: { weather }, stopWhen: stepCountIs(4), maxRetries: 0 });
    expect(r.steps).toHaveLength(2);
    expect(r.steps[0]!.finishReason).toBe('tool-calls');
    expect(r.steps[0]!.toolCalls[0]).toMatchObject({ toolName: 'weather', input: { city: 'Paris' } });
    expect(r.text).toBe(ANSWER);
    const second = mock.requests.at(-1)!.request!;
    const result = second.messages.find((m) => m.role === 'tool');
    expect(result).toMatchObject({ role: 'tool' });
    expect(valueOf((result as { content: unknown }).content)).toEqual({ city: 'Paris', temperature: 18, sky: 'sunny' });
  });

  it('tools while streaming: the same two steps through streamText', async () => {
    const r = streamText({ model: model(), prompt: 'What is the weather in Paris?', tools: { weather }, stopWhen: stepCountIs(4), maxRetries: 0 });
    const types: string[] = [];
    for await (const p of r.fullStream) types.push(p.type);
    expect(types.filter((t) => t === 'finish-step')).toHaveLength(2);
    expect(types).toContain('tool-call');
    expect(types).toContain('tool-result');
    expect(await r.text).toBe(ANSWER);
  });
});

/** A tool result as the mock read it back: JSON text, text parts, or (a wire that sends JSON) the object. */
function valueOf(content: unknown): unknown {
  if (typeof content === 'string') return JSON.parse(content);
  if (Array.isArray(content)) return valueOf(content.map((p: { text?: string }) => p.text ?? '').join(''));
  return content;
}
