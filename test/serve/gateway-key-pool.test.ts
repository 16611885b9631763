/**
 * Key pools: a target's keys taken round-robin; a key answered with 429 rests for the upstream's
 * `retry-after`, traffic moves to the others meanwhile, and it comes back after. The upstream is a
 * loopback server in Chat Completions' shape that refuses one key while told to.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startGateway, type Listening } from '../../node/index.js';
import { KeyPool } from '../../runtime/serve/key-pool.js';
import { keyFingerprint, shareRests, type SharedRests } from '../../runtime/serve/shared-rests.js';

const KEY_A = 'sk-pool-key-aaaa-0001';
const KEY_B = 'sk-pool-key-bbbb-0002';

describe('KeyPool', () => {
  it('round-robin over keys not resting; a cooled key comes back when its wait is over', () => {
    let now = 1000;
    const pool = new KeyPool(['k1', 'k2', 'k3'], () => now);
    expect([pool.take(), pool.take(), pool.take(), pool.take()]).toEqual([0, 1, 2, 0]);
    pool.cool(1, 500);
    expect([pool.take(), pool.take(), pool.take()]).toEqual([2, 0, 2]);
    pool.cool(0, 500);
    pool.cool(2, 800);
    expect(pool.take()).toBeUndefined();
    expect(pool.wait()).toBe(500);
    now += 500;
    expect([pool.take(), pool.take()]).toEqual([0, 1]);
  });
});

describe('KeyPool rests, bounded; rests shared per target', () => {
  it('a rest longer than 10 minutes (an upstream’s or one told by another instance) is cut to 10 minutes; a wait that is not a number rests nothing', () => {
    let now = 0;
    const pool = new KeyPool(['k1', 'k2'], () => now);
    pool.cool(0, 1e12);
    expect(pool.wait()).toBe(0);
    pool.restFor(1, 1e308);
    expect(pool.wait()).toBe(10 * 60_000);
    now += 10 * 60_000;
    expect(pool.take()).toBe(0);
    pool.restFor(0, Number.NaN);
    pool.restFor(0, -5);
    expect([pool.take(), pool.take()]).toEqual([1, 0]);
  });

  it('a rest told for one target rests the key in that target only, not in another target with the same key', async () => {
    // Two instances' wiring on one bus: what one tells, the other hears.
    const bus: Array<(id: string, ms: number) => void> = [];
    const rests = (): SharedRests => ({ tell: (id, ms) => bus.forEach((on) => on(id, ms)), hear: (on) => void bus.push(on) });
    const [mini, big, bigElsewhere] = [new KeyPool(['k']), new KeyPool(['k']), new KeyPool(['k'])];
    shareRests([{ pool: mini, scope: 'openai-chat  gpt-mini' }, { pool: big, scope: 'openai-chat  gpt-big' }], rests());
    shareRests([{ pool: bigElsewhere, scope: 'openai-chat  gpt-big' }], rests());
    big.cool(0, 5_000);
    await vi.waitFor(() => expect(bigElsewhere.take()).toBeUndefined());
    expect(mini.take()).toBe(0);
    expect(await keyFingerprint('a', 'k')).not.toBe(await keyFingerprint('b', 'k'));
    expect(await keyFingerprint('a', 'k')).toMatch(/^[0-9a-f]{16}$/);
  });
});

describe('gateway key pool over HTTP', () => {
  const hits: Record<string, number> = {};
  const refused = new Set<string>();
  let upstream: Server;
  let gw: Listening;
  beforeAll(async () => {
    upstream = createServer((req, res) => {
      const key = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      hits[key] = (hits[key] ?? 0) + 1;
      req.resume();
      if (refused.has(key)) {
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
        return res.end(JSON.stringify({ error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' } }));
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'up', choices: [{ index: 0, message: { role: 'assistant', content: `answered with ${key === KEY_A ? 'A' : 'B'}` }, finish_reason: 'stop' }], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } }));
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    gw = await startGateway({ listen: 'openai-chat', routes: [{ model: 'm', targets: [{ spec: 'openai-chat', model: 'up', baseUrl: url, key: { keys: [KEY_A, KEY_B] } }] }] });
  });
  afterAll(async () => {
    await gw.close();
    await new Promise((r) => upstream.close(r));
  });

  const ask = async () => {
    const openai = new OpenAI({ apiKey: 'unused-no-clients', baseURL: gw.url, maxRetries: 0 });
    const { data, response } = await openai.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }).withResponse();
    return { text: data.choices[0]!.message.content, fallbacks: response.headers.get('x-wireforge-fallbacks') };
  };

  it('a 429 on one key moves traffic to the other; after its retry-after the key comes back', async () => {
    refused.add(KEY_A);
    const first = await ask();
    expect(first).toEqual({ text: 'answered with B', fallbacks: 'openai-chat/up 429' });
    expect(hits[KEY_A]).toBe(1);
    // A rests: B takes everything, A is not asked.
    expect((await ask()).text).toBe('answered with B');
    expect((await ask()).text).toBe('answered with B');
    expect(hits[KEY_A]).toBe(1);
    refused.delete(KEY_A);
    await new Promise((r) => setTimeout(r, 1100));
    const texts = [(await ask()).text, (await ask()).text];
    expect(texts.sort()).toEqual(['answered with A', 'answered with B']);
    expect(hits[KEY_A]).toBe(2);
  });

  it('every key refused: the caller gets the 429 with the wait, and no key anywhere in the answer', async () => {
    refused.add(KEY_A);
    refused.add(KEY_B);
    await new Promise((r) => setTimeout(r, 1100));
    const res = await fetch(`${gw.url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }) });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('1');
    // The first key's 429 before the one answered; places, never keys.
    expect(res.headers.get('x-wireforge-fallbacks')).toBe('openai-chat/up 429');
    const headers: string[] = [];
    res.headers.forEach((v, k) => headers.push(`${k}: ${v}`));
    const all = `${headers.join('\n')}${await res.text()}`;
    expect(all).not.toContain(KEY_A);
    expect(all).not.toContain(KEY_B);
    // While both rest, the gateway answers without asking upstream.
    const before = hits[KEY_A]! + hits[KEY_B]!;
    const again = await fetch(`${gw.url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }) });
    expect(again.status).toBe(429);
    expect(again.headers.get('x-wireforge-fallbacks')).toBe('openai-chat/up keys-resting');
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(hits[KEY_A]! + hits[KEY_B]!).toBe(before);
  });
});
