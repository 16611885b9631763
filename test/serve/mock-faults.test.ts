/**
 * The mock server's script and faults, seen through this library's own client over 127.0.0.1:
 * each fault arrives as the client's typed error, with what arrived before it kept.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, ProviderError, RateLimitError, StreamError, TimeoutError, type ProviderId } from '../../generated/index.js';
import { createMockServer, type MockServer } from '../../node/index.js';

const KEY = 'mock-key-0001';
let mock: MockServer | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const TEXT = 'One two three four five six seven eight nine ten.';

/** The auth headers a recorded request carried, to send a raw request the same way. */
function authOf(m: MockServer, n = 0): Record<string, string> {
  const h = m.requests[n]!.headers;
  return Object.fromEntries(Object.entries(h).filter(([k]) => k === 'authorization' || k === 'x-api-key' || k === 'x-goog-api-key' || k === 'api-key'));
}

describe.each(['openai-chat', 'anthropic-messages', 'gemini', 'openai-responses', 'ollama'] as ProviderId[])('%s mock', (id) => {
  const client = (m: MockServer, extra = {}) => createClient(id, { apiKey: KEY, baseUrl: m.url, model: 'm-1', maxRetries: 0, ...extra });
  const ask = (text: string) => ({ messages: [{ role: 'user' as const, content: text }] });

  it('an HTTP error in the provider shape, typed by status, with retry-after', async () => {
    mock = await createMockServer({ provider: id, apiKey: KEY, script: [{ fault: { status: 429, message: 'slow down', retryAfter: 3 } }] });
    const err = await client(mock).chat(ask('hi')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as RateLimitError).status).toBe(429);
    expect((err as RateLimitError).message).toContain('slow down');
    const raw = await fetch(`${mock.url}${mock.requests[0]!.path}`, { method: 'POST', headers: authOf(mock), body: JSON.stringify(mock.requests[0]!.body) });
    expect(raw.headers.get('retry-after')).toBe('3');
  });

  it('an error event mid-stream: a ProviderError with the text so far', async () => {
    // Events a few ms apart, as a network delivers them: the deltas before the error reach the caller.
    mock = await createMockServer({ provider: id, apiKey: KEY, chunk: 4, delayMs: 5, script: [{ reply: { text: TEXT }, fault: { errorAfter: 5, message: 'overloaded now' } }] });
    const stream = client(mock).stream(ask('hi'));
    const seen: string[] = [];
    const err = await (async () => {
      for await (const e of stream) if (e.type === 'text-delta') seen.push(e.delta);
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).message).toContain('overloaded now');
    expect(seen.length).toBeGreaterThan(0);
    expect(TEXT.startsWith(seen.join(''))).toBe(true);
    expect((err as ProviderError).partial?.text).toBe(seen.join(''));
  });

  it('a stream cut inside an event: a StreamError with the text so far', async () => {
    mock = await createMockServer({ provider: id, apiKey: KEY, chunk: 4, script: [{ reply: { text: TEXT }, fault: { truncateAfter: 5 } }] });
    const err = await client(mock).stream(ask('hi')).final().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StreamError);
    const partial = (err as StreamError).partial?.text ?? '';
    expect(partial.length).toBeGreaterThan(0);
    expect(TEXT.startsWith(partial)).toBe(true);
  });

  it('a stall longer than the idle timeout: a TimeoutError', async () => {
    mock = await createMockServer({ provider: id, apiKey: KEY, script: [{ reply: { text: TEXT }, fault: { stallMs: 400 } }] });
    const err = await client(mock, { idleTimeoutMs: 100 }).stream(ask('hi')).final().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
  });

  it('latency before the answer, and the script matched by content', async () => {
    mock = await createMockServer({
      provider: id,
      apiKey: KEY,
      script: [
        { when: { lastUserText: 'slow' }, reply: { text: 'late' }, fault: { latencyMs: 150 } },
        { when: { lastUserText: /^quick/ }, reply: { text: 'fast' } },
      ],
    });
    const t0 = performance.now();
    expect((await client(mock).chat(ask('slow please'))).text).toBe('late');
    expect(performance.now() - t0).toBeGreaterThanOrEqual(140);
    expect((await client(mock).chat(ask('quick one'))).text).toBe('fast');
    expect(mock.requests.map((r) => r.request?.messages[0])).toEqual([
      { role: 'user', content: expect.anything() },
      { role: 'user', content: expect.anything() },
    ]);
  });

  it('a wrong key and a body it cannot read are answered in the provider shape', async () => {
    mock = await createMockServer({ provider: id, apiKey: KEY });
    await expect(createClient(id, { apiKey: 'wrong', baseUrl: mock.url, model: 'm', maxRetries: 0 }).chat(ask('hi'))).rejects.toMatchObject({ status: 401 });
    await client(mock).chat(ask('hi'));
    const res = await fetch(`${mock.url}${mock.requests[1]!.path}`, { method: 'POST', headers: authOf(mock, 1), body: '{"messages": 5, "contents": 5, "input": 5}' });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toMatch(/messages|contents|input/);
  });
});

describe('a request the mock cannot read', () => {
  it('is a RequestError naming the wire path, as a 400 the client reads', async () => {
    mock = await createMockServer({ provider: 'openai-chat' });
    const res = await fetch(`${mock.url}/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'm', messages: [{ role: 'usr', content: 'hi' }] }) });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { message: string; type: string } };
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.message).toContain('messages[0]: matches no message form');
  });
});

describe('an unknown spec id', () => {
  it('is a WireforgeError that lists the known ones', async () => {
    const { WireforgeError } = await import('../../generated/index.js');
    const err = await createMockServer({ provider: 'opnai-chat' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WireforgeError);
    expect(String((err as Error).message)).toMatch(/no built-in spec "opnai-chat" \(known: .*openai-chat/);
  });
});
