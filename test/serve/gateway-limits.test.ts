/**
 * The gateway's limits and what it passes on, over 127.0.0.1: the body limit of the fetch handler
 * itself (counted while the body streams in, nothing sent upstream) and of the node listener
 * (the 413 reaches the client, a hundred times in a row); the upstream's retry-after and
 * rate-limit headers reaching the caller; upstream retries (none by default) and the timeout.
 */
import { connect } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { adapters } from '../../generated/index.js';
import { createGateway, serves as served } from '../../generated/serve.js';
import { startGateway } from '../../node/index.js';
import type { Listening } from '../../node/listen.js';
import { startLoopbackServer, type LoopbackServer, type ScriptedResponse } from '../helpers/loopback-server.js';

const KEY = 'sk-upstream-limits-0001';
const chatBody = (text = 'hi') => JSON.stringify({ model: 'gpt-test', messages: [{ role: 'user', content: text }] });
/** A Chat Completions answer, as the API writes it (docs/wire-facts.md#openai-chat-completions). */
const chatAnswer = (text: string): ScriptedResponse => ({
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'gpt-test', choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } }),
});
const openaiError = (status: number, type: string, headers: Record<string, string> = {}): ScriptedResponse => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify({ error: { message: `upstream says ${status}`, type, param: null, code: null } }),
});

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});
async function upstream(responders: Parameters<typeof startLoopbackServer>[0]): Promise<LoopbackServer> {
  const s = await startLoopbackServer(responders);
  open.push(s);
  return s;
}

describe('the fetch handler body limit', () => {
  const handler = (url: string) => createGateway({ listen: { adapter: adapters['openai-chat'], serve: served['openai-chat'] }, upstream: adapters['openai-chat'], client: { apiKey: KEY, baseUrl: url }, bodyLimit: 1024 });

  it('refuses a body over the limit while it streams in, without a declared length, and calls nobody upstream', async () => {
    const up = await upstream(chatAnswer('never'));
    let pulled = 0;
    // 64 chunks of 100 bytes, with no content-length: only counting finds it too large; the rest is never pulled.
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        pulled++;
        c.enqueue(new TextEncoder().encode('x'.repeat(100)));
        if (pulled === 64) c.close();
      },
    });
    const req = new Request(`http://gw.test/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body, duplex: 'half' } as RequestInit);
    expect(req.headers.get('content-length')).toBeNull();
    const res = await handler(up.url)(req);
    expect(res.status).toBe(413);
    const out = (await res.json()) as { error: { message: string; type: string } };
    expect(out.error.message).toContain('1024 bytes');
    // OpenAI's error bodies type every 4xx: invalid_request_error.
    expect(out.error.type).toBe('invalid_request_error');
    expect(pulled).toBeLessThan(20);
    expect(up.requests).toHaveLength(0);
  });

  it('refuses a declared length over the limit before reading; a body within it goes upstream', async () => {
    const up = await upstream(chatAnswer('fine'));
    const h = handler(up.url);
    const big = await h(new Request('http://gw.test/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: chatBody('y'.repeat(2000)) }));
    expect(big.status).toBe(413);
    expect(up.requests).toHaveLength(0);
    const small = await h(new Request('http://gw.test/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: chatBody('ok') }));
    expect(small.status).toBe(200);
    expect(((await small.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe('fine');
    expect(up.requests).toHaveLength(1);
  });
});

describe('the node listener 413', () => {
  let up: LoopbackServer;
  let gw: Listening;
  beforeAll(async () => {
    up = await startLoopbackServer(chatAnswer('fine'));
    gw = await startGateway({ listen: 'gemini', upstream: 'openai-chat', bodyLimit: 16 * 1024, client: { apiKey: KEY, baseUrl: up.url } });
  });
  afterAll(async () => {
    await gw.close();
    await up.close();
  });

  it('a hundred oversized requests in a row each get their 413, in the listen protocol shape', async () => {
    const big = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'z'.repeat(1024 * 1024) }] }] });
    const statuses: number[] = [];
    for (let i = 0; i < 100; i++) {
      const res = await fetch(`${gw.url}/v1beta/models/gemini-test:generateContent`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: big });
      statuses.push(res.status);
      const out = (await res.json()) as { error: { code: number; status: string; message: string } };
      // Gemini's error body: the numeric code, and a status name for every 4xx.
      expect(out.error).toMatchObject({ code: 413, status: 'INVALID_ARGUMENT' });
    }
    expect(statuses).toEqual(Array(100).fill(413));
    expect(up.requests).toHaveLength(0);
  }, 60_000);

  it('a client that writes its whole body before it reads gets the 413, not a reset', async () => {
    // As curl or a blocking HTTP client does: the answer is read only once every byte is written.
    // A body larger than the loopback socket buffers: a gateway that closed with it unread reset
    // the connection (EPIPE here) before the 413 could be read.
    const body = 'q'.repeat(12 * 1024 * 1024);
    for (let i = 0; i < 5; i++) {
      const seen = await new Promise<string>((resolve) => {
        const { port } = new URL(gw.url);
        const socket = connect(Number(port), '127.0.0.1');
        let got = '';
        socket.on('data', (d) => (got += d.toString('latin1')));
        socket.on('error', (e) => resolve(`error ${(e as NodeJS.ErrnoException).code}: ${got.slice(0, 20)}`));
        socket.on('close', () => resolve(got));
        socket.write(`POST /v1beta/models/m:generateContent HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`);
        socket.write(body, () => socket.end());
      });
      expect(seen.slice(0, 12)).toBe('HTTP/1.1 413');
    }
  }, 60_000);

  it('an oversized body sent in chunks without a length gets its 413 too', async () => {
    for (let i = 0; i < 10; i++) {
      let n = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(c) {
          c.enqueue(new TextEncoder().encode('w'.repeat(8 * 1024)));
          if (++n === 8) c.close();
        },
      });
      const res = await fetch(`${gw.url}/v1beta/models/gemini-test:generateContent`, { method: 'POST', headers: { 'content-type': 'application/json' }, body, duplex: 'half' } as RequestInit);
      expect(res.status).toBe(413);
      await res.arrayBuffer();
    }
    expect(up.requests).toHaveLength(0);
  });
});

describe("the node listener 413 of a gateway for teams: the prefix's listen protocol, marked as the gateway's", () => {
  it('an Anthropic prefix answers in Anthropic\'s error shape, an OpenAI prefix in OpenAI\'s, each with x-wireforge-error-source readable by a browser', async () => {
    const token = 'team-token-413-0123456789';
    const gw = await startGateway({
      listen: [
        { spec: 'anthropic-messages', path: '/anthropic' },
        { spec: 'openai-chat', path: '/openai' },
      ],
      clients: [{ name: 'team', token }],
      routes: [{ model: 'fast', targets: [{ spec: 'openai-chat', model: 'up', baseUrl: 'http://127.0.0.1:9', key: { keys: [KEY] } }] }],
      bodyLimit: 1024,
      cors: ['http://app.localhost'],
    });
    open.push(gw);
    const big = chatBody('z'.repeat(4096));
    const post = (path: string) => fetch(`${gw.url}${path}`, { method: 'POST', headers: { origin: 'http://app.localhost', 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: big });
    const ant = await post('/anthropic/v1/messages');
    expect(ant.status).toBe(413);
    // Anthropic's error body: { type: 'error', error: { type, message } } (docs/wire-facts.md).
    expect(await ant.json()).toMatchObject({ type: 'error', error: { type: 'request_too_large' } });
    expect(ant.headers.get('x-wireforge-error-source')).toBe('gateway');
    expect(ant.headers.get('access-control-expose-headers')).toContain('x-wireforge-error-source');
    // A path under no prefix is the first listen entry's, as the router answers it.
    const none = await post('/v1/messages');
    expect(none.status).toBe(413);
    expect(await none.json()).toMatchObject({ type: 'error', error: { type: 'request_too_large' } });
    const oai = await post('/openai/v1/chat/completions');
    expect(oai.status).toBe(413);
    expect(((await oai.json()) as { error: { type: string } }).error.type).toBe('invalid_request_error');
    expect(oai.headers.get('x-wireforge-error-source')).toBe('gateway');
  });
});

describe('what the upstream says about waiting', () => {
  it("an upstream 429's retry-after and rate-limit headers reach an SDK caller; the gateway does not retry it", async () => {
    const up = await upstream(openaiError(429, 'rate_limit_error', { 'retry-after': '7', 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '7s', 'set-cookie': 'not=passed' }));
    const gw = await startGateway({ listen: 'anthropic-messages', upstream: 'openai-chat', client: { apiKey: KEY, baseUrl: up.url } });
    open.push(gw);
    const e = (await new Anthropic({ apiKey: 'caller', baseURL: gw.url, maxRetries: 0 }).messages.create({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }).catch((x: unknown) => x)) as InstanceType<typeof Anthropic.APIError>;
    expect(e).toBeInstanceOf(Anthropic.RateLimitError);
    expect(e.headers?.get('retry-after')).toBe('7');
    expect(e.headers?.get('x-ratelimit-remaining-requests')).toBe('0');
    expect(e.headers?.get('x-ratelimit-reset-requests')).toBe('7s');
    expect(e.headers?.get('set-cookie')).toBeNull();
    // Anthropic's own type for a 429.
    expect((e.error as { error?: { type?: string } }).error?.type).toBe('rate_limit_error');
    expect(up.requests).toHaveLength(1);
  });

  it('a wait stated only in a Gemini error body (RetryInfo) becomes retry-after for an OpenAI caller', async () => {
    // Gemini's 429: google.rpc.Status with a RetryInfo detail (docs/wire-facts.md#gemini-errors-and-retries).
    const up = await upstream({
      status: 429,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ error: { code: 429, message: 'quota', status: 'RESOURCE_EXHAUSTED', details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '3.5s' }] } }),
    });
    const gw = await startGateway({ listen: 'openai-chat', upstream: 'gemini', client: { apiKey: KEY, baseUrl: up.url } });
    open.push(gw);
    const e = (await new OpenAI({ apiKey: 'caller', baseURL: gw.url, maxRetries: 0 }).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }).catch((x: unknown) => x)) as InstanceType<typeof OpenAI.APIError>;
    expect(e).toBeInstanceOf(OpenAI.RateLimitError);
    expect(e.headers?.get('retry-after')).toBe('4');
    expect(e.headers?.get('retry-after-ms')).toBe('3500');
    expect(e.type).toBe('rate_limit_error');
  });

  it('a browser caller may read them: CORS exposes the waits and counts passed on', async () => {
    const up = await upstream(openaiError(429, 'rate_limit_error', { 'retry-after-ms': '250', 'x-ratelimit-remaining-tokens': '0' }));
    const gw = await startGateway({ listen: 'openai-chat', upstream: 'openai-chat', cors: true, client: { apiKey: KEY, baseUrl: up.url } });
    open.push(gw);
    const res = await fetch(`${gw.url}/chat/completions`, { method: 'POST', headers: { origin: 'http://app.localhost', 'content-type': 'application/json' }, body: chatBody() });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after-ms')).toBe('250');
    const exposed = (res.headers.get('access-control-expose-headers') ?? '').split(', ');
    expect(exposed).toEqual(expect.arrayContaining(['retry-after', 'retry-after-ms', 'x-ratelimit-remaining-tokens', 'anthropic-ratelimit-requests-reset']));
  });

  it('the SDK caller retries after the wait the upstream asked for, and succeeds', async () => {
    const up = await upstream([openaiError(429, 'rate_limit_error', { 'retry-after-ms': '20' }), chatAnswer('after the wait')]);
    const gw = await startGateway({ listen: 'openai-chat', upstream: 'openai-chat', client: { apiKey: KEY, baseUrl: up.url } });
    open.push(gw);
    const r = await new OpenAI({ apiKey: 'caller', baseURL: gw.url, maxRetries: 1 }).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    expect(r.choices[0]!.message.content).toBe('after the wait');
    expect(up.requests).toHaveLength(2);
  });
});

describe('upstream retries and timeout', () => {
  it('maxRetries set in the handler options retries upstream that often', async () => {
    const up = await upstream([openaiError(503, 'server_error', { 'retry-after-ms': '1' }), openaiError(503, 'server_error', { 'retry-after-ms': '1' }), chatAnswer('third time')]);
    const gw = await startGateway({ listen: 'openai-chat', upstream: 'openai-chat', client: { apiKey: KEY, baseUrl: up.url, maxRetries: 2 } });
    open.push(gw);
    const res = await fetch(`${gw.url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: chatBody() });
    expect(res.status).toBe(200);
    expect(up.requests).toHaveLength(3);
  });

  it('by default a 503 goes back to the caller at once, with the upstream type for the same wire', async () => {
    const up = await upstream(openaiError(503, 'engine_overloaded', { 'retry-after': '2' }));
    const gw = await startGateway({ listen: 'openai-chat', upstream: 'openai-chat', client: { apiKey: KEY, baseUrl: up.url } });
    open.push(gw);
    const res = await fetch(`${gw.url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: chatBody() });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('2');
    expect(((await res.json()) as { error: { type: string } }).error.type).toBe('engine_overloaded');
    expect(up.requests).toHaveLength(1);
  });

  it('timeoutMs: an upstream that does not answer is a 504 with a type in each listen protocol', async () => {
    const up = await upstream({ hang: true });
    // Types from each provider's documented error list; a 504 on OpenAI's wires is a server_error.
    const expected = { 'anthropic-messages': ['/v1/messages', { type: 'error', error: { type: 'timeout_error' } }], gemini: ['/v1beta/models/m:generateContent', { error: { code: 504, status: 'DEADLINE_EXCEEDED' } }], 'openai-chat': ['/v1/chat/completions', { error: { type: 'server_error' } }] } as const;
    for (const [listen, [path, body]] of Object.entries(expected)) {
      const gw = await startGateway({ listen, upstream: 'openai-chat', client: { apiKey: KEY, baseUrl: up.url, timeoutMs: 150 } });
      open.push(gw);
      const res = await fetch(`${gw.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: listen === 'gemini' ? JSON.stringify({ contents: [{ parts: [{ text: 'hi' }] }] }) : listen === 'anthropic-messages' ? JSON.stringify({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }) : chatBody() });
      expect(res.status, listen).toBe(504);
      expect(await res.json(), listen).toMatchObject(body);
    }
  });

  it('an unreachable upstream is a 502 with a type', async () => {
    const up = await upstream(chatAnswer('gone'));
    const gone = up.url;
    await up.close();
    const gw = await startGateway({ listen: 'openai-responses', upstream: 'openai-chat', client: { apiKey: KEY, baseUrl: gone } });
    open.push(gw);
    const e = (await new OpenAI({ apiKey: 'caller', baseURL: gw.url, maxRetries: 0 }).responses.create({ model: 'm', input: 'hi' }).catch((x: unknown) => x)) as InstanceType<typeof OpenAI.APIError>;
    expect(e).toBeInstanceOf(OpenAI.InternalServerError);
    expect(e.status).toBe(502);
    expect(e.type).toBe('server_error');
  });
});
