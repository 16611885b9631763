/**
 * Limits per client token, counters in memory (docs/serving.md#limits), over 127.0.0.1: requests
 * per minute, tokens per minute from the usage each answer reports (blocking and streamed) and
 * concurrent streams, each refusal a 429 in the listen protocol's shape with retry-after. The
 * rule the expectations come from: a limit L per minute is a bucket of L refilled at L per 60 s;
 * a request needs 1 in each bucket; a reported usage is taken from the tokens bucket.
 */
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { adapters } from '../../generated/index.js';
import { createGateway, createMemoryLimiter, serves as served, type GatewayClient } from '../../generated/serve.js';
import { startGateway } from '../../node/index.js';
import { startLoopbackServer, type LoopbackServer, type ScriptedResponse } from '../helpers/loopback-server.js';

const KEY = 'sk-upstream-client-limits-01';
const TEAM = 'team-token-0123456789abcdef';
const OTHER = 'other-token-0123456789abcdef';
/** A Chat Completions answer reporting `total` tokens (docs/wire-facts.md#openai-chat-completions). */
const answer = (total: number): ScriptedResponse => ({
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'gpt-test', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }], usage: { prompt_tokens: total - 2, completion_tokens: 2, total_tokens: total } }),
});
/** A streamed Chat Completions turn: chunks, the usage chunk (stream_options.include_usage), [DONE]; `holdMs` before the end. */
const streamedAnswer = (total: number, holdMs = 0): ScriptedResponse => {
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => `data: ${JSON.stringify({ id: 'chatcmpl-2', object: 'chat.completion.chunk', created: 1, model: 'gpt-test', choices, ...extra })}\n\n`;
  return {
    headers: { 'content-type': 'text/event-stream' },
    body: [
      chunk([{ index: 0, delta: { role: 'assistant', content: 'he' }, finish_reason: null }]),
      { delayMs: holdMs },
      chunk([{ index: 0, delta: { content: 'llo' }, finish_reason: null }]),
      chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]),
      chunk([], { usage: { prompt_tokens: total - 2, completion_tokens: 2, total_tokens: total } }),
      'data: [DONE]\n\n',
    ],
  };
};

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});
async function upstream(responder: Parameters<typeof startLoopbackServer>[0]): Promise<LoopbackServer> {
  const s = await startLoopbackServer(responder);
  open.push(s);
  return s;
}
const openaiListen = { adapter: adapters['openai-chat'], serve: served['openai-chat'] };
function gateway(up: LoopbackServer, clients: GatewayClient[], now?: () => number) {
  return createGateway({ listen: openaiListen, upstream: adapters['openai-chat'], client: { apiKey: KEY, baseUrl: up.url }, clients, ...(now ? { limiter: createMemoryLimiter(now) } : {}) });
}
const ask = (h: (r: Request) => Promise<Response>, token: string, stream = false) =>
  h(new Request('http://gw.test/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ model: 'gpt-test', stream, messages: [{ role: 'user', content: 'hi' }] }) }));

async function expectRefused(res: Response, retryAfter: number, says: string) {
  expect(res.status).toBe(429);
  expect(res.headers.get('retry-after')).toBe(String(retryAfter));
  expect(res.headers.get('x-wireforge-error-source')).toBe('gateway');
  const body = (await res.json()) as { error: { message: string; type: string } };
  expect(body.error.message).toContain(says);
  expect(body.error.message).not.toContain(TEAM);
  return body;
}

describe('requests per minute, in memory', () => {
  it('the 11th request of a 10 per minute client gets 429 with retry-after; another client is not counted with it', async () => {
    const up = await upstream(answer(5));
    // A fixed clock: on a loaded machine ten requests can take long enough for the bucket to refill one.
    const h = gateway(up, [
      { name: 'team', token: TEAM, limits: { requestsPerMinute: 10 } },
      { name: 'other', token: OTHER, limits: { requestsPerMinute: 10 } },
    ], () => 1_000_000);
    for (let i = 0; i < 10; i++) expect((await ask(h, TEAM)).status).toBe(200);
    // One request comes back every 60/10 = 6 s.
    const body = await expectRefused(await ask(h, TEAM), 6, 'requests per minute');
    // OpenAI types a 429 rate_limit_error (docs/wire-facts.md#openai-chat-completions).
    expect(body.error.type).toBe('rate_limit_error');
    expect(up.requests).toHaveLength(10);
    expect((await ask(h, OTHER)).status).toBe(200);
    expect((await ask(h, 'not-a-client-token-000000')).status).toBe(401);
  });

  it('refills continuously: one more request every 6 s, never a burst at a window edge', async () => {
    const up = await upstream(answer(5));
    let t = 1_000_000;
    const h = gateway(up, [{ name: 'team', token: TEAM, limits: { requestsPerMinute: 10 } }], () => t);
    for (let i = 0; i < 10; i++) expect((await ask(h, TEAM)).status).toBe(200);
    t += 3_000;
    await expectRefused(await ask(h, TEAM), 3, 'requests per minute');
    t += 3_000;
    expect((await ask(h, TEAM)).status).toBe(200);
    await expectRefused(await ask(h, TEAM), 6, 'requests per minute');
    t += 60_000;
    for (let i = 0; i < 10; i++) expect((await ask(h, TEAM)).status).toBe(200);
    expect((await ask(h, TEAM)).status).toBe(429);
  });

  it('through startGateway and the OpenAI SDK: the 11th call is a RateLimitError', async () => {
    const up = await upstream(answer(5));
    const gw = await startGateway({ listen: 'openai-chat', upstream: 'openai-chat', client: { apiKey: KEY, baseUrl: up.url }, clients: [{ name: 'team', token: TEAM, limits: { requestsPerMinute: 10 } }] });
    open.push(gw);
    const openai = new OpenAI({ apiKey: TEAM, baseURL: gw.url, maxRetries: 0 });
    for (let i = 0; i < 10; i++) await openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] });
    const refused = await openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OpenAI.RateLimitError);
    expect((refused as InstanceType<typeof OpenAI.RateLimitError>).headers?.get('retry-after')).toBe('6');
  });

  it("in the listen protocol's shape: a Gemini caller gets Gemini's 429 (code, RESOURCE_EXHAUSTED)", async () => {
    const up = await upstream(answer(5));
    const h = createGateway({ listen: { adapter: adapters.gemini, serve: served.gemini }, upstream: adapters['openai-chat'], client: { apiKey: KEY, baseUrl: up.url }, clients: [{ name: 'team', token: TEAM, limits: { requestsPerMinute: 1 } }] });
    const call = () => h(new Request('http://gw.test/v1beta/models/gemini-test:generateContent', { method: 'POST', headers: { 'content-type': 'application/json', 'x-goog-api-key': TEAM }, body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }) }));
    expect((await call()).status).toBe(200);
    const res = await call();
    expect(res.status).toBe(429);
    // One per minute: the next one in 60 s.
    expect(res.headers.get('retry-after')).toBe('60');
    // Gemini's error body (docs/wire-facts.md#gemini-errors-and-retries): the HTTP code and the status name for it.
    expect(((await res.json()) as { error: unknown }).error).toMatchObject({ code: 429, status: 'RESOURCE_EXHAUSTED' });
  });
});

describe('tokens per minute, from the usage each answer reports', () => {
  it('blocking: 8 tokens twice against 10 per minute leaves the bucket at -6; the next waits 7 tokens at 6 s each', async () => {
    const up = await upstream(answer(8));
    const h = gateway(up, [{ name: 'team', token: TEAM, limits: { tokensPerMinute: 10 } }]);
    expect((await ask(h, TEAM)).status).toBe(200);
    expect((await ask(h, TEAM)).status).toBe(200);
    await expectRefused(await ask(h, TEAM), 42, 'tokens per minute');
    expect(up.requests).toHaveLength(2);
  });

  it('streamed: the usage chunk of the stream is counted when it ends', async () => {
    const up = await upstream((r) => ((r.body as { stream?: boolean }).stream ? streamedAnswer(8) : answer(8)));
    let t = 5_000_000;
    const h = gateway(up, [{ name: 'team', token: TEAM, limits: { tokensPerMinute: 10 } }], () => t);
    const res = await ask(h, TEAM, true);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('[DONE]');
    // 10 - 8 = 2 left: one more answer of 8 (→ -6), then 7 tokens short.
    expect((await ask(h, TEAM)).status).toBe(200);
    await expectRefused(await ask(h, TEAM, true), 42, 'tokens per minute');
    t += 42_000;
    expect((await ask(h, TEAM)).status).toBe(200);
  });
});

describe('concurrent streams', () => {
  it('a second stream while one is open gets 429; a blocking request still goes; after the first ends a stream goes again', async () => {
    const up = await upstream((r) => ((r.body as { stream?: boolean }).stream ? streamedAnswer(4, 400) : answer(4)));
    const h = gateway(up, [{ name: 'team', token: TEAM, limits: { concurrentStreams: 1 } }]);
    const first = await ask(h, TEAM, true);
    expect(first.status).toBe(200);
    await expectRefused(await ask(h, TEAM, true), 1, 'concurrent streams');
    expect((await ask(h, TEAM)).status).toBe(200);
    expect(await first.text()).toContain('[DONE]');
    const again = await ask(h, TEAM, true);
    expect(again.status).toBe(200);
    // A stream the caller abandons gives its slot back too.
    await again.body!.cancel();
    const third = await ask(h, TEAM, true);
    expect(third.status).toBe(200);
    await third.text();
  });

  it('a stream the upstream refuses before its first byte gives its slot back', async () => {
    let n = 0;
    const up = await upstream(() => (n++ === 0 ? { status: 503, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: { message: 'overloaded', type: 'server_error', param: null, code: null } }) } : streamedAnswer(4)));
    const h = gateway(up, [{ name: 'team', token: TEAM, limits: { concurrentStreams: 1 } }]);
    expect((await ask(h, TEAM, true)).status).toBe(503);
    const ok = await ask(h, TEAM, true);
    expect(ok.status).toBe(200);
    await ok.text();
  });
});

describe('clients', () => {
  it('refuses a bad client list at creation, naming the field', () => {
    const up = { url: 'http://127.0.0.1:9' } as LoopbackServer;
    expect(() => gateway(up, [{ name: 'a', token: 'short' }])).toThrow(/clients\[0\]\.token/);
    expect(() => gateway(up, [{ name: 'a', token: TEAM }, { name: 'a', token: OTHER }])).toThrow(/clients\[1\]\.name: "a" is already/);
    expect(() => gateway(up, [{ name: 'a', token: TEAM, limits: { requestsPerMinute: -1 } }])).toThrow(/clients\[0\]\.limits\.requestsPerMinute/);
  });
});
