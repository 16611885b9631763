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

function sse(chunks: object[], read = 64): Response {
  const text = chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('') + 'data: [DONE]\n\n';
  return body(text, read);
}

/** The text as a body read `read` bytes at a time. */
function body(text: string, read: number): Response {
  const bytes = new TextEncoder().encode(text);
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      for (let i = 0; i < bytes.length; i += read) c.enqueue(bytes.subarray(i, i + read));
      c.close();
    },
  });
  return new Response(stream, { headers: { 'content-type': 'text/event-stream' } });
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

describe('tool calls that end and begin within one network read', () => {
  // Anthropic's Messages stream, written from its documented event types: two tool_use blocks whose
  // input streams as partial JSON; the whole body arrives in one read, so the stream's snapshot
  // taken when the first call ends already holds the second one, half-streamed.
  const event = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  const call = (index: number, id: string, parts: string[]) => [
    event('content_block_start', { index, content_block: { type: 'tool_use', id, name: 'lookup', input: {} } }),
    ...parts.map((partial_json) => event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } })),
    event('content_block_stop', { index }),
  ];
  const text = [
    event('message_start', { message: { id: 'msg_01', type: 'message', role: 'assistant', model: 'claude-x', content: [], stop_reason: null, usage: { input_tokens: 9, output_tokens: 1 } } }),
    ...call(0, 'toolu_01', ['{"city": ', '"Paris"}']),
    ...call(1, 'toolu_02', ['{"city": "Ly', 'on", "days": ', '3}']),
    event('message_delta', { delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 30 } }),
    event('message_stop', {}),
  ].join('');

  it('each tool-call part has its whole input, however the body is cut into reads', async () => {
    const model = (read: number) => languageModel('anthropic-messages', { model: 'claude-x', apiKey: 'sk-ant-test-0123456789', baseUrl: 'http://127.0.0.1:9/v1', fetch: async () => body(text, read) });
    // Every read size from 16 bytes to the whole body: some cut between the first call's end and the second's first deltas.
    for (let read = 16; read <= text.length; read += read < 400 ? 1 : 97) {
      const { stream } = await model(read).doStream({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'weather?' }] }] });
      const calls: Array<{ toolCallId: string; input: string }> = [];
      const deltas: Record<string, string> = {};
      for await (const p of stream as unknown as AsyncIterable<{ type: string; id?: string; delta?: string; toolCallId?: string; input?: string }>) {
        if (p.type === 'tool-call') calls.push({ toolCallId: p.toolCallId!, input: p.input! });
        if (p.type === 'tool-input-delta') deltas[p.id!] = (deltas[p.id!] ?? '') + p.delta;
      }
      expect({ read, calls }).toEqual({
        read,
        calls: [
          { toolCallId: 'toolu_01', input: '{"city": "Paris"}' },
          { toolCallId: 'toolu_02', input: '{"city": "Lyon", "days": 3}' },
        ],
      });
      expect(deltas).toEqual({ toolu_01: '{"city": "Paris"}', toolu_02: '{"city": "Lyon", "days": 3}' });
    }
  });
});
