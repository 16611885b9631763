/**
 * The helpers a stream offers over a real server on 127.0.0.1: textStream, toReadableStream()
 * (NDJSON events for a Response body), abort(), and final() asked for before, during or after an
 * iteration.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { adapters, createClientFor, type StreamEvent } from '../../generated/index.js';
import { sseResponse, startLoopbackServer, type LoopbackServer } from '../helpers/loopback-server.js';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const chunk = (delta: object, finish: string | null = null) => `data: ${JSON.stringify({ id: 'c1', model: 'gpt-x', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const BODY = [chunk({ role: 'assistant', content: 'Hel' }), chunk({ content: 'lo ' }), chunk({ content: 'there' }), chunk({}, 'stop'), 'data: [DONE]\n\n'];

async function client(body: string[], keepOpen = false) {
  server = await startLoopbackServer(sseResponse(body, { keepOpen }));
  return createClientFor(adapters['openai-chat'], { apiKey: 'k-0000000000', baseUrl: `${server.url}/v1`, model: 'gpt-x', maxRetries: 0 });
}
const ASK = { messages: [{ role: 'user' as const, content: 'hi' }] };

describe('stream helpers', () => {
  it('textStream yields the text as it arrives', async () => {
    const c = await client(BODY);
    const pieces: string[] = [];
    for await (const t of c.stream(ASK).textStream) pieces.push(t);
    expect(pieces).toEqual(['Hel', 'lo ', 'there']);
  });

  it('toReadableStream() is a Response body of NDJSON events, start first, finish last', async () => {
    const c = await client(BODY);
    const text = await new Response(c.stream(ASK).toReadableStream()).text();
    const events = text.trim().split('\n').map((l) => JSON.parse(l) as StreamEvent);
    expect(events[0]?.type).toBe('start');
    expect(events.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
    expect(events.filter((e) => e.type === 'text-delta').map((e) => (e as { delta: string }).delta).join('')).toBe('Hello there');
  });

  it('abort() stops a stream the server keeps open: iteration and final() reject, the connection is released', async () => {
    const c = await client([chunk({ role: 'assistant', content: 'Hel' })], true);
    const s = c.stream(ASK);
    const seen: StreamEvent[] = [];
    const reason = new Error('user left');
    const run = (async () => {
      for await (const e of s) {
        seen.push(e);
        if (e.type === 'text-delta') s.abort(reason);
      }
    })();
    await expect(run).rejects.toBe(reason);
    await expect(s.final()).rejects.toBe(reason);
    const recorded = await server!.waitForRequest(0);
    await recorded.socketClosed;
    expect(seen.map((e) => e.type)).toEqual(['start', 'text-delta']);
  });

  it('cancelling the readable stream while a read waits on the network stops the request at once', async () => {
    const c = await client([chunk({ role: 'assistant', content: 'Hel' })], true);
    const s = c.stream(ASK);
    const reader = s.toReadableStream().getReader();
    await reader.read(); // start
    const waiting = reader.read(); // waits: the server sends nothing more
    await new Promise((r) => setTimeout(r, 20));
    await reader.cancel(new Error('client went away'));
    await waiting.catch(() => undefined);
    const recorded = await server!.waitForRequest(0);
    await Promise.race([recorded.socketClosed, new Promise((_, reject) => setTimeout(() => reject(new Error('the socket is still open 5 s after cancel')), 5000))]);
    await expect(s.final()).rejects.toThrow('client went away');
  });

  it('final() asked for before the iteration (same tick), during it, and after it gives the same response', async () => {
    const c = await client(BODY);
    const s = c.stream(ASK);
    const before = s.final();
    const events: StreamEvent[] = [];
    let during: Promise<unknown> | undefined;
    for await (const e of s) {
      events.push(e);
      during ??= s.final();
    }
    const after = await s.final();
    expect(events.at(-1)?.type).toBe('finish');
    expect(await before).toBe(after);
    expect(await during).toBe(after);
    expect(after.text).toBe('Hello there');
  });

  it('final() alone reads the stream to its end', async () => {
    const c = await client(BODY);
    expect((await c.stream(ASK).final()).text).toBe('Hello there');
  });
});
