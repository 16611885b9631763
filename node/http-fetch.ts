/**
 * The Node gateway's upstream transport: a `fetch` over node:http(s) with its own keep-alive
 * agents, for the calls the runtime client makes (a POST or GET with a text or byte body). The
 * global fetch (undici) costs about 0.15 ms more per call on loopback, most of it before the
 * first byte, and the gateway makes one such call per request (docs/serving.md#upstream-transport).
 * Whatever this does not take (a Request as input, a streamed or form body, a URL that is not
 * http(s), a redirect) goes to the global fetch, so every call still gets fetch's semantics.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { createBrotliDecompress, createGunzip, createInflate, constants as zlib } from 'node:zlib';
import type { Readable } from 'node:stream';

export interface NodeFetch {
  (input: string | URL | Request, init?: RequestInit): Promise<Response>;
  /** Ends the kept-alive connections (the gateway's close). */
  close(): void;
}

/** Idle connections are closed after this (the server's own `keep-alive: timeout` wins when shorter), as undici does. */
const IDLE_MS = 4000;

/** What fetch sends when the caller does not say (the same request as the global fetch's, to the upstream). */
const DEFAULTS: Record<string, string> = { accept: '*/*', 'accept-encoding': 'gzip, deflate, br', 'user-agent': 'node' };

/** Statuses whose responses have no body (the Response constructor refuses one). */
const NULL_BODY = new Set([101, 204, 205, 304]);
const REDIRECT = new Set([301, 302, 303, 307, 308]);

export function createNodeFetch(): NodeFetch {
  const agents = { 'http:': new HttpAgent({ keepAlive: true, timeout: IDLE_MS }), 'https:': new HttpsAgent({ keepAlive: true, timeout: IDLE_MS }) };
  const nodeFetch = (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const body = init.body;
    const url = typeof input === 'string' || input instanceof URL ? new URL(input) : undefined;
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || (body != null && typeof body !== 'string' && !(body instanceof Uint8Array)) || (init.redirect !== undefined && init.redirect !== 'follow')) {
      return globalThis.fetch(input, init);
    }
    const signal = init.signal ?? undefined;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const method = (init.method ?? 'GET').toUpperCase();
    const headers = headerRecord(init.headers);
    for (const k in DEFAULTS) if (!(k in headers)) headers[k] = DEFAULTS[k]!;
    if (body != null) headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
    else if (method === 'POST' || method === 'PUT') headers['content-length'] = '0';

    return new Promise<Response>((resolve, reject) => {
      let answered = false;
      let fail: (reason: unknown) => void = reject;
      const onAbort = () => {
        fail(signal!.reason);
        req.destroy();
      };
      const done = () => signal?.removeEventListener('abort', onAbort);
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const req = send(url, { method, headers, agent: agents[url.protocol as 'http:'] }, (res) => {
        answered = true;
        const status = res.statusCode ?? 0;
        if (REDIRECT.has(status) && res.headers.location) {
          // Followed as fetch follows it (its rules for methods and bodies), from the start.
          done();
          res.destroy();
          return resolve(globalThis.fetch(input, init));
        }
        if (status < 200 || status > 599) {
          done();
          res.destroy();
          return reject(new TypeError('fetch failed', { cause: new Error(`unexpected HTTP status ${status}`) }));
        }
        const list: Array<[string, string]> = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) list.push([res.rawHeaders[i]!, res.rawHeaders[i + 1]!]);
        const empty = NULL_BODY.has(status) || method === 'HEAD';
        const stream = empty ? null : bodyOf(res, (f) => (fail = f), done);
        if (empty) {
          done();
          res.resume();
        }
        // A reason phrase with a control character is refused by Response (the global fetch keeps
        // the status and passes it over): left out, so a malformed upstream line never throws here,
        // in node's callback, where nothing would catch it.
        const statusText = res.statusMessage && STATUS_TEXT.test(res.statusMessage) ? res.statusMessage : '';
        try {
          resolve(new Response(stream, { status, statusText, headers: list }));
        } catch (cause) {
          done();
          res.destroy();
          reject(new TypeError('fetch failed', { cause }));
        }
      });
      req.on('error', (error) => {
        done();
        // The global fetch's failure, so callers read the cause the same way (ECONNREFUSED, a reset).
        if (!answered) reject(signal?.aborted ? signal.reason : new TypeError('fetch failed', { cause: error }));
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      req.end(body ?? undefined);
    });
  };
  return Object.assign(nodeFetch, {
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  });
}

function headerRecord(given: HeadersInit | undefined): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  if (!given) return out;
  if (given instanceof Headers || Array.isArray(given)) {
    new Headers(given).forEach((v, k) => (out[k] = v));
    return out;
  }
  for (const k in given) out[k.toLowerCase()] = (given as Record<string, string>)[k]!;
  return out;
}

/**
 * The response body as a web stream: what each socket read brought, as it comes, paused while
 * the reader is behind, decoded when the server compressed it; cancelling it closes the
 * connection. `onFail` is how an abort after the headers reaches the reader.
 */
function bodyOf(res: IncomingMessage, onFail: (fail: (reason: unknown) => void) => void, done: () => void): ReadableStream<Uint8Array> {
  const source: Readable = decoded(res);
  let ended = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      // A body that fails (an abort, a decoding error, a cut connection) closes its connection too,
      // so the upstream stops answering and the socket never goes back to the pool mid-body.
      const stop = (reason: unknown) => {
        if (ended) return;
        ended = true;
        done();
        controller.error(reason);
        res.destroy();
      };
      onFail(stop);
      // What one socket read brought goes to the reader as one chunk: node's parser hands each
      // chunk of a chunked body over on its own (a streamed event each), and a reader per event
      // would cost the gateway a batch, an encode and a write per event.
      let pending: Buffer[] = [];
      let size = 0;
      let scheduled = false;
      const flush = () => {
        scheduled = false;
        if (ended || !pending.length) return;
        const chunk = pending.length === 1 ? pending[0]! : Buffer.concat(pending, size);
        pending = [];
        size = 0;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 1) <= 0) source.pause();
      };
      source.on('data', (chunk: Buffer) => {
        pending.push(chunk);
        size += chunk.byteLength;
        if (!scheduled) {
          scheduled = true;
          queueMicrotask(flush);
        }
      });
      source.on('end', () => {
        flush();
        if (ended) return;
        ended = true;
        done();
        controller.close();
      });
      source.on('error', (error) => stop(new TypeError('terminated', { cause: error })));
      // The connection closed before the body's end.
      res.on('close', () => {
        if (!res.complete) stop(new TypeError('terminated', { cause: new Error('the connection closed before the end of the body') }));
      });
    },
    pull() {
      if (source.isPaused()) source.resume();
    },
    cancel() {
      ended = true;
      done();
      res.destroy();
    },
  }, BUFFERED);
}

/** What Response takes as a reason phrase (HTTP's reason-phrase: tab, visible ASCII, obs-text). */
const STATUS_TEXT = /^[\t\x20-\x7e\x80-\xff]*$/;

/** Bytes read ahead of the reader before the socket is paused (a pause per chunk would cost more than it saves). */
const BUFFERED: QueuingStrategy<Uint8Array> = { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength };

function decoded(res: IncomingMessage): Readable {
  const coding = res.headers['content-encoding']?.trim().toLowerCase();
  // Flushed as it comes, so a compressed stream's events are not held back until a block fills.
  const flush = { flush: zlib.Z_SYNC_FLUSH, finishFlush: zlib.Z_SYNC_FLUSH };
  const decoder = coding === 'gzip' || coding === 'x-gzip' ? createGunzip(flush) : coding === 'deflate' ? createInflate(flush) : coding === 'br' ? createBrotliDecompress({ flush: zlib.BROTLI_OPERATION_FLUSH, finishFlush: zlib.BROTLI_OPERATION_FLUSH }) : undefined;
  if (!decoder) return res;
  res.on('error', (e) => decoder.destroy(e));
  return res.pipe(decoder);
}
