/**
 * Limits through the config's routes: a client's `limits` reach the limiter; a request is one
 * admission whichever target answers (a fallback does not count twice); a refusal is a 429 in
 * the listen protocol's shape with retry-after, and a stream's slot comes back when it ends.
 * Rule (docs/serving.md#limits): a limit L per minute is a bucket of L refilled at L per 60 s.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, startGateway, type Listening, type MockServer } from '../../node/index.js';
import { startLoopbackServer, type LoopbackServer } from '../helpers/loopback-server.js';
import { startRedisServer } from '../helpers/redis-server.js';

/** A Chat Completions stream that holds 400 ms after its first content chunk (docs/wire-facts.md#openai-chat-completions). */
const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => `data: ${JSON.stringify({ id: 'chatcmpl-s', object: 'chat.completion.chunk', created: 1, model: 'b', choices, ...extra })}\n\n`;
const held = {
  headers: { 'content-type': 'text/event-stream' },
  body: [
    chunk([{ index: 0, delta: { role: 'assistant', content: 'he' }, finish_reason: null }]),
    { delayMs: 400 },
    chunk([{ index: 0, delta: { content: 'llo' }, finish_reason: null }]),
    chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]),
    chunk([], { usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } }),
    'data: [DONE]\n\n',
  ],
};

const KEY = 'sk-routes-limits-0001';
const LIMITED = 'limited-token-0123456789';
const STREAMER = 'streamer-token-0123456789';

describe('limits through routes', () => {
  let down: Server;
  let good: MockServer;
  let slow: LoopbackServer;
  let gw: Listening;
  beforeAll(async () => {
    down = createServer((req, res) => {
      req.resume();
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'unavailable', type: 'server_error' } }));
    });
    await new Promise<void>((r) => down.listen(0, '127.0.0.1', r));
    good = await createMockServer({ provider: 'openai-chat', apiKey: KEY, script: [{ reply: { text: 'ok', usage: { inputTokens: 3, outputTokens: 2 } } }] });
    slow = await startLoopbackServer(() => held);
    gw = await startGateway({
      listen: 'openai-chat',
      clients: [
        { name: 'limited', token: LIMITED, limits: { requestsPerMinute: 2 } },
        { name: 'streamer', token: STREAMER, limits: { concurrentStreams: 1 } },
      ],
      routes: [
        {
          model: 'm',
          targets: [
            { spec: 'openai-chat', model: 'a', baseUrl: `http://127.0.0.1:${(down.address() as AddressInfo).port}`, key: { keys: [KEY] } },
            { spec: 'openai-chat', model: 'b', baseUrl: good.url, key: { keys: [KEY] } },
          ],
        },
        {
          model: 's',
          targets: [
            { spec: 'openai-chat', model: 'a', baseUrl: `http://127.0.0.1:${(down.address() as AddressInfo).port}`, key: { keys: [KEY] } },
            { spec: 'openai-chat', model: 'b', baseUrl: slow.url, key: { keys: [KEY] } },
          ],
        },
      ],
    });
  });
  afterAll(async () => {
    await gw.close();
    await good.close();
    await slow.close();
    await new Promise((r) => down.close(r));
  });

  const ask = (token: string, stream = false) =>
    fetch(`${gw.url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ model: stream ? 's' : 'm', stream, messages: [{ role: 'user', content: 'hi' }] }) });

  it('two requests a minute: each with a fallback still counts once; the third is a 429 in Chat shape with retry-after', async () => {
    for (let i = 0; i < 2; i++) {
      const r = await ask(LIMITED);
      expect(r.status).toBe(200);
      expect(r.headers.get('x-wireforge-fallbacks')).toBe('openai-chat/a 503');
    }
    const third = await ask(LIMITED);
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(((await third.json()) as { error: { message: string } }).error.message).toContain('client "limited"');
  });

  it('one stream at a time: the slot is held across the fallback, and comes back when the stream ends', async () => {
    // The upstream holds 400 ms after its first chunk: the stream is open while the second asks.
    const first = await ask(STREAMER, true);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-wireforge-fallbacks')).toBe('openai-chat/a 503');
    const second = await ask(STREAMER, true);
    expect(second.status).toBe(429);
    await second.text();
    expect(await first.text()).toContain('[DONE]');
    // The first stream's slot is back once it ended.
    let again: Response | undefined;
    for (let i = 0; i < 50; i++) {
      again = await ask(STREAMER, true);
      if (again.status === 200) break;
      await again.text();
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(again!.status).toBe(200);
    await again!.text();
  });
});

describe('limits through routes on Redis', () => {
  it('two gateways from one config on one Redis hold one limit of 3 a minute', async () => {
    const redis = await startRedisServer();
    const up = await createMockServer({ provider: 'openai-chat', apiKey: KEY, script: [{ reply: { text: 'ok' } }] });
    const config = {
      listen: 'openai-chat',
      redis: redis.url,
      clients: [{ name: 'shared', token: LIMITED, limits: { requestsPerMinute: 3 } }],
      routes: [{ model: 'm', targets: [{ spec: 'openai-chat', model: 'b', baseUrl: up.url, key: { keys: [KEY] } }] }],
    };
    const a = await startGateway(config);
    const b = await startGateway(config);
    try {
      const ask = (gw: Listening) => fetch(`${gw.url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${LIMITED}` }, body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }) });
      const statuses: number[] = [];
      for (const gw of [a, b, a, b]) statuses.push((await ask(gw)).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      await a.close();
      await b.close();
      await up.close();
      await redis.close();
    }
  }, 30_000);
});
