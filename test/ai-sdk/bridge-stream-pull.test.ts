/**
 * The V4 stream keeps going through events that make no V4 part: a ReadableStream calls pull()
 * again only when the last pull enqueued something, so a pull that read only such events would
 * leave the reader waiting for ever. The body (OpenAI Chat Completions chunks, written from its
 * documented format) has many chunks whose delta is empty between the role chunk and the text.
 */
import { describe, expect, it } from 'vitest';
import { languageModel } from '../../ai-sdk/index.js';
import { quietAiSdkWarnings } from '../helpers/ai-sdk-quiet.js';

quietAiSdkWarnings();

function sse(chunks: object[]): Response {
  const text = chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('') + 'data: [DONE]\n\n';
  const bytes = new TextEncoder().encode(text);
  // One network read per 64 bytes: many reads yield no event at all, many events no part.
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      for (let i = 0; i < bytes.length; i += 64) c.enqueue(bytes.subarray(i, i + 64));
      c.close();
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

describe('doStream over events that make no part', () => {
  it('reads to the end: every text delta, one finish', async () => {
    const base = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1767225600, model: 'gpt-x' };
    const chunks = [
      { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: null }, finish_reason: null }] },
      ...Array.from({ length: 40 }, () => ({ ...base, choices: [{ index: 0, delta: {}, finish_reason: null }] })),
      { ...base, choices: [{ index: 0, delta: { content: 'Hello ' }, finish_reason: null }] },
      ...Array.from({ length: 40 }, () => ({ ...base, choices: [{ index: 0, delta: {}, finish_reason: null }] })),
      { ...base, choices: [{ index: 0, delta: { content: 'there.' }, finish_reason: 'stop' }] },
      { ...base, choices: [], usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 } },
    ];
    const model = languageModel('openai-chat', { model: 'gpt-x', apiKey: 'sk-test-0123456789', baseUrl: 'http://127.0.0.1:9/v1', fetch: async () => sse(chunks) });
    const { stream } = await model.doStream({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] });
    const types: string[] = [];
    let text = '';
    for await (const p of stream as unknown as AsyncIterable<{ type: string; delta?: string }>) {
      types.push(p.type);
      if (p.type === 'text-delta') text += p.delta;
    }
    expect(text).toBe('Hello there.');
    expect(types.filter((t) => t === 'finish')).toHaveLength(1);
    expect(types.at(-1)).toBe('finish');
  }, 10_000);
});
