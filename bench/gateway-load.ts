/**
 * The gateway under load over 127.0.0.1: what it adds to a blocking (non-streamed) request's
 * latency, p50 and p99, at several numbers of concurrent clients, and its throughput at a fixed
 * added p99. A mock of the upstream protocol answers a short turn; `clients` callers each send
 * their next request as soon as the last one is answered (closed loop), with fetch, in the wire
 * form the spec's client sends: straight to the mock, then through the gateway in front of it
 * (listen protocol), in blocks that alternate, so drift lands on both alike. Mock, gateway and
 * callers share one process and thread: a latency holds the CPU of all of them, and "added" is
 * through − direct at the same concurrency.
 */
import { createMockServer, startGateway, type MockServer } from '../node/index.js';
import type { Listening } from '../node/listen.js';
import { adapters, type ProviderAdapter } from '../generated/index.js';
import { buildHeaders, buildUrl } from '../runtime/client/build-http.js';

export interface GatewayLoadJob {
  mode: 'gateway-load';
  listen: string;
  upstream: string;
  /** Concurrent clients per level, in order. */
  levels: number[];
  /** Requests timed per side and level (after `warmup` untimed ones per side). */
  requests: number;
  warmup: number;
  /** Blocks per side and level: each side's requests are split into this many, alternating. */
  blocks: number;
}

export interface GatewayLoadLevel {
  clients: number;
  /** Latency of one request, ms: direct to the mock and through the gateway, p50 and p99. */
  directP50: number;
  directP99: number;
  viaP50: number;
  viaP99: number;
  /** Requests answered per second through the gateway at this level (wall time of its blocks). */
  viaRps: number;
  directRps: number;
}

export interface GatewayLoadRow {
  ok: boolean;
  listen: string;
  upstream: string;
  requests: number;
  levels: GatewayLoadLevel[];
  error?: string;
}

const UPSTREAM_KEY = 'bench-upstream-key-0123456789';
const TOKEN = 'bench-gateway-token-0123456789';
const MODEL = 'bench-model';
const SHORT = 'Hello from the bench.';

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!;
}

function blockingRequest(id: string, baseUrl: string, key: string): { url: string; init: RequestInit } {
  const adapter = (adapters as Record<string, ProviderAdapter | undefined>)[id];
  if (!adapter) throw new Error(`no built-in spec "${id}"`);
  const built = adapter.buildRequest({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] }, 'blocking');
  const url = buildUrl(adapter, baseUrl, false, built.pathParams);
  const headers = buildHeaders(adapter.endpoint, key, false, [], false);
  return { url, init: { method: 'POST', headers, body: JSON.stringify(built.body) } };
}

/** `count` requests from `clients` closed-loop callers: each latency (ms) and the wall time. */
async function load(req: { url: string; init: RequestInit }, clients: number, count: number, check: (body: string) => boolean): Promise<{ latencies: number[]; wall: number; bad: number }> {
  const latencies: number[] = [];
  let left = count;
  let bad = 0;
  const caller = async () => {
    while (left > 0) {
      left--;
      const t0 = performance.now();
      const res = await fetch(req.url, req.init);
      const body = await res.text();
      latencies.push(performance.now() - t0);
      if (res.status !== 200 || !check(body)) bad++;
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: Math.min(clients, count) }, caller));
  return { latencies, wall: performance.now() - t0, bad };
}

export async function gatewayLoadBench(job: GatewayLoadJob): Promise<GatewayLoadRow> {
  const servers: Array<MockServer | Listening> = [];
  try {
    const mock = await createMockServer({ provider: job.upstream, apiKey: UPSTREAM_KEY, script: [{ reply: { text: SHORT } }] });
    servers.push(mock);
    const gateway = await startGateway({ listen: job.listen, upstream: job.upstream, clientToken: TOKEN, client: { apiKey: UPSTREAM_KEY, baseUrl: mock.url, maxRetries: 0 } });
    servers.push(gateway);
    const sides = { direct: blockingRequest(job.upstream, mock.url, UPSTREAM_KEY), via: blockingRequest(job.listen, gateway.url, TOKEN) };
    // Each answer must hold the reply's text (a JSON string: the text has nothing to escape).
    const check = (body: string) => body.includes(SHORT);
    let bad = 0;
    const levels: GatewayLoadLevel[] = [];
    for (const clients of job.levels) {
      for (const side of ['direct', 'via'] as const) bad += (await load(sides[side], clients, Math.max(job.warmup, clients), check)).bad;
      const lat = { direct: [] as number[], via: [] as number[] };
      const wall = { direct: 0, via: 0 };
      const per = Math.max(clients, Math.ceil(job.requests / job.blocks));
      for (let b = 0; b < job.blocks; b++) {
        for (const side of b % 2 ? (['via', 'direct'] as const) : (['direct', 'via'] as const)) {
          const r = await load(sides[side], clients, per, check);
          lat[side].push(...r.latencies);
          wall[side] += r.wall;
          bad += r.bad;
        }
      }
      const d = lat.direct.sort((a, b) => a - b);
      const v = lat.via.sort((a, b) => a - b);
      levels.push({ clients, directP50: quantile(d, 0.5), directP99: quantile(d, 0.99), viaP50: quantile(v, 0.5), viaP99: quantile(v, 0.99), directRps: (d.length * 1000) / wall.direct, viaRps: (v.length * 1000) / wall.via });
    }
    return { ok: bad === 0, listen: job.listen, upstream: job.upstream, requests: job.requests, levels, ...(bad ? { error: `${bad} answers without the reply (or not 200)` } : {}) };
  } finally {
    for (const s of servers.reverse()) await s.close();
  }
}
