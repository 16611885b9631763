/**
 * A tiny scripted HTTP server on 127.0.0.1 (port 0) for behaviour tests of the runtime's HTTP
 * path. It records every request (method, url, headers, body) and answers each one from a
 * script: a status, headers and body chunks written with optional delays, a response that keeps
 * the connection open after its last chunk, or one that never answers at all. Each recorded
 * request exposes a promise that settles when the client's socket closes, so a test can check
 * that cancelling a stream really releases the connection.
 *
 * No traffic leaves the machine: the server binds to 127.0.0.1 only.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One piece of a scripted body: bytes to write, or a pause before the next piece. */
export type BodyStep = string | Uint8Array | { delayMs: number };

export interface ScriptedResponse {
  /** Default 200. */
  status?: number;
  headers?: Record<string, string>;
  /** A whole body, or steps written one by one (each string is its own write). */
  body?: string | Uint8Array | BodyStep[];
  /** Pause between consecutive body writes (in addition to explicit `{ delayMs }` steps). */
  chunkDelayMs?: number;
  /** Send status and headers, write the body steps, then keep the response open forever. */
  keepOpen?: boolean;
  /** Never send anything: no status line, no headers. */
  hang?: boolean;
  /** After the body steps, destroy the connection abruptly instead of ending the response. */
  destroyAfter?: boolean;
}

export type Responder =
  | ScriptedResponse
  | ((request: RecordedRequest, index: number) => ScriptedResponse | Promise<ScriptedResponse>);

export interface RecordedRequest {
  method: string;
  url: string;
  /** Node's lower-cased header map. */
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** The body parsed as JSON; undefined when it is empty or not JSON. */
  body: unknown;
  /** `performance.now()` when the request (body included) had arrived. */
  receivedAt: number;
  /** Settles when the client's socket for this request closes. */
  socketClosed: Promise<void>;
  /** True once the client's socket closed. */
  readonly isSocketClosed: boolean;
}

export interface LoopbackServer {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  url: string;
  requests: RecordedRequest[];
  /** Resolves with the n-th request (0-based) once it has arrived, body included. */
  waitForRequest(n?: number): Promise<RecordedRequest>;
  /** Stops the server and destroys every open connection (hanging responses included). */
  close(): Promise<void>;
}

/**
 * Starts a server. With an array, request i gets responder i (the last one repeats); a function
 * responder sees the recorded request and its index.
 */
export async function startLoopbackServer(responders: Responder | Responder[]): Promise<LoopbackServer> {
  const list = Array.isArray(responders) ? responders : [responders];
  if (list.length === 0) throw new Error('startLoopbackServer: give at least one responder');
  const requests: RecordedRequest[] = [];
  const waiters: Array<{ n: number; resolve: (r: RecordedRequest) => void }> = [];
  const sockets = new Set<Socket>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let closing = false;
  // One close watcher per socket, shared by the requests a keep-alive socket serves (a listener
  // per request would pile up on the socket).
  const closes = new WeakMap<Socket, { closed: boolean; promise: Promise<void> }>();
  const closeOf = (socket: Socket) => {
    let c = closes.get(socket);
    if (!c) {
      const entry = { closed: socket.destroyed, promise: Promise.resolve() };
      if (!entry.closed) {
        entry.promise = new Promise<void>((resolve) =>
          socket.once('close', () => {
            entry.closed = true;
            resolve();
          }),
        );
      }
      closes.set(socket, (c = entry));
    }
    return c;
  };

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        timers.delete(t);
        resolve();
      }, ms);
      timers.add(t);
    });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const socketWatch = closeOf(req.socket);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = rawBody === '' ? undefined : JSON.parse(rawBody);
    } catch {
      body = undefined;
    }
    const recorded: RecordedRequest = {
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      rawBody,
      body,
      receivedAt: performance.now(),
      socketClosed: socketWatch.promise,
      get isSocketClosed() {
        return socketWatch.closed;
      },
    };
    const index = requests.push(recorded) - 1;
    for (const w of waiters.splice(0)) {
      if (w.n < requests.length) w.resolve(requests[w.n]!);
      else waiters.push(w);
    }

    const responder = list[Math.min(index, list.length - 1)]!;
    const script = typeof responder === 'function' ? await responder(recorded, index) : responder;
    if (script.hang) return;

    res.writeHead(script.status ?? 200, script.headers ?? {});
    res.flushHeaders();
    const steps: BodyStep[] =
      script.body === undefined ? [] : Array.isArray(script.body) ? script.body : [script.body as string | Uint8Array];
    let wrote = false;
    for (const step of steps) {
      if (res.destroyed || closing) return;
      if (typeof step === 'object' && !(step instanceof Uint8Array)) {
        await pause(step.delayMs);
        continue;
      }
      if (wrote && script.chunkDelayMs) await pause(script.chunkDelayMs);
      if (res.destroyed || closing) return;
      res.write(step);
      wrote = true;
    }
    if (res.destroyed) return;
    if (script.destroyAfter) {
      // Let the written chunks leave before the reset.
      await pause(5);
      res.socket?.destroy();
    } else if (!script.keepOpen) res.end();
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    closeOf(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    waitForRequest(n = 0) {
      if (n < requests.length) return Promise.resolve(requests[n]!);
      return new Promise((resolve) => waiters.push({ n, resolve }));
    },
    async close() {
      closing = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Splits a body's UTF-8 bytes into `parts` pieces of roughly equal size, for serving a stream in
 * several chunks. Cuts fall anywhere: inside an event, a JSON string or a multi-byte character.
 */
export function splitInto(text: string, parts: number): Uint8Array[] {
  const bytes = Buffer.from(text, 'utf8');
  const size = Math.max(1, Math.ceil(bytes.length / parts));
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

/** A JSON response script. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): ScriptedResponse {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) };
}

/** A text/event-stream response script. */
export function sseResponse(body: string | BodyStep[], extra: Partial<ScriptedResponse> = {}): ScriptedResponse {
  return {
    status: 200,
    ...extra,
    headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...(extra.headers ?? {}) },
    body,
  };
}
