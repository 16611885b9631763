/**
 * `usage` events come at most once per batch of events (one read of the body), last in it, with
 * the latest usage (docs/unified-model.md#stream-events): a wire that repeats its usage on every
 * chunk (Gemini) does not get one event per chunk.
 */
import { describe, expect, it } from 'vitest';
import { adapters, createClientFor, type ProviderAdapter, type StreamEvent } from '../../generated/index.js';
import { fetchReturning } from '../helpers/replay.js';

const enc = new TextEncoder();

async function eventsOf(adapter: ProviderAdapter, reads: string[]) {
  const client = createClientFor(adapter, { apiKey: 'test-key-0000', baseUrl: 'http://127.0.0.1:9/v1', model: 'm', maxRetries: 0, fetch: fetchReturning(reads.map((r) => enc.encode(r)), 'text/event-stream') });
  const stream = client.stream({ messages: [{ role: 'user', content: 'hi' }] });
  const events: StreamEvent[] = [];
  for await (const e of stream) events.push(e);
  return { events, final: await stream.final() };
}

/** A Gemini chunk as the API streams it: a text delta and the running usage snapshot. */
const gemini = (text: string, candidates: number, finish?: string) =>
  `data: ${JSON.stringify({
    candidates: [{ content: { parts: [{ text }], role: 'model' }, ...(finish ? { finishReason: finish } : {}), index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: candidates, totalTokenCount: 10 + candidates, thoughtsTokenCount: 2 },
    modelVersion: 'gemini-x',
    responseId: 'r1',
  })}\r\n\r\n`;

describe('usage events', () => {
  it('Gemini usage on every chunk: one usage event per read, last in it, with that read\'s latest snapshot', async () => {
    const reads = [gemini('a', 1) + gemini('b', 2) + gemini('c', 3), gemini('d', 4) + gemini('e', 5) + gemini('f', 6, 'STOP')];
    const { events, final } = await eventsOf(adapters.gemini, reads);
    expect(events.map((e) => e.type)).toEqual(['start', 'text-delta', 'text-delta', 'text-delta', 'usage', 'text-delta', 'text-delta', 'text-delta', 'usage', 'finish']);
    const usages = events.filter((e) => e.type === 'usage').map((e) => (e as Extract<StreamEvent, { type: 'usage' }>).usage);
    // output = candidates + thoughts; reasoning = thoughts (docs/unified-model.md#usage).
    expect(usages).toEqual([
      { inputTokens: 10, outputTokens: 5, totalTokens: 13, reasoningTokens: 2 },
      { inputTokens: 10, outputTokens: 8, totalTokens: 16, reasoningTokens: 2 },
    ]);
    expect(final.usage).toEqual(usages[1]);
    expect((events.at(-1) as Extract<StreamEvent, { type: 'finish' }>).usage).toEqual(usages[1]);
  });

  it('the finish event carries what final() has, the finish reason worked out from the calls (Gemini STOP with a call is tool_calls)', async () => {
    const call = `data: ${JSON.stringify({ candidates: [{ content: { parts: [{ functionCall: { name: 'get_weather', args: { city: 'Oslo' } } }], role: 'model' }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 4, totalTokenCount: 14 }, responseId: 'r2' })}\r\n\r\n`;
    const { events, final } = await eventsOf(adapters.gemini, [gemini('a', 1), call]);
    expect(events.at(-1)).toEqual({ type: 'finish', finishReason: 'tool_calls', rawFinishReason: 'STOP', usage: { inputTokens: 10, outputTokens: 4, totalTokens: 14 } });
    expect([final.finishReason, final.rawFinishReason, final.usage]).toEqual(['tool_calls', 'STOP', { inputTokens: 10, outputTokens: 4, totalTokens: 14 }]);
  });

  it('a read with usage and nothing else is a batch of its own (OpenAI Chat: usage after the finish chunk)', async () => {
    const chunk = (o: object) => `data: ${JSON.stringify({ id: 'c1', model: 'gpt-x', ...o })}\n\n`;
    const reads = [
      chunk({ choices: [{ index: 0, delta: { content: 'Hi' }, finish_reason: null }], usage: null }) + chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage: null }),
      chunk({ choices: [], usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 } }),
      'data: [DONE]\n\n',
    ];
    const { events, final } = await eventsOf(adapters['openai-chat'], reads);
    expect(events.map((e) => e.type)).toEqual(['start', 'text-delta', 'usage', 'finish']);
    expect(events[2]).toEqual({ type: 'usage', usage: { inputTokens: 7, outputTokens: 3, totalTokens: 10 } });
    expect(final.usage).toEqual({ inputTokens: 7, outputTokens: 3, totalTokens: 10 });
  });

  it('usage in pieces within one read (Anthropic message_start, then message_delta): one event with both merged', async () => {
    const ev = (name: string, data: object) => `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`;
    const body =
      ev('message_start', { message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-x', content: [], usage: { input_tokens: 12, output_tokens: 1 } } }) +
      ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }) +
      ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Hello' } }) +
      ev('content_block_stop', { index: 0 }) +
      ev('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 9 } }) +
      ev('message_stop', {});
    const { events, final } = await eventsOf(adapters['anthropic-messages'], [body]);
    expect(events.map((e) => e.type)).toEqual(['start', 'text-delta', 'usage', 'finish']);
    expect(events[2]).toEqual({ type: 'usage', usage: { inputTokens: 12, outputTokens: 9, totalTokens: 21 } });
    expect(final.usage).toEqual({ inputTokens: 12, outputTokens: 9, totalTokens: 21 });
  });
});
