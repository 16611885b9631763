/**
 * The gateway under hostile use, over 127.0.0.1: no token, a body too large, a client too slow, a
 * body that is not JSON or not a request, a client that goes away mid-stream, an upstream error
 * that echoes the key. 200 streaming clients at once are gateway-load.test.ts.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../generated/index.js';
import { createMockServer, startGateway, type MockServer } from '../../node/index.js';
import type { Listening } from '../../node/listen.js';

const UPSTREAM_KEY = 'sk-ant-upstream-secret-000111';
const TOKEN = 'gw-token-123456789';

let mock: MockServer;
let gateway: Listening;
beforeAll(async () => {
  mock = await createMockServer({
    provider: 'anthropic-messages',
    apiKey: UPSTREAM_KEY,
    script: (call) => {
      const last = call.request?.messages.at(-1);
      const text = last && last.role === 'user' && typeof last.content === 'string' ? last.content : '';
      if (text === 'leak') return { fault: { status: 400, message: `the key ${UPSTREAM_KEY} is not allowed here` } };
      if (text === 'long') return { reply: { text: 'word '.repeat(400) } };
      return { reply: { text: `echo:${text}` } };
    },
    delayMs: 0,
  });
  // The default request timeout (30 s), with room for a busy machine. The slow-client test has its own.
  gateway = await startGateway({ listen: 'openai-chat', upstream: 'anthropic-messages', clientToken: TOKEN, bodyLimit: 64 * 1024, client: { apiKey: UPSTREAM_KEY, baseUrl: mock.url, maxRetries: 0 } });
});
afterAll(async () => {
  await gateway.close();
  await mock.close();
});

const post = (body: string, headers: Record<string, string> = {}) =>
  fetch(`${gateway.url}/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', ...headers }, body });
const ask = (text: string, stream = false) => JSON.stringify({ model: 'claude-test', stream, messages: [{ role: 'user', content: text }] });

describe('the gateway battery', () => {
  it('no token, or a wrong one: 401 in the listen protocol, nothing sent upstream', async () => {
    const before = mock.requests.length;
    for (const headers of [{ authorization: '' }, { authorization: 'Bearer wrong-token' }]) {
      const res = await post(ask('hi'), headers);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ error: { type: 'invalid_request_error', message: expect.stringContaining('token') } });
    }
    expect(mock.requests.length).toBe(before);
  });

  it('a body over the limit: 413 in the listen protocol', async () => {
    const res = await post(ask('x'.repeat(100 * 1024)));
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: { message: expect.stringContaining('too large') } });
  });

  it('malformed JSON, a body that is not a request, a wrong content type: 400 in the listen protocol, no upstream call', async () => {
    const before = mock.requests.length;
    const cases = [post('{"model": "m", "messages": ['), post(JSON.stringify({ model: 'm', messages: [{ role: 'usr', content: 'hi' }] })), post(ask('hi'), { 'content-type': 'text/plain' })];
    for (const res of await Promise.all(cases)) {
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
    }
    expect(mock.requests.length).toBe(before);
  });

  it('a client too slow to send its request is disconnected', async () => {
    const gw = await startGateway({ listen: 'openai-chat', upstream: 'anthropic-messages', clientToken: TOKEN, requestTimeoutMs: 600, client: { apiKey: UPSTREAM_KEY, baseUrl: mock.url, maxRetries: 0 } });
    try {
      let answer = '';
      const closed = await new Promise<number>((resolve) => {
        const t0 = performance.now();
        const socket = connect(Number(new URL(gw.url).port), '127.0.0.1', () => socket.write('POST /chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"mo'));
        socket.on('data', (d: Buffer) => (answer += d.toString()));
        socket.on('close', () => resolve(performance.now() - t0));
        socket.on('error', () => undefined);
      });
      // Closed by the server's request timeout (600 ms, checked every 150 ms): long before this
      // test's own timeout, with room for a busy machine, and never before the timeout.
      expect(closed).toBeGreaterThanOrEqual(550);
      expect(closed).toBeLessThan(10_000);
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    } finally {
      await gw.close();
    }
  });

  it('an upstream error that echoes the key reaches the caller with its status and without the key', async () => {
    const res = await post(ask('leak'));
    expect(res.status).toBe(400);
    const text = await res.text();
    expect(text).not.toContain(UPSTREAM_KEY);
    expect(text).toContain('[redacted]');
  });

  it('a caller that goes away mid-stream: the upstream request is aborted', async () => {
    const slow = await createMockServer({ provider: 'anthropic-messages', apiKey: UPSTREAM_KEY, delayMs: 20, chunk: 2, script: [{ reply: { text: 'word '.repeat(200) } }] });
    const gw = await startGateway({ listen: 'openai-chat', upstream: 'anthropic-messages', clientToken: TOKEN, client: { apiKey: UPSTREAM_KEY, baseUrl: slow.url, maxRetries: 0 } });
    try {
      const stream = createClient('openai-chat', { apiKey: TOKEN, baseUrl: gw.url, model: 'm', maxRetries: 0 }).stream({ messages: [{ role: 'user', content: 'hi' }] });
      let n = 0;
      for await (const e of stream) if (e.type === 'text-delta' && ++n === 3) break;
      await expect.poll(() => slow.requests[0]?.aborted, { timeout: 10_000 }).toBe(true);
    } finally {
      await gw.close();
      await slow.close();
    }
  });

  it('will not serve a non-loopback address with the upstream key and no client token', async () => {
    await expect(startGateway({ listen: 'openai-chat', upstream: 'anthropic-messages', host: '0.0.0.0', client: { apiKey: UPSTREAM_KEY } })).rejects.toThrow(/client token/);
  });

  it('with the upstream key from the caller, the caller’s key goes upstream', async () => {
    const own = await createMockServer({ provider: 'anthropic-messages', apiKey: 'sk-caller-own-key-777' });
    const gw = await startGateway({ listen: 'openai-chat', upstream: 'anthropic-messages', upstreamKey: 'caller', client: { baseUrl: own.url, maxRetries: 0 } });
    try {
      const r = await createClient('openai-chat', { apiKey: 'sk-caller-own-key-777', baseUrl: gw.url, model: 'm', maxRetries: 0 }).chat({ messages: [{ role: 'user', content: 'hi' }] });
      expect(r.text).toBe('Hello from the mock.');
      const bad = await createClient('openai-chat', { apiKey: 'sk-someone-else-000', baseUrl: gw.url, model: 'm', maxRetries: 0 }).chat({ messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
      expect(bad).toMatchObject({ status: 401 });
      expect(String((bad as Error).message)).not.toContain('sk-someone-else-000');
    } finally {
      await gw.close();
      await own.close();
    }
  });
});

describe('the gateway, from a review', () => {
  it('a key from the environment does not reach the caller when upstream fails mid-stream', async () => {
    const before = process.env.ANTHROPIC_API_KEY;
    process.env.ANTHROPIC_API_KEY = 'sk-ant-from-env-secret-9999';
    // An upstream whose connection breaks after one event, with the key in the transport's error.
    const broken: typeof fetch = async () => {
      const enc = new TextEncoder();
      let sent = false;
      const body = new ReadableStream<Uint8Array>({
        pull(c) {
          if (!sent) {
            sent = true;
            c.enqueue(enc.encode('event: message_start\ndata: {"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"c","content":[],"usage":{"input_tokens":1,"output_tokens":0}}}\n\n'));
          } else c.error(new Error('socket hang up sk-ant-from-env-secret-9999'));
        },
      });
      return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
    };
    const gw = await startGateway({ listen: 'openai-chat', upstream: 'anthropic-messages', clientToken: TOKEN, client: { baseUrl: 'http://127.0.0.1:9', fetch: broken, maxRetries: 0 } });
    try {
      const res = await fetch(`${gw.url}/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: ask('hi', true) });
      const text = await res.text();
      expect(text).toContain('socket hang up');
      expect(text).not.toContain('sk-ant-from-env-secret-9999');
    } finally {
      await gw.close();
      if (before === undefined) delete process.env.ANTHROPIC_API_KEY;
      else process.env.ANTHROPIC_API_KEY = before;
    }
  });

  it('fields only the caller’s protocol has are not sent to another, and the header says so', async () => {
    const before = mock.requests.length;
    const res = await post(JSON.stringify({ model: 'claude-test', n: 2, logprobs: true, messages: [{ role: 'user', content: 'hi' }] }));
    expect(res.status).toBe(200);
    expect(mock.requests[before]!.body).not.toHaveProperty('n');
    expect(mock.requests[before]!.body).not.toHaveProperty('logprobs');
    expect(JSON.parse(res.headers.get('x-wireforge-warnings') ?? '[]')).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'n' }), expect.objectContaining({ field: 'logprobs' })]));
  });

  it('refuses a short client token, and a token together with caller keys', async () => {
    await expect(startGateway({ listen: 'openai-chat', upstream: 'anthropic-messages', clientToken: '' })).rejects.toThrow(/at least 16/);
    await expect(startGateway({ listen: 'openai-chat', upstream: 'anthropic-messages', clientToken: TOKEN.repeat(2), upstreamKey: 'caller' })).rejects.toThrow(/cannot also ask/);
  });

  it('a body nested too deep is the listen protocol’s error, not a crash', async () => {
    const deep = `{"model":"m","messages":[{"role":"user","content":"hi"}],"extra":${'['.repeat(20000)}${']'.repeat(20000)}}`;
    const res = await post(deep);
    expect([200, 400, 500]).toContain(res.status);
    expect(res.headers.get('content-type')).toContain('application/json');
  });
});
