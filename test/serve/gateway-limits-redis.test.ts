/**
 * Limits on Redis (docs/serving.md#limits), with a real redis-server on 127.0.0.1: two gateway
 * processes on one Redis hold one limit together (requests per minute, concurrent streams); a
 * gateway that loses Redis mid-run answers by its policy (open: requests go uncounted; closed:
 * 503) and counts again once Redis is back. redis-server missing is a failure, not a skip.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startGateway } from '../../node/index.js';
import { createRedisLimiter } from '../../node/limits/redis-limiter.js';
import type { Listening } from '../../node/listen.js';
import { startLoopbackServer, type LoopbackServer, type ScriptedResponse } from '../helpers/loopback-server.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';

const KEY = 'sk-upstream-redis-limits-01';
const TEAM = 'team-token-redis-0123456789';
const answer: ScriptedResponse = {
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'gpt-test', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } }),
};
const chunk = (choices: unknown[]) => `data: ${JSON.stringify({ id: 'chatcmpl-2', object: 'chat.completion.chunk', created: 1, model: 'gpt-test', choices })}\n\n`;
/** A streamed Chat Completions turn that stays open `holdMs` after its first chunk. */
const streamed = (holdMs: number): ScriptedResponse => ({
  headers: { 'content-type': 'text/event-stream' },
  body: [chunk([{ index: 0, delta: { role: 'assistant', content: 'he' }, finish_reason: null }]), { delayMs: holdMs }, chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]), 'data: [DONE]\n\n'],
});

const ask = (url: string, stream = false) =>
  fetch(`${url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${TEAM}` }, body: JSON.stringify({ model: 'gpt-test', stream, messages: [{ role: 'user', content: 'hi' }] }) });

/** A gateway in a child process of its own (test/helpers/gateway-process.ts). */
async function gatewayProcess(options: Record<string, unknown>): Promise<{ url: string; stop(): Promise<void> }> {
  const tsx = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));
  const script = fileURLToPath(new URL('../helpers/gateway-process.ts', import.meta.url));
  const child: ChildProcess = spawn(tsx, [script, JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the gateway process did not start: ${err}`)), 20_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening (\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`the gateway process exited (${code}): ${err}`)));
  });
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.removeAllListeners('exit');
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

let redis: RedisServer;
let up: LoopbackServer;
beforeAll(async () => {
  redis = await startRedisServer();
  up = await startLoopbackServer((r) => ((r.body as { stream?: boolean }).stream ? streamed(600) : answer));
}, 20_000);
afterAll(async () => {
  await up?.close();
  await redis?.close();
});

describe('two gateway processes on one Redis', () => {
  it('hold one 10 requests per minute limit together: the 11th request through either gets 429', async () => {
    const options = (name: string) => ({ listen: 'openai-chat', upstream: 'openai-chat', client: { apiKey: KEY, baseUrl: up.url }, redis: redis.url, clients: [{ name, token: TEAM, limits: { requestsPerMinute: 10 } }] });
    const [a, b] = await Promise.all([gatewayProcess(options('rpm-team')), gatewayProcess(options('rpm-team'))]);
    try {
      const before = up.requests.length;
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) statuses.push((await ask(i % 2 ? b.url : a.url)).status);
      expect(statuses).toEqual(Array(10).fill(200));
      for (const gw of [a, b]) {
        const res = await ask(gw.url);
        expect(res.status).toBe(429);
        // One request every 60/10 = 6 s: the wait is at most that, and a whole second at least.
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(6);
        expect(res.headers.get('x-wireforge-error-source')).toBe('gateway');
        expect(((await res.json()) as { error: { type: string } }).error.type).toBe('rate_limit_error');
      }
      expect(up.requests.length - before).toBe(10);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  }, 60_000);

  it('rest a key together: a 429 on key A through one instance rests A in the other, until its retry-after is over', async () => {
    const [keyA, keyB] = ['sk-pool-shared-key-aaaa', 'sk-pool-shared-key-bbbb'];
    // Key A is refused (retry-after 1 s) while `busy`; key B always answers.
    let busy = true;
    const pooled = await startLoopbackServer((r) =>
      busy && r.headers.authorization === `Bearer ${keyA}`
        ? { status: 429, headers: { 'content-type': 'application/json', 'retry-after': '1' }, body: JSON.stringify({ error: { message: 'Rate limit reached', type: 'requests', code: null } }) }
        : answer,
    );
    const config = {
      listen: 'openai-chat',
      redis: redis.url,
      clients: [{ name: 'pool-team', token: TEAM }],
      routes: [{ model: 'gpt-test', targets: [{ spec: 'openai-chat', baseUrl: pooled.url, key: { keys: [keyA, keyB] } }] }],
    };
    const [a, b] = await Promise.all([gatewayProcess(config), gatewayProcess(config)]);
    const keysSeen = () => pooled.requests.map((r) => (r.headers.authorization === `Bearer ${keyA}` ? 'A' : 'B'));
    try {
      // Through a: A first (429, rested), then B answers.
      expect((await ask(a.url)).status).toBe(200);
      expect(keysSeen()).toEqual(['A', 'B']);
      // b's pool would start with A too; the rest a told reaches it through Redis.
      await new Promise((r) => setTimeout(r, 300));
      expect((await ask(b.url)).status).toBe(200);
      expect(keysSeen()).toEqual(['A', 'B', 'B']);
      // After its retry-after, A is back in b.
      busy = false;
      await new Promise((r) => setTimeout(r, 1100));
      const seen = keysSeen().length;
      await ask(b.url);
      await ask(b.url);
      expect(keysSeen().slice(seen).sort()).toEqual(['A', 'B']);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
      await pooled.close();
    }
  }, 60_000);

  it('rests are heard after Redis was away when the instance began to listen, and after Redis comes back', async () => {
    const own = await startRedisServer();
    const quiet = { onStateChange: () => {} };
    const [a, b] = await Promise.all([createRedisLimiter({ url: own.url, ...quiet }), createRedisLimiter({ url: own.url, ...quiet })]);
    try {
      const heard: Array<[string, number]> = [];
      await own.stop();
      // b begins to listen while Redis is away: its subscription waits for Redis instead of being lost.
      b.rests!.hear((id, ms) => heard.push([id, ms]));
      await new Promise((r) => setTimeout(r, 300));
      await own.start();
      await vi.waitFor(
        () => {
          a.rests!.tell('0123456789abcdef', 1500);
          expect(heard).toContainEqual(['0123456789abcdef', 1500]);
        },
        { timeout: 10_000, interval: 200 },
      );
    } finally {
      await Promise.all([a.close?.(), b.close?.()]);
      await own.close();
    }
  }, 30_000);

  it('hold one concurrent-streams limit: a stream open on one refuses a second on the other, until it ends', async () => {
    const options = { listen: 'openai-chat', upstream: 'openai-chat', client: { apiKey: KEY, baseUrl: up.url }, redis: redis.url, clients: [{ name: 'stream-team', token: TEAM, limits: { concurrentStreams: 1 } }] };
    const [a, b] = await Promise.all([gatewayProcess(options), gatewayProcess(options)]);
    try {
      const first = await ask(a.url, true);
      expect(first.status).toBe(200);
      const second = await ask(b.url, true);
      expect(second.status).toBe(429);
      expect(second.headers.get('retry-after')).toBe('1');
      await second.text();
      expect(await first.text()).toContain('[DONE]');
      // The slot is given back as the stream ends; the release is on its way to Redis.
      let again = await ask(b.url, true);
      for (let i = 0; i < 20 && again.status === 429; i++) {
        await again.text();
        await new Promise((r) => setTimeout(r, 50));
        again = await ask(b.url, true);
      }
      expect(again.status).toBe(200);
      await again.text();
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  }, 60_000);
});

describe('tokens per minute on Redis', () => {
  it('counts the usage each answer reports in Redis: 5 + 5 of 10 per minute, then a 6 s wait for 1 token', async () => {
    const gw = await startGateway({ listen: 'openai-chat', upstream: 'openai-chat', client: { apiKey: KEY, baseUrl: up.url }, redis: redis.url, clients: [{ name: 'tpm-team', token: TEAM, limits: { tokensPerMinute: 10 } }] });
    try {
      expect((await ask(gw.url)).status).toBe(200);
      expect((await ask(gw.url)).status).toBe(200);
      // The count goes to Redis as the answer does, on the connection the next check will use: it is there first.
      const res = await ask(gw.url);
      expect(res.status).toBe(429);
      // 0 left; 1 token comes back every 60/10 = 6 s.
      expect(res.headers.get('retry-after')).toBe('6');
      expect(((await res.json()) as { error: { message: string } }).error.message).toContain('tokens per minute');
    } finally {
      await gw.close();
    }
  }, 20_000);
});

describe('a gateway that loses Redis mid-run', () => {
  it('answers by its policy (open: in, uncounted; closed: 503 with retry-after), and counts again once Redis is back', async () => {
    const options = (name: string, policy: 'open' | 'closed') => ({ listen: 'openai-chat', upstream: 'openai-chat', client: { apiKey: KEY, baseUrl: up.url }, redis: redis.url, limitsOnRedisDown: policy, clients: [{ name, token: TEAM, limits: { requestsPerMinute: 2 } }] });
    const told: string[] = [];
    const error = console.error;
    console.error = (...args: unknown[]) => void told.push(args.join(' '));
    let open: Listening | undefined;
    let closed: Listening | undefined;
    try {
      open = await startGateway(options('down-open', 'open'));
      closed = await startGateway(options('down-closed', 'closed'));
      expect((await ask(open.url)).status).toBe(200);
      expect((await ask(closed.url)).status).toBe(200);
      await redis.stop();
      // Open: past its 2 per minute, uncounted, for as long as Redis is away.
      for (let i = 0; i < 3; i++) expect((await ask(open.url)).status).toBe(200);
      const refused = await ask(closed.url);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(refused.headers.get('x-wireforge-error-source')).toBe('gateway');
      expect(((await refused.json()) as { error: { message: string } }).error.message).toContain('cannot reach its limit counters');
      expect(told.some((t) => t.includes('cannot be reached') && t.includes('limitsOnRedisDown: open'))).toBe(true);
      expect(told.some((t) => t.includes('limitsOnRedisDown: closed'))).toBe(true);

      // Back (an empty Redis: counts start again): the client reconnects within a second or so.
      await redis.start();
      let status = 503;
      for (let i = 0; i < 60 && status === 503; i++) {
        await new Promise((r) => setTimeout(r, 100));
        status = (await ask(closed.url)).status;
      }
      expect(status).toBe(200);
      expect((await ask(closed.url)).status).toBe(200);
      expect((await ask(closed.url)).status).toBe(429);
      expect(told.some((t) => t.includes('is back'))).toBe(true);
    } finally {
      console.error = error;
      await open?.close();
      await closed?.close();
    }
  }, 60_000);

  it('a Redis that cannot be reached at start is an error at start, naming the URL without its password', async () => {
    const err = await startGateway({ listen: 'openai-chat', upstream: 'openai-chat', client: { apiKey: KEY, baseUrl: up.url }, redis: `redis://user:s3cret-pass@127.0.0.1:${redis.port + 1}`, clients: [{ name: 't', token: TEAM, limits: { requestsPerMinute: 1 } }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toContain('cannot reach Redis at redis://user:***@127.0.0.1');
    expect((err as Error).message).not.toContain('s3cret-pass');
  }, 20_000);
});
