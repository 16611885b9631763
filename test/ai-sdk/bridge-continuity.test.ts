/**
 * Reasoning goes back unchanged on the next step (issue 25, acceptance): a two-step tool
 * conversation with thinking through streamText and generateText sends the first step's reasoning
 * in the second request as the wire wrote it — Anthropic's thinking block with its signature,
 * Gemini's thought signature, the Responses reasoning item with its id — checked on the body the
 * mock received, against the values the mock was scripted to send.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai';
import { createMockServer, type MockServer } from '../../node/index.js';
import { languageModel } from '../../ai-sdk/index.js';
import { quietAiSdkWarnings } from '../helpers/ai-sdk-quiet.js';

quietAiSdkWarnings();

const KEY = 'sk-bridge-continuity-0123456789';
const THINKING = 'The user asks for the weather; I should call the tool for Paris.';
const SIGNATURE = 'EqQBCkgIAxgCIkBwireforgeBridgeSignature+9/Zz==';
const weather = tool({
  inputSchema: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
  execute: async () => ({ temperature: 18 }),
});

async function withMock(provider: string, run: (mock: MockServer) => Promise<void>) {
  const mock = await createMockServer({
    provider,
    apiKey: KEY,
    script: [
      { when: { toolResultFor: 'call_t1' }, reply: { text: 'It is 18 degrees.' } },
      { reply: { thinking: { text: THINKING, signature: SIGNATURE }, toolCalls: [{ id: 'call_t1', name: 'weather', arguments: { city: 'Paris' } }] } },
    ],
  });
  try {
    await run(mock);
  } finally {
    await mock.close();
  }
}

const modes = {
  generateText: (model: ReturnType<typeof languageModel>) => generateText({ model, prompt: 'Weather in Paris?', tools: { weather }, stopWhen: stepCountIs(3), maxRetries: 0 }).then((r) => r.text),
  streamText: async (model: ReturnType<typeof languageModel>) => {
    const r = streamText({ model, prompt: 'Weather in Paris?', tools: { weather }, stopWhen: stepCountIs(3), maxRetries: 0 });
    return r.text;
  },
} as const;

describe.each(Object.keys(modes) as Array<keyof typeof modes>)('%s', (mode) => {
  it('anthropic-messages: the thinking block goes back with its signature, before the tool use', async () => {
    await withMock('anthropic-messages', async (mock) => {
      expect(await modes[mode](languageModel('anthropic-messages', { model: 'claude-x', apiKey: KEY, baseUrl: mock.url }))).toBe('It is 18 degrees.');
      const body = mock.requests.at(-1)!.body as { messages: Array<{ role: string; content: Array<Record<string, unknown>> }> };
      const assistant = body.messages.find((m) => m.role === 'assistant')!;
      expect(assistant.content[0]).toEqual({ type: 'thinking', thinking: THINKING, signature: SIGNATURE });
      expect(assistant.content[1]).toMatchObject({ type: 'tool_use', id: 'call_t1', name: 'weather', input: { city: 'Paris' } });
    });
  });

  it('gemini: the thought signature goes back on the part that carried it', async () => {
    await withMock('gemini', async (mock) => {
      expect(await modes[mode](languageModel('gemini', { model: 'gemini-x', apiKey: KEY, baseUrl: mock.url }))).toBe('It is 18 degrees.');
      const first = mock.requests[0]!;
      const served = JSON.stringify(mock.requests.at(-1)!.body);
      expect(served).toContain(SIGNATURE);
      const body = mock.requests.at(-1)!.body as { contents: Array<{ role: string; parts: Array<Record<string, unknown>> }> };
      const model = body.contents.find((c) => c.role === 'model')!;
      expect(model.parts.some((p) => p.thoughtSignature === SIGNATURE)).toBe(true);
      expect(first).toBeDefined();
    });
  });

  it('openai-responses: the reasoning item goes back with its id, before the function call', async () => {
    await withMock('openai-responses', async (mock) => {
      // What the server answered on the first step, as it went over the wire.
      const answers: string[] = [];
      const recording: typeof fetch = async (input, init) => {
        const res = await fetch(input, init);
        answers.push(await res.clone().text());
        return res;
      };
      expect(await modes[mode](languageModel('openai-responses', { model: 'o-x', apiKey: KEY, baseUrl: mock.url, fetch: recording }))).toBe('It is 18 degrees.');
      const input = (mock.requests.at(-1)!.body as { input: Array<Record<string, unknown>> }).input;
      const reasoning = input.find((i) => i.type === 'reasoning');
      expect(reasoning).toBeDefined();
      expect(typeof reasoning!.id).toBe('string');
      expect(answers[0]).toMatch(new RegExp(`"type":"reasoning"[^}]*"id":${JSON.stringify(reasoning!.id)}|"id":${JSON.stringify(reasoning!.id)}[^}]*"type":"reasoning"`));
      expect(JSON.stringify(reasoning)).toContain(THINKING);
      expect(input.indexOf(reasoning!)).toBeLessThan(input.findIndex((i) => i.type === 'function_call'));
    });
  });
});
