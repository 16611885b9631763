/**
 * `stream.abort()` means now: a stream whose events arrive in one network chunk has them all
 * buffered, and none of them goes out after the call; the iteration and final() reject with the
 * reason given. A real server on 127.0.0.1 writes the chunk.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { adapters, createClientFor, type StreamEvent } from '../../generated/index.js';
import { sseResponse, startLoopbackServer, type LoopbackServer } from '../helpers/loopback-server.js';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

// OpenAI Chat Completions stream chunks, written by hand from the documented format.
const chunk = (delta: object, finish: string | null = null) => `data: ${JSON.stringify({ id: 'c1', model: 'gpt-x', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const WORDS = Array.from({ length: 40 }, (_, n) => `w${n} `);
// Forty text deltas in a single write: one read hands the client all of them at once.
const ONE_WRITE = [chunk({ role: 'assistant', content: '' }), ...WORDS.map((w) => chunk({ content: w })), chunk({}, 'stop'), 'data: [DONE]\n\n'].join('');

async function client(keepOpen: boolean) {
  server = await startLoopbackServer(sseResponse([ONE_WRITE], { keepOpen }));
  return createClientFor(adapters['openai-chat'], { apiKey: 'k-0000000000', baseUrl: `${server.url}/v1`, model: 'gpt-x', maxRetries: 0 });
}
const ASK = { messages: [{ role: 'user' as const, content: 'hi' }] };

describe('stream.abort()', () => {
  for (const keepOpen of [false, true]) {
    it(`delivers no buffered event after the call (${keepOpen ? 'connection kept open' : 'whole body sent'})`, async () => {
      const s = (await client(keepOpen)).stream(ASK);
      const seen: StreamEvent[] = [];
      const reason = new Error('user left');
      const run = (async () => {
        for await (const e of s) {
          seen.push(e);
          if (e.type === 'text-delta' && e.delta === 'w2 ') s.abort(reason);
        }
      })();
      await expect(run).rejects.toBe(reason);
      await expect(s.final()).rejects.toBe(reason);
      // start, the empty first delta is not sent as an event, then w0, w1, w2: nothing after the abort.
      expect(seen.filter((e) => e.type === 'text-delta').map((e) => (e as { delta: string }).delta)).toEqual(['w0 ', 'w1 ', 'w2 ']);
      expect(seen.at(-1)).toEqual({ type: 'text-delta', delta: 'w2 ' });
    });
  }

  it('called between two next() calls: the next one rejects, and so does every later one', async () => {
    const s = (await client(true)).stream(ASK);
    const it = s[Symbol.asyncIterator]();
    expect((await it.next()).value).toMatchObject({ type: 'start' });
    expect((await it.next()).value).toEqual({ type: 'text-delta', delta: 'w0 ' });
    const reason = new Error('stop here');
    s.abort(reason);
    await expect(it.next()).rejects.toBe(reason);
    expect(await it.next()).toEqual({ done: true, value: undefined });
    await expect(s.final()).rejects.toBe(reason);
    const recorded = await server!.waitForRequest(0);
    await recorded.socketClosed;
  });

  it('called before reading: final() rejects with the reason and nothing is sent', async () => {
    const s = (await client(false)).stream(ASK);
    const reason = new Error('never mind');
    s.abort(reason);
    const events: StreamEvent[] = [];
    await expect(
      (async () => {
        for await (const e of s) events.push(e);
      })(),
    ).rejects.toBe(reason);
    await expect(s.final()).rejects.toBe(reason);
    expect(events).toEqual([]);
    expect(server!.requests).toHaveLength(0);
  });

  it('called after the end: the result stands', async () => {
    const s = (await client(false)).stream(ASK);
    for await (const _ of s);
    s.abort(new Error('too late'));
    expect((await s.final()).text).toBe(WORDS.join(''));
  });
});
