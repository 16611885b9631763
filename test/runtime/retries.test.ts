/**
 * Retry rules (issue 5 §1) at the unit level: the wait honours retry-after-ms, retry-after in
 * seconds or as an HTTP date, is capped, and otherwise backs off exponentially with jitter;
 * network errors before any response are retried; nothing is retried once a stream delivered.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { adapters } from '../../generated/index.js';
import { createClientFor, StreamError, WireforgeError, type ProviderAdapter } from '../../generated/index.js';
import { backoff } from '../../runtime/transport/send-request.js';

const openai = adapters['openai-chat'] as ProviderAdapter;
const enc = (s: string) => new TextEncoder().encode(s);
const OK = JSON.stringify({ id: 'c', choices: [{ message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }] });

// Files share a worker (vitest.config.ts): put back the clock and Math.random after each test.
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('backoff()', () => {
  const h = (o: Record<string, string>) => new Headers(o);

  it('retry-after-ms wins', () => expect(backoff(0, h({ 'retry-after-ms': '250', 'retry-after': '9' }))).toBe(250));
  it('retry-after in seconds', () => expect(backoff(0, h({ 'retry-after': '2' }))).toBe(2000));
  it('retry-after as an HTTP date', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-11-30T10:00:00Z'));
    expect(backoff(0, h({ 'retry-after': 'Mon, 30 Nov 2026 10:00:05 GMT' }))).toBe(5000);
  });
  it('a server wait is capped at 60 s', () => expect(backoff(0, h({ 'retry-after': '3600' }))).toBe(60_000));
  it('otherwise exponential with jitter, capped', () => {
    for (let attempt = 0; attempt < 8; attempt++) {
      const base = Math.min(500 * 2 ** attempt, 8000);
      for (let i = 0; i < 50; i++) {
        const wait = backoff(attempt, undefined);
        expect(wait).toBeGreaterThanOrEqual(base * 0.75);
        expect(wait).toBeLessThanOrEqual(base);
      }
    }
  });
  it('garbage headers fall back to backoff', () => {
    const wait = backoff(1, h({ 'retry-after': 'soon', 'retry-after-ms': 'x' }));
    expect(wait).toBeGreaterThanOrEqual(750);
    expect(wait).toBeLessThanOrEqual(1000);
  });
});

describe('what is retried', () => {
  it('a network error before any response is retried', async () => {
    let calls = 0;
    const fetch = (async () => {
      calls++;
      if (calls === 1) throw new TypeError('fetch failed: ECONNRESET');
      return new Response(OK, { headers: { 'content-type': 'application/json' } });
    }) as typeof globalThis.fetch;
    vi.spyOn(Math, 'random').mockReturnValue(0); // shortest jittered wait
    const r = await createClientFor(openai, { apiKey: 'k-0000000000', fetch, maxRetries: 1 }).chat({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
    expect(r.text).toBe('ok');
    expect(calls).toBe(2);
  });

  it('a network error after maxRetries is a typed error without the key', async () => {
    const key = 'sk-secret-network-0123456789';
    const fetch = (async () => {
      throw new TypeError(`connect failed for ${key}`);
    }) as typeof globalThis.fetch;
    const e = await createClientFor(openai, { apiKey: key, fetch, maxRetries: 0 })
      .chat({ messages: [{ role: 'user', content: 'x' }] })
      .then(() => undefined, (x: unknown) => x);
    expect(e).toBeInstanceOf(WireforgeError);
    expect(String(e)).not.toContain(key);
  });

  it('a stream that delivered an event and then broke is not retried', async () => {
    let calls = 0;
    const fetch = (async () => {
      calls++;
      let sent = false;
      const body = new ReadableStream<Uint8Array>({
        pull(c) {
          if (!sent) {
            sent = true;
            c.enqueue(enc(`data: ${JSON.stringify({ id: 'c', choices: [{ index: 0, delta: { content: 'par' }, finish_reason: null }] })}\n\n`));
          } else c.error(new TypeError('socket hang up'));
        },
      });
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    }) as typeof globalThis.fetch;
    const stream = createClientFor(openai, { apiKey: 'k-0000000000', fetch, maxRetries: 3 }).stream({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
    const e = (await stream.final().then(() => undefined, (x: unknown) => x)) as StreamError;
    expect(e).toBeInstanceOf(StreamError);
    expect(e.partial?.text).toBe('par');
    expect(calls).toBe(1);
  });
});
