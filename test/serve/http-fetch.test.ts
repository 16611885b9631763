/**
 * The Node gateway's upstream transport (node/http-fetch.ts): a fetch over node:http with kept-alive
 * connections. Checked against a scripted server on 127.0.0.1: what is sent, a body streamed chunk
 * by chunk as it arrives, an error status with its body, aborts before and after the headers, a
 * cancelled body and a cut connection releasing the socket, a refused connection failing as fetch
 * fails, compressed bodies, and one connection reused until close().
 */
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeFetch, type NodeFetch } from '../../node/http-fetch.js';
import { startLoopbackServer, type LoopbackServer } from '../helpers/loopback-server.js';

let server: LoopbackServer | undefined;
let f: NodeFetch | undefined;
afterEach(async () => {
  f?.close();
  await server?.close();
  server = f = undefined;
});

const SSE_1 = 'event: message_start\ndata: {"type":"message_start"}\n\n';
const SSE_2 = 'event: message_stop\ndata: {"type":"message_stop"}\n\n';

async function readAll(res: Response): Promise<string[]> {
  const out: string[] = [];
  const reader = res.body!.getReader();
  const text = new TextDecoder();
  for (;;) {
    const r = await reader.read();
    if (r.done) return out;
    out.push(text.decode(r.value));
  }
}

describe('createNodeFetch', () => {
  it('sends the method, path, query, headers and body; answers status, headers and the body in the chunks it came in', async () => {
    server = await startLoopbackServer({ status: 200, headers: { 'content-type': 'text/event-stream', 'request-id': 'req_1' }, body: [SSE_1, SSE_2], chunkDelayMs: 30 });
    f = createNodeFetch();
    const body = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'héllo' }] });
    const res = await f(`${server.url}/v1/messages?beta=true`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'x-api-key': 'k-1' }, body });
    const got = server.requests[0]!;
    expect(got.method).toBe('POST');
    expect(got.url).toBe('/v1/messages?beta=true');
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['x-api-key']).toBe('k-1');
    // The byte length, not the string's: é is two bytes.
    expect(got.headers['content-length']).toBe(String(Buffer.byteLength(body)));
    expect(got.rawBody).toBe(body);
    expect(res.status).toBe(200);
    expect(res.ok).toBe(true);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('request-id')).toBe('req_1');
    // Written 30 ms apart: each write is its own read, nothing held back for the next.
    expect(await readAll(res)).toEqual([SSE_1, SSE_2]);
  });

  it('the chunks of a chunked body that came in one socket read are one read for the caller', async () => {
    // One write of a whole chunked response, three chunks in it: node's parser hands over each
    // on its own; the reader gets them together (one batch, one encode, one write in the gateway).
    const events = [SSE_1, 'event: ping\ndata: {"type":"ping"}\n\n', SSE_2];
    const wire = `HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n${events.map((e) => `${Buffer.byteLength(e).toString(16)}\r\n${e}\r\n`).join('')}0\r\n\r\n`;
    const raw = createNetServer((socket) => {
      socket.once('data', () => socket.write(wire));
      socket.on('error', () => undefined);
    });
    await new Promise<void>((r) => raw.listen(0, '127.0.0.1', r));
    const own = createNodeFetch();
    try {
      const res = await own(`http://127.0.0.1:${(raw.address() as AddressInfo).port}/v1/messages`, { method: 'POST', body: '{}' });
      expect(await readAll(res)).toEqual([events.join('')]);
    } finally {
      own.close();
      await new Promise((r) => raw.close(r));
    }
  });

  it('an error status comes back as a response with its body and headers, as fetch gives it', async () => {
    const error = JSON.stringify({ type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } });
    server = await startLoopbackServer({ status: 429, headers: { 'content-type': 'application/json', 'retry-after': '7' }, body: error });
    f = createNodeFetch();
    const res = await f(`${server.url}/v1/messages`, { method: 'POST', headers: {}, body: '{}' });
    expect(res.status).toBe(429);
    expect(res.ok).toBe(false);
    expect(res.headers.get('retry-after')).toBe('7');
    expect(await res.text()).toBe(error);
  });

  it('a 204 has no body', async () => {
    server = await startLoopbackServer({ status: 204 });
    f = createNodeFetch();
    const res = await f(`${server.url}/x`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
  });

  it('an abort before the headers rejects with the signal reason and closes the connection', async () => {
    server = await startLoopbackServer({ hang: true });
    f = createNodeFetch();
    const controller = new AbortController();
    const pending = f(`${server.url}/v1/messages`, { method: 'POST', body: '{}', signal: controller.signal });
    const got = await server.waitForRequest(0);
    const reason = new Error('caller went away');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    await got.socketClosed;
    expect(got.isSocketClosed).toBe(true);
  });

  it('an already aborted signal sends nothing', async () => {
    server = await startLoopbackServer({ body: 'x' });
    f = createNodeFetch();
    const controller = new AbortController();
    controller.abort();
    await expect(f(`${server.url}/x`, { method: 'POST', body: '{}', signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(server.requests).toHaveLength(0);
  });

  it('an abort mid-body fails the pending read with the reason and closes the connection', async () => {
    server = await startLoopbackServer({ headers: { 'content-type': 'text/event-stream' }, body: [SSE_1], keepOpen: true });
    f = createNodeFetch();
    const controller = new AbortController();
    const res = await f(`${server.url}/v1/messages`, { method: 'POST', body: '{}', signal: controller.signal });
    const reader = res.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe(SSE_1);
    const next = reader.read();
    const reason = new Error('cancelled upstream');
    controller.abort(reason);
    await expect(next).rejects.toBe(reason);
    await server.requests[0]!.socketClosed;
  });

  it('cancelling the body closes the connection (a stream the caller left)', async () => {
    server = await startLoopbackServer({ headers: { 'content-type': 'text/event-stream' }, body: [SSE_1], keepOpen: true });
    f = createNodeFetch();
    const res = await f(`${server.url}/v1/messages`, { method: 'POST', body: '{}' });
    const reader = res.body!.getReader();
    await reader.read();
    await reader.cancel();
    await server.requests[0]!.socketClosed;
    expect(server.requests[0]!.isSocketClosed).toBe(true);
  });

  it('a connection cut before the end of the body fails the read (not a clean end)', async () => {
    server = await startLoopbackServer({ headers: { 'content-type': 'text/event-stream' }, body: [SSE_1], destroyAfter: true });
    f = createNodeFetch();
    const res = await f(`${server.url}/v1/messages`, { method: 'POST', body: '{}' });
    await expect(readAll(res)).rejects.toThrow(/terminated/);
  });

  it('a body that cannot be decoded (labelled gzip, sent plain) fails the read and closes the connection: the upstream stops answering', async () => {
    server = await startLoopbackServer({ headers: { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' }, body: [SSE_1, SSE_2], keepOpen: true, chunkDelayMs: 20 });
    f = createNodeFetch();
    const res = await f(`${server.url}/v1/messages`, { method: 'POST', body: '{}' });
    await expect(readAll(res)).rejects.toThrow(/terminated/);
    await server.requests[0]!.socketClosed;
    expect(server.requests[0]!.isSocketClosed).toBe(true);
  });

  it('a status line whose reason phrase has a control character is a response without the phrase, not a throw in node\'s callback', async () => {
    const raw = createNetServer((socket) => {
      socket.once('data', () => socket.end('HTTP/1.1 200 O\x01K\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}'));
    });
    await new Promise<void>((r) => raw.listen(0, '127.0.0.1', r));
    try {
      f = createNodeFetch();
      const res = await f(`http://127.0.0.1:${(raw.address() as AddressInfo).port}/v1/x`, { method: 'POST', body: '{}' });
      expect(res.status).toBe(200);
      expect(res.statusText).toBe('');
      expect(await res.text()).toBe('{}');
    } finally {
      await new Promise((r) => raw.close(r));
    }
  });

  it('a refused connection fails as the global fetch does: a TypeError whose cause has the code', async () => {
    const probe = await startLoopbackServer({ body: '' });
    const url = probe.url;
    await probe.close();
    f = createNodeFetch();
    const error = await f(`${url}/v1/messages`, { method: 'POST', body: '{}' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe('fetch failed');
    expect(((error as Error).cause as { code?: string }).code).toBe('ECONNREFUSED');
  });

  it('a gzip body is decoded (asked for with accept-encoding, as fetch asks)', async () => {
    const text = `${SSE_1}${SSE_2}`;
    server = await startLoopbackServer({ headers: { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' }, body: gzipSync(text) });
    f = createNodeFetch();
    const res = await f(`${server.url}/v1/messages`, { method: 'POST', body: '{}' });
    expect(server.requests[0]!.headers['accept-encoding']).toMatch(/gzip/);
    expect((await readAll(res)).join('')).toBe(text);
  });

  it('keeps the connection for the next request; close() ends it', async () => {
    server = await startLoopbackServer({ headers: { 'content-type': 'application/json' }, body: '{"ok":true}' });
    f = createNodeFetch();
    for (let i = 0; i < 3; i++) expect(await (await f(`${server.url}/x`, { method: 'POST', body: '{}' })).text()).toBe('{"ok":true}');
    const first = server.requests[0]!;
    // One socket served all three: none of them saw it close.
    expect(server.requests.map((r) => r.isSocketClosed)).toEqual([false, false, false]);
    f.close();
    await first.socketClosed;
  });

  it('a redirect is followed as fetch follows it', async () => {
    const target = await startLoopbackServer({ headers: { 'content-type': 'application/json' }, body: '{"moved":true}' });
    try {
      server = await startLoopbackServer({ status: 307, headers: { location: `${target.url}/v2/x` } });
      f = createNodeFetch();
      const res = await f(`${server.url}/x`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
      expect(await res.text()).toBe('{"moved":true}');
      expect(target.requests[0]!.url).toBe('/v2/x');
      expect(target.requests[0]!.rawBody).toBe('{"a":1}');
    } finally {
      await target.close();
    }
  });
});
