/**
 * The gateway over 127.0.0.1: what it adds per streamed event, and to the time to first byte.
 * One listen → upstream pair per process. A mock of the upstream protocol (node:http) streams a
 * turn of N text deltas; this library's client reads it to final() (a) straight from the mock,
 * in the upstream protocol, and (b) through the gateway in front of the same mock, in the listen
 * protocol. For context, (c) a mock of the listen protocol read straight (what the caller's own
 * protocol costs without a hop). Mock, gateway and client share this one process and thread, so
 * a time is the CPU of all three together (loopback sockets included): the difference (b) − (a)
 * is the gateway's own work per event, with its extra HTTP hop.
 *
 * For scale, the client alone: the same two bodies (as they arrived, chunk by chunk) read to
 * final() from an injected fetch, in memory; what is left of "direct" is the mock and HTTP.
 *
 * Time to first byte: a short turn asked for with fetch (the request the listen / upstream spec
 * builds), from the call to the first chunk of the response body; then the rest is drained.
 * Direct and gateway requests alternate (which goes first swaps every request), after warm-up.
 */
import { createMockServer, startGateway, type MockServer } from '../node/index.js';
import type { Listening } from '../node/listen.js';
import { adapters, createClient, type ProviderAdapter, type ProviderId } from '../generated/index.js';
import { buildHeaders, buildUrl } from '../runtime/client/build-http.js';

export interface GatewayJob {
  mode: 'gateway';
  listen: string;
  upstream: string;
  /** Text deltas in the streamed turn (8 code points each). */
  events: number;
  warmup: number;
  rounds: number;
  /** Time-to-first-byte requests timed, per side (after `ttfbWarmup` untimed ones). */
  requests: number;
  ttfbWarmup: number;
  /** Further untimed requests per side before the time to first byte is timed again, warm (a serving gateway's state). */
  ttfbSteadyWarmup: number;
}

export interface GatewayRow {
  ok: boolean;
  listen: string;
  upstream: string;
  events: number;
  /** Median ms to read the streamed turn to final(): from the upstream mock; through the gateway; from a mock of the listen protocol. */
  direct: number;
  via: number;
  directListen: number;
  /** Median ms of the client alone reading the same bodies from memory: upstream protocol (as direct), listen protocol (as through the gateway). */
  memDirect: number;
  memVia: number;
  /** Body sizes of the streamed turn: upstream protocol (direct), listen protocol (through the gateway). */
  bytesDirect: number;
  bytesVia: number;
  /** Body chunks the caller's reads got: direct, through the gateway (one per event = no coalescing). */
  chunksDirect: number;
  chunksVia: number;
  /** Process warnings seen (e.g. MaxListenersExceededWarning from the listener), by name. */
  warnings: Record<string, number>;
  /** Time to first body chunk, µs: median and 90th percentile, direct and through the gateway. */
  ttfbDirect: number;
  ttfbVia: number;
  ttfbDirectP90: number;
  ttfbViaP90: number;
  /** The same, timed again after `ttfbSteadyWarmup` more requests per side: a gateway that has been serving. */
  ttfbDirectWarm: number;
  ttfbViaWarm: number;
  ttfbDirectWarmP90: number;
  ttfbViaWarmP90: number;
  requests: number;
  error?: string;
}

const UPSTREAM_KEY = 'bench-upstream-key-0123456789';
const TOKEN = 'bench-gateway-token-0123456789';
const MODEL = 'bench-model';
const SHORT = 'Hello from the bench.';

const v8gc = (globalThis as { gc?: (options?: { type: 'minor' | 'major' }) => void }).gc;
const gc = () => v8gc?.({ type: 'minor' });

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * q))]!;
}
const median = (xs: number[]) => quantile(xs, 0.5);

/** N pieces of exactly 8 code points (the mock cuts text every 8). */
function longText(events: number): string {
  let s = '';
  for (let i = 0; i < events; i++) s += `w${String(i % 9973).padStart(6, '0')} `;
  return s;
}

function adapterOf(id: string): ProviderAdapter {
  const a = (adapters as Record<string, ProviderAdapter | undefined>)[id];
  if (!a) throw new Error(`no built-in spec "${id}"`);
  return a;
}

/** A raw streaming request in a spec's wire form, as its client would send it. */
function rawRequest(id: string, baseUrl: string, key: string, text: string): { url: string; init: RequestInit } {
  const adapter = adapterOf(id);
  const built = adapter.buildRequest({ model: MODEL, messages: [{ role: 'user', content: text }] }, 'stream');
  const url = buildUrl(adapter, baseUrl, true, built.pathParams);
  const headers = buildHeaders(adapter.endpoint, key, true, [], false);
  return { url, init: { method: 'POST', headers, body: JSON.stringify(built.body) } };
}

interface Read {
  us: number;
  bytes: number;
  chunks: Uint8Array[];
  type: string;
}

/** µs from the call to the first body chunk; the body is then read to its end (kept when asked). */
async function firstByte(req: { url: string; init: RequestInit }, keep = false): Promise<Read> {
  const t0 = performance.now();
  const res = await fetch(req.url, req.init);
  if (res.status !== 200 || !res.body) throw new Error(`${req.url}: HTTP ${res.status} ${(await res.text()).slice(0, 200)}`);
  const reader = res.body.getReader();
  let r = await reader.read();
  const us = (performance.now() - t0) * 1000;
  let bytes = 0;
  const chunks: Uint8Array[] = [];
  while (!r.done) {
    bytes += r.value.length;
    if (keep) chunks.push(r.value);
    r = await reader.read();
  }
  return { us, bytes, chunks, type: res.headers.get('content-type') ?? '' };
}

/** A fetch that answers with these chunks, from memory. */
function replay(read: Read): typeof globalThis.fetch {
  return (async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(c) {
          for (const x of read.chunks) c.enqueue(x);
          c.close();
        },
      }),
      { headers: { 'content-type': read.type } },
    )) as typeof globalThis.fetch;
}

export async function gatewayBench(job: GatewayJob): Promise<GatewayRow> {
  const text = longText(job.events);
  // The long turn by default; the short one for first-byte requests (their last user text says so).
  const script = [{ when: { lastUserText: 'ttfb' }, reply: { text: SHORT } }, { reply: { text } }];
  const servers: Array<MockServer | Listening> = [];
  const warnings: Record<string, number> = {};
  const onWarning = (w: Error) => void (warnings[w.name] = (warnings[w.name] ?? 0) + 1);
  process.on('warning', onWarning);
  try {
    const mock = await createMockServer({ provider: job.upstream, apiKey: UPSTREAM_KEY, script, chunk: 8, delayMs: 0 });
    servers.push(mock);
    const gateway = await startGateway({ listen: job.listen, upstream: job.upstream, clientToken: TOKEN, client: { apiKey: UPSTREAM_KEY, baseUrl: mock.url, maxRetries: 0 } });
    servers.push(gateway);
    const listenMock = job.listen === job.upstream ? mock : await createMockServer({ provider: job.listen, apiKey: UPSTREAM_KEY, script, chunk: 8, delayMs: 0 });
    if (listenMock !== mock) servers.push(listenMock);

    // The long bodies as the caller's reads get them: their size, their chunks, and a replay of each.
    const longDirect = await firstByte(rawRequest(job.upstream, mock.url, UPSTREAM_KEY, 'hi'), true);
    const longVia = await firstByte(rawRequest(job.listen, gateway.url, TOKEN, 'hi'), true);

    const client = (id: string, baseUrl: string, apiKey: string, fetch?: typeof globalThis.fetch) => createClient(id as ProviderId, { apiKey, baseUrl, model: MODEL, maxRetries: 0, ...(fetch ? { fetch } : {}) });
    const sides = {
      direct: client(job.upstream, mock.url, UPSTREAM_KEY),
      via: client(job.listen, gateway.url, TOKEN),
      directListen: client(job.listen, listenMock.url, UPSTREAM_KEY),
      memDirect: client(job.upstream, mock.url, UPSTREAM_KEY, replay(longDirect)),
      memVia: client(job.listen, gateway.url, TOKEN, replay(longVia)),
    };
    type Side = keyof typeof sides;
    const read = async (side: Side) => (await sides[side].stream({ messages: [{ role: 'user', content: 'hi' }] }).final()).text;

    // First runs check the whole text arrives every way (and warm up).
    let ok = true;
    const wrong: string[] = [];
    for (const side of Object.keys(sides) as Side[]) {
      const got = await read(side);
      if (got !== text) {
        ok = false;
        wrong.push(`${side}: ${got === null ? 'no text' : `${got.length} of ${text.length} chars`}`);
      }
    }
    for (let i = 1; i < job.warmup; i++) for (const side of Object.keys(sides) as Side[]) await read(side);
    const order = Object.keys(sides) as Side[];
    const times = Object.fromEntries(order.map((k) => [k, [] as number[]])) as Record<Side, number[]>;
    // Every round runs each side once, in an order that rotates, so drift lands on all alike.
    for (let r = 0; r < job.rounds; r++) {
      for (let k = 0; k < order.length; k++) {
        const side = order[(r + k) % order.length]!;
        gc();
        const t0 = performance.now();
        await read(side);
        times[side].push(performance.now() - t0);
      }
    }

    // Time to first byte.
    const directReq = rawRequest(job.upstream, mock.url, UPSTREAM_KEY, 'ttfb');
    const viaReq = rawRequest(job.listen, gateway.url, TOKEN, 'ttfb');
    for (let i = 0; i < job.ttfbWarmup; i++) {
      await firstByte(directReq);
      await firstByte(viaReq);
    }
    const timed = async () => {
      const t = { direct: [] as number[], via: [] as number[] };
      for (let i = 0; i < job.requests; i++) {
        const pair = i % 2 ? (['via', 'direct'] as const) : (['direct', 'via'] as const);
        for (const side of pair) t[side].push((await firstByte(side === 'direct' ? directReq : viaReq)).us);
      }
      return t;
    };
    const ttfb = await timed();
    // Then as a gateway that has been serving a while: the optimizing compiler has reached the
    // request path on both sides (a fresh process runs most of it in the interpreter).
    for (let i = 0; i < job.ttfbSteadyWarmup; i++) {
      await firstByte(directReq);
      await firstByte(viaReq);
    }
    const warm = await timed();

    return {
      ok,
      listen: job.listen,
      upstream: job.upstream,
      events: job.events,
      direct: median(times.direct),
      via: median(times.via),
      directListen: median(times.directListen),
      memDirect: median(times.memDirect),
      memVia: median(times.memVia),
      bytesDirect: longDirect.bytes,
      bytesVia: longVia.bytes,
      chunksDirect: longDirect.chunks.length,
      chunksVia: longVia.chunks.length,
      warnings,
      ttfbDirect: median(ttfb.direct),
      ttfbVia: median(ttfb.via),
      ttfbDirectP90: quantile(ttfb.direct, 0.9),
      ttfbViaP90: quantile(ttfb.via, 0.9),
      ttfbDirectWarm: median(warm.direct),
      ttfbViaWarm: median(warm.via),
      ttfbDirectWarmP90: quantile(warm.direct, 0.9),
      ttfbViaWarmP90: quantile(warm.via, 0.9),
      requests: job.requests,
      ...(ok ? {} : { error: `incomplete text: ${wrong.join('; ')}` }),
    };
  } finally {
    for (const s of servers.reverse()) await s.close();
    process.off('warning', onWarning);
  }
}
