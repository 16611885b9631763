/**
 * node/listen.ts with `served: true`: the handler gets a ServedRequest over node:http's request
 * (the gateway's, for its first byte) rather than a web Request. What it reads must be what a
 * Request would say: method, URL, headers by any case (a repeated one joined), the body as text
 * or, sent without a declared length, as a stream; the signal aborts when the caller goes away.
 * And the gateway on it reads a chunked body as it reads one with a length.
 */
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { listen, startGateway, createMockServer, type Listening, type MockServer } from '../../node/index.js';
import type { ServedRequest } from '../../runtime/serve/served-request.js';
import { startLoopbackServer } from '../helpers/loopback-server.js';
import { readText } from '../../runtime/serve/read-body.js';

const open: Array<Listening | MockServer> = [];
afterEach(async () => {
  for (const s of open.splice(0).reverse()) await s.close();
});

/** A raw request: headers as given (repeats included), the body in the pieces given; chunked when no content-length is set. */
function send(url: string, path: string, headers: Record<string, string | string[]>, pieces: string[]): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}${path}`, { method: 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    for (const p of pieces) req.write(p);
    req.end();
  });
}

describe('listen with served requests', () => {
  it('the request signal aborts once the answer is written, so nothing the handler left behind (a rebuilt Response\'s streamed body) runs on', async () => {
    let signal: AbortSignal | undefined;
    const server = await listen(
      async (req: ServedRequest) => {
        signal = req.signal;
        return new Response('ok');
      },
      { served: true },
    );
    open.push(server);
    const res = await send(server.url, '/v1/messages', { 'content-type': 'application/json', 'content-length': '2' }, ['{}']);
    expect(res).toEqual({ status: 200, text: 'ok' });
    await new Promise((r) => setTimeout(r, 20));
    expect(signal?.aborted).toBe(true);
  });

  it('the handler reads method, URL, headers and body as a Request would give them', async () => {
    let seen: Record<string, unknown> = {};
    const server = await listen(
      async (req: ServedRequest) => {
        seen = {
          method: req.method,
          path: new URL(req.url).pathname + new URL(req.url).search,
          type: req.headers.get('Content-Type'),
          accept: req.headers.get('x-multi'),
          hasKey: req.headers.has('X-API-KEY'),
          missing: req.headers.get('x-not-sent'),
          // Names an object inherits are no headers.
          inherited: [req.headers.get('constructor'), req.headers.has('__proto__'), req.headers.get('toString')],
          text: await req.text(),
        };
        return new Response('ok');
      },
      { served: true },
    );
    open.push(server);
    const body = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'grüß' }] });
    const res = await send(server.url, '/v1/messages?beta=true', { 'Content-Type': 'application/json', 'X-Multi': ['a', 'b'], 'x-api-key': 'k', 'content-length': String(Buffer.byteLength(body)) }, [body]);
    expect(res).toEqual({ status: 200, text: 'ok' });
    expect(seen).toEqual({ method: 'POST', path: '/v1/messages?beta=true', type: 'application/json', accept: 'a, b', hasKey: true, missing: null, inherited: [null, false, null], text: body });
  });

  it('a body sent without a declared length is read whole, from the stream, within the limit', async () => {
    const got: Array<string | undefined> = [];
    const server = await listen(
      async (req: ServedRequest) => {
        got.push(req.headers.get('content-length') ?? 'none', await readText(req, 1024));
        return new Response('ok');
      },
      { served: true, bodyLimit: 1024 },
    );
    open.push(server);
    expect((await send(server.url, '/x', { 'content-type': 'application/json' }, ['{"a":', '"piece', 'wise"}'])).status).toBe(200);
    expect(got).toEqual(['none', '{"a":"piecewise"}']);
    // Over the limit the listener answers 413 itself, the handler never called.
    expect((await send(server.url, '/x', { 'content-type': 'application/json' }, ['x'.repeat(600), 'y'.repeat(600)])).status).toBe(413);
    expect(got).toHaveLength(2);
  });

  it('the signal aborts when the caller goes away before the answer', async () => {
    let signal: AbortSignal | undefined;
    let entered!: () => void;
    const inHandler = new Promise<void>((r) => (entered = r));
    const server = await listen(
      (req: ServedRequest) => {
        signal = req.signal;
        entered();
        return new Promise<Response>((resolve) => req.signal.addEventListener('abort', () => resolve(new Response('late'))));
      },
      { served: true },
    );
    open.push(server);
    const req = httpRequest(`${server.url}/x`, { method: 'POST', headers: { 'content-length': '2' } });
    req.on('error', () => undefined);
    req.end('{}');
    await inHandler;
    expect(signal!.aborted).toBe(false);
    req.destroy();
    await new Promise<void>((r) => (signal!.aborted ? r() : signal!.addEventListener('abort', () => r())));
    expect(signal!.aborted).toBe(true);
  });

  it('a caller that goes away before the first byte: the gateway closes its upstream request', async () => {
    const upstream = await startLoopbackServer({ hang: true });
    try {
      const gw = await startGateway({ listen: 'openai-chat', upstream: 'openai-chat', client: { apiKey: 'upstream-key-0000000001', baseUrl: upstream.url } });
      open.push(gw);
      const body = JSON.stringify({ model: 'gpt-x', stream: true, messages: [{ role: 'user', content: 'hi' }] });
      const req = httpRequest(`${gw.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } });
      req.on('error', () => undefined);
      req.end(body);
      const got = await upstream.waitForRequest(0);
      expect(got.isSocketClosed).toBe(false);
      req.destroy();
      await got.socketClosed;
      expect(got.isSocketClosed).toBe(true);
    } finally {
      await upstream.close();
    }
  });

  it('a streamed answer written straight to the socket comes whole, CORS headers and all', async () => {
    const mock = await createMockServer({ provider: 'anthropic-messages', apiKey: 'upstream-key-0000000001', script: [{ reply: { text: 'one two three four' } }], chunk: 4 });
    open.push(mock);
    const gw = await startGateway({ listen: 'openai-chat', upstream: 'anthropic-messages', cors: ['http://app.example'], client: { apiKey: 'upstream-key-0000000001', baseUrl: mock.url } });
    open.push(gw);
    const res = await fetch(`${gw.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', origin: 'http://app.example' }, body: JSON.stringify({ model: 'claude-x', stream: true, messages: [{ role: 'user', content: 'hi' }] }) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('access-control-allow-origin')).toBe('http://app.example');
    const lines = (await res.text()).split('\n').filter((l) => l.startsWith('data: '));
    expect(lines.at(-1)).toBe('data: [DONE]');
    const chunks = lines.slice(0, -1).map((l) => JSON.parse(l.slice(6)) as { choices: Array<{ delta: { content?: string }; finish_reason: string | null }> });
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('one two three four');
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('stop');
  });

  it('the gateway answers a chunked request as it answers one with a length', async () => {
    const mock = await createMockServer({ provider: 'anthropic-messages', apiKey: 'upstream-key-0000000001', script: [{ reply: { text: 'chunked fine' } }] });
    open.push(mock);
    const gw = await startGateway({ listen: 'openai-chat', upstream: 'anthropic-messages', client: { apiKey: 'upstream-key-0000000001', baseUrl: mock.url } });
    open.push(gw);
    const body = JSON.stringify({ model: 'claude-x', messages: [{ role: 'user', content: 'hi' }] });
    const res = await send(gw.url, '/v1/chat/completions', { 'content-type': 'application/json' }, [body.slice(0, 10), body.slice(10)]);
    expect(res.status).toBe(200);
    const out = JSON.parse(res.text) as { choices: Array<{ message: { content: string } }> };
    expect(out.choices[0]!.message.content).toBe('chunked fine');
    expect(mock.requests).toHaveLength(1);
  });
});
