/**
 * A fetch handler on node:http: each request becomes a web `Request` (its signal aborts when the
 * client goes away), each `Response` is written back as its body streams, chunk by chunk. What
 * the gateway and the mock server need from Node and nothing more: body and header limits, and
 * a close that ends open streams. A handler that reads only what `ServedRequest` has (the
 * gateway's) can take a lighter request instead (`served: true`).
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { ServedRequest } from '../runtime/serve/served-request.js';
import { bodySource, type BodySource } from '../runtime/serve/body-source.js';

export type FetchHandler = (request: Request) => Response | Promise<Response>;
/** A handler that reads a request only as `ServedRequest` does (createGateway's). */
export type ServedHandler = (request: ServedRequest) => Response | Promise<Response>;

export interface ListenOptions {
  /** Default 0 (any free port). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /**
   * Largest request body accepted; larger ones get `tooLarge()` (default 413, plain), once the rest
   * of the body was read and discarded (up to 4× the limit, at least 16 MiB). Default 4 MiB.
   */
  bodyLimit?: number;
  /** The answer to a body over the limit, in the protocol's own shape (the request comes without its body). */
  tooLarge?: (request: Request) => Response | Promise<Response>;
  /** Time allowed for the request's headers and body to arrive. Default 30 s. */
  requestTimeoutMs?: number;
  /**
   * The handler takes a `ServedRequest` over node:http's own request rather than a web `Request`
   * (no body stream or second abort signal made per request: the gateway's first byte).
   */
  served?: boolean;
}

export interface Listening {
  /** `http://<host>:<port>`, no trailing slash. */
  url: string;
  close(): Promise<void>;
}

export function listen(handler: FetchHandler, options?: ListenOptions & { served?: false }): Promise<Listening>;
export function listen(handler: ServedHandler, options: ListenOptions & { served: true }): Promise<Listening>;
export async function listen(handler: FetchHandler | ServedHandler, options: ListenOptions = {}): Promise<Listening> {
  const limit = options.bodyLimit ?? 4 * 1024 * 1024;
  const bound = Math.max(limit * 4, DISCARD_AT_LEAST);
  const sockets = new Set<Socket>();
  const timeout = options.requestTimeoutMs ?? 30_000;
  // Node checks the request timeouts only this often: often enough for the timeout to mean something.
  const server = createServer({ requestTimeout: timeout, headersTimeout: timeout, connectionsCheckingInterval: Math.max(50, Math.min(1000, timeout / 4)) }, (req, res) => {
    void serve(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const controller = new AbortController();
    // The client went away before the answer was written: whatever it started is cancelled.
    res.on('close', () => {
      if (!res.writableFinished) controller.abort();
    });
    const declared = Number(req.headers['content-length'] ?? 0);
    // Past the limit the body is read on and discarded up to the bound: a client still sending when
    // the connection closed would get a reset instead of the 413. Beyond the bound it is not read.
    const body = declared > bound ? undefined : await readBody(req, declared > limit ? 0 : limit, bound);
    // The handler reads the path and query; the host only makes the URL whole (an IPv6 one would need brackets).
    const url = `http://localhost${req.url ?? '/'}`;
    if (options.served && body !== undefined) {
      await write(res, await (handler as ServedHandler)(new NodeRequest(req, url, body, controller.signal)), controller.signal, false);
      // The answer is written: what the handler started for it and did not hand over (a streamed
      // body left behind by a Response it rebuilt) ends now, its upstream request with it.
      controller.abort();
      return;
    }
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
    if (body === undefined) return write(res, (await options.tooLarge?.(new Request(url, { method: req.method ?? 'POST', headers }))) ?? new Response('request body too large', { status: 413 }), controller.signal, true);
    const request = new Request(url, {
      method: req.method ?? 'GET',
      headers,
      signal: controller.signal,
      ...(req.method === 'GET' || req.method === 'HEAD' ? {} : { body: body as Uint8Array<ArrayBuffer> }),
    });
    await write(res, await (handler as FetchHandler)(request), controller.signal, false);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve);
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A request read as `ServedRequest` reads it, over node:http's: its headers looked up where node keeps them, its body the bytes already read. */
class NodeRequest implements ServedRequest {
  readonly headers: ServedRequest['headers'];
  /** A streamed answer's body source is written here, not read through a web stream. */
  readonly direct = true;
  constructor(
    private readonly req: IncomingMessage,
    readonly url: string,
    private readonly bytes: Uint8Array<ArrayBuffer>,
    readonly signal: AbortSignal,
  ) {
    this.headers = headerView(req.headers);
  }
  get method(): string {
    return this.req.method ?? 'GET';
  }
  /** Made only when asked for (a body without a declared length). */
  get body(): ReadableStream<Uint8Array> | null {
    if (this.method === 'GET' || this.method === 'HEAD') return null;
    const bytes = this.bytes;
    return new ReadableStream<Uint8Array>({
      start(c) {
        if (bytes.length) c.enqueue(bytes);
        c.close();
      },
    });
  }
  text(): Promise<string> {
    return Promise.resolve(UTF8.decode(this.bytes));
  }
}

const UTF8 = new TextDecoder();

/** Node's header object (names in lower case, repeats as a list) as get/has; an inherited name is no header. */
function headerView(h: IncomingHttpHeaders): ServedRequest['headers'] {
  const at = (name: string): string | null => {
    const k = name.toLowerCase();
    const v = Object.hasOwn(h, k) ? h[k] : undefined;
    return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
  };
  return { get: at, has: (name) => at(name) !== null };
}

/** A body source (body-source.ts) written as it makes its chunks: no web stream between it and the socket. */
async function writeSource(res: ServerResponse, source: BodySource, signal: AbortSignal): Promise<void> {
  const chunks: Uint8Array[] = [];
  let closed = false;
  const controller = { enqueue: (chunk: Uint8Array) => void chunks.push(chunk), close: () => void (closed = true) };
  const cancel = () => {
    if (closed) return;
    closed = true;
    source.cancel();
  };
  signal.addEventListener('abort', cancel, { once: true });
  try {
    while (!closed) {
      await source.pull(controller);
      // Each chunk goes out as it is made; node:http corks the socket for the rest of the tick.
      for (const chunk of chunks) if (!res.destroyed && !res.write(chunk)) await drained(res);
      chunks.length = 0;
      if (res.destroyed) return cancel();
    }
  } catch {
    // The source failed: the connection ends where it is.
    cancel();
  } finally {
    signal.removeEventListener('abort', cancel);
    res.end();
  }
}

/** Until the response can take more, or is closed; neither listener outlives the wait. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise<void>((resolve) => {
    // Closed already (the caller went away): its 'close' has fired, and no 'drain' will come.
    if (res.destroyed || res.closed) return resolve();
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** Bytes of an oversized body read and discarded before its 413, whatever the limit. */
const DISCARD_AT_LEAST = 16 * 1024 * 1024;

/**
 * The body; undefined once it passes the limit, after the rest was read and discarded (up to
 * `bound` bytes in all: then no more is read), or when the client went away before its end.
 * Read without `for await`: leaving that loop early destroys the request, and its socket with it.
 */
function readBody(req: IncomingMessage, limit: number, bound: number): Promise<Uint8Array<ArrayBuffer> | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (body: Uint8Array<ArrayBuffer> | undefined) => {
      req.off('data', data).off('end', end).off('error', reject).off('close', closed);
      resolve(body);
    };
    const data = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else if (size > bound) {
        req.pause();
        settle(undefined);
      }
    };
    const end = () => settle(size > limit ? undefined : new Uint8Array(Buffer.concat(chunks)));
    const closed = () => settle(undefined);
    req.on('data', data).on('end', end).on('error', reject).on('close', closed);
  });
}

async function write(res: ServerResponse, response: Response, signal: AbortSignal, close: boolean): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((v, k) => (headers[k] = v));
  if (close) headers.connection = 'close';
  res.writeHead(response.status, headers);
  const source = bodySource(response);
  if (source) return writeSource(res, source, signal);
  if (!response.body) return void res.end();
  const reader = response.body.getReader();
  signal.addEventListener('abort', () => void reader.cancel().catch(() => undefined), { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      // Each chunk goes out as it is made (no buffering behind later ones); node:http corks the socket
      // for the rest of the tick, so the chunks of one tick already leave in one socket write.
      if (!res.write(value)) await drained(res);
      if (res.destroyed) break;
    }
  } catch {
    // The handler's stream failed or was cancelled: the connection ends where it is.
  } finally {
    res.end();
  }
}
