/**
 * The gateway's answers as each listen protocol writes them, over 127.0.0.1: an error type for
 * every status through the official SDKs (the upstream's status, whatever it is), and Gemini
 * streams framed as the API frames them (SSE with alt=sse, one JSON array without).
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, startGateway, type MockServer } from '../../node/index.js';
import type { Listening } from '../../node/listen.js';
import { startLoopbackServer, type LoopbackServer } from '../helpers/loopback-server.js';
import { GREETING, script, SDK_KEY } from '../helpers/sdk-drivers.js';

const STATUSES = [400, 401, 402, 403, 404, 405, 408, 409, 413, 422, 429, 500, 502, 503, 504, 529] as const;

/*
 * Each wire's documented type for a status (docs/wire-facts.md: Anthropic's list by status,
 * Gemini's status names, OpenAI's types); a status a provider lists no type for gets its class's
 * (docs/serving.md#error-types: invalid_request_error / api_error, INVALID_ARGUMENT / INTERNAL,
 * invalid_request_error / server_error).
 */
const ANTHROPIC: Record<number, string> = { 400: 'invalid_request_error', 401: 'authentication_error', 402: 'billing_error', 403: 'permission_error', 404: 'not_found_error', 413: 'request_too_large', 429: 'rate_limit_error', 500: 'api_error', 504: 'timeout_error', 529: 'overloaded_error' };
const GEMINI: Record<number, string> = { 400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND', 429: 'RESOURCE_EXHAUSTED', 500: 'INTERNAL', 503: 'UNAVAILABLE', 504: 'DEADLINE_EXCEEDED' };
const OPENAI: Record<number, string> = { 429: 'rate_limit_error' };
const byClass = (table: Record<number, string>, status: number, client: string, server: string) => table[status] ?? (status < 500 ? client : server);

let upstream: LoopbackServer;
const gateways: Record<string, Listening> = {};
/** The same, passing each caller's key upstream: an upstream 401 or 403 is then about the caller's key, and passed on. */
const callerKeyed: Record<string, Listening> = {};
beforeAll(async () => {
  // Answers with the status the request's text names, in Chat Completions' error shape.
  upstream = await startLoopbackServer((req) => {
    const status = Number(/status (\d+)/.exec(req.rawBody)?.[1] ?? 500);
    return { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: { message: `upstream ${status}`, type: 'upstream_type', param: null, code: null } }) };
  });
  for (const listen of ['openai-chat', 'openai-responses', 'anthropic-messages', 'gemini']) {
    // Another wire upstream: the listen protocol's own type for each status, not the upstream's.
    gateways[listen] = await startGateway({ listen, upstream: 'openai-compatible', client: { apiKey: 'up', baseUrl: upstream.url } });
    callerKeyed[listen] = await startGateway({ listen, upstream: 'openai-compatible', upstreamKey: 'caller', client: { baseUrl: upstream.url } });
  }
});
afterAll(async () => {
  await Promise.all([...Object.values(gateways), ...Object.values(callerKeyed)].map((g) => g.close()));
  await upstream.close();
});

const ownKeyed = gateways;

describe('an error type for every status, through the official SDKs', () => {
  it.each(STATUSES)('status %i', async (status) => {
    const text = `status ${status}`;
    // A 401 or 403 to the gateway's own key is the gateway's failure (a 502, test/serve/gateway-error-source.test.ts).
    const gateways = status === 401 || status === 403 ? callerKeyed : ownKeyed;
    const chat = (await new OpenAI({ apiKey: SDK_KEY, baseURL: gateways['openai-chat']!.url, maxRetries: 0 }).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: text }] }).catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(chat).toBeInstanceOf(OpenAI.APIError);
    expect([chat.status, chat.type]).toEqual([status, byClass(OPENAI, status, 'invalid_request_error', 'server_error')]);

    const responses = (await new OpenAI({ apiKey: SDK_KEY, baseURL: gateways['openai-responses']!.url, maxRetries: 0 }).responses.create({ model: 'm', input: text }).catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect([responses.status, responses.type]).toEqual([status, byClass(OPENAI, status, 'invalid_request_error', 'server_error')]);

    const claude = (await new Anthropic({ apiKey: SDK_KEY, baseURL: gateways['anthropic-messages']!.url, maxRetries: 0 }).messages.create({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: text }] }).catch((e: unknown) => e)) as InstanceType<typeof Anthropic.APIError>;
    expect(claude).toBeInstanceOf(Anthropic.APIError);
    expect(claude.status).toBe(status);
    expect(claude.error).toMatchObject({ type: 'error', error: { type: byClass(ANTHROPIC, status, 'invalid_request_error', 'api_error'), message: `upstream ${status}` } });

    const gemini = (await new GoogleGenAI({ apiKey: SDK_KEY, httpOptions: { baseUrl: gateways.gemini!.url } }).models.generateContent({ model: 'm', contents: text }).catch((e: unknown) => e)) as Error & { status?: number };
    expect(gemini.status).toBe(status);
    expect(JSON.parse(gemini.message)).toMatchObject({ error: { code: status, status: byClass(GEMINI, status, 'INVALID_ARGUMENT', 'INTERNAL') } });
  });
});

describe('Gemini stream framing', () => {
  let mock: MockServer;
  let gateway: Listening;
  beforeAll(async () => {
    mock = await createMockServer({ provider: 'anthropic-messages', apiKey: 'up', script: script() });
    gateway = await startGateway({ listen: 'gemini', upstream: 'anthropic-messages', client: { apiKey: 'up', baseUrl: mock.url } });
  });
  afterAll(async () => {
    await gateway.close();
    await mock.close();
  });
  const body = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
  const textOf = (chunks: { candidates?: { content?: { parts?: { text?: string; thought?: boolean }[] } }[] }[]) =>
    chunks.flatMap((c) => c.candidates?.[0]?.content?.parts ?? []).flatMap((p) => (p.text && !p.thought ? [p.text] : [])).join('');

  it('without alt=sse: one JSON array of response chunks', async () => {
    const res = await fetch(`${gateway.url}/v1beta/models/gemini-test:streamGenerateContent`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const text = await res.text();
    expect(text.startsWith('[')).toBe(true);
    const chunks = JSON.parse(text) as Parameters<typeof textOf>[0];
    expect(Array.isArray(chunks)).toBe(true);
    expect(chunks.length).toBeGreaterThan(2);
    expect(textOf(chunks)).toBe(GREETING);
  });

  it('with alt=sse: server-sent events, as the SDK asks for them', async () => {
    const res = await fetch(`${gateway.url}/v1beta/models/gemini-test:streamGenerateContent?alt=sse`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const events = (await res.text()).split('\n\n').filter(Boolean);
    expect(events.every((e) => e.startsWith('data: '))).toBe(true);
    expect(textOf(events.map((e) => JSON.parse(e.slice(6))))).toBe(GREETING);
    let sdkText = '';
    for await (const chunk of await new GoogleGenAI({ apiKey: SDK_KEY, httpOptions: { baseUrl: gateway.url } }).models.generateContentStream({ model: 'gemini-test', contents: 'hi' })) sdkText += chunk.text ?? '';
    expect(sdkText).toBe(GREETING);
  });

  it('the Gemini mock frames its streams the same way', async () => {
    const gm = await createMockServer({ provider: 'gemini', script: script() });
    try {
      const plain = await fetch(`${gm.url}/v1beta/models/gemini-test:streamGenerateContent`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(textOf(JSON.parse(await plain.text()) as Parameters<typeof textOf>[0])).toBe(GREETING);
      const sse = await fetch(`${gm.url}/v1beta/models/gemini-test:streamGenerateContent?alt=sse`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(sse.headers.get('content-type')).toBe('text/event-stream');
    } finally {
      await gm.close();
    }
  });
});
