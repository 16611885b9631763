/**
 * CORS on the mock server and the gateway over node:http on 127.0.0.1, as a browser would ask:
 * a preflight with the headers the provider's client sends, then answers (errors included) that
 * name the origin and expose the headers a client reads. Off unless asked for.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createMockServer, startGateway, type Listening, type MockServer } from '../../node/index.js';

const open: Array<MockServer | Listening> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});
const APP = 'http://app.localhost:5173';
const chatBody = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });

const preflight = (url: string, headers: string, origin = APP) =>
  fetch(url, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': headers } });

function listed(value: string | null): string[] {
  return (value ?? '').split(',').map((s) => s.trim().toLowerCase());
}

describe('mock server cors', () => {
  it('off by default: a preflight is not answered as one, and answers carry no CORS header', async () => {
    const m = await createMockServer({ provider: 'openai-chat' });
    open.push(m);
    const pre = await preflight(`${m.url}/chat/completions`, 'authorization, content-type');
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
    expect(pre.status).toBe(405);
    const res = await fetch(`${m.url}/chat/completions`, { method: 'POST', headers: { origin: APP }, body: chatBody });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('cors: true answers the Anthropic preflight with its headers and any origin; errors and retry-after are readable', async () => {
    const m = await createMockServer({ provider: 'anthropic-messages', apiKey: 'sk-ant-000000001', cors: true, script: [{ when: { lastUserText: 'slow' }, fault: { status: 429, retryAfter: 7 } }] });
    open.push(m);
    const pre = await preflight(`${m.url}/v1/messages`, 'x-api-key, anthropic-version, anthropic-dangerous-direct-browser-access, content-type');
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    expect(listed(pre.headers.get('access-control-allow-methods'))).toContain('post');
    expect(listed(pre.headers.get('access-control-allow-headers'))).toEqual(expect.arrayContaining(['x-api-key', 'anthropic-version', 'anthropic-dangerous-direct-browser-access', 'content-type', 'authorization']));
    // The preflight is not a request the mock recorded.
    expect(m.requests).toHaveLength(0);

    const body = (text: string) => JSON.stringify({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: text }] });
    const headers = { origin: APP, 'x-api-key': 'sk-ant-000000001', 'anthropic-version': '2023-06-01', 'content-type': 'application/json' };
    const ok = await fetch(`${m.url}/v1/messages`, { method: 'POST', headers, body: body('hi') });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe('*');
    const limited = await fetch(`${m.url}/v1/messages`, { method: 'POST', headers, body: body('slow') });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('access-control-allow-origin')).toBe('*');
    expect(listed(limited.headers.get('access-control-expose-headers'))).toEqual(expect.arrayContaining(['retry-after', 'request-id']));
    for (const [path, key] of [['/v1/messages', 'wrong-key'], ['/v1/nothing', 'sk-ant-000000001']] as const) {
      const err = await fetch(`${m.url}${path}`, { method: 'POST', headers: { ...headers, 'x-api-key': key }, body: body('hi') });
      expect(err.status).toBeGreaterThanOrEqual(401);
      expect(err.headers.get('access-control-allow-origin')).toBe('*');
    }
  });

  it('an origin list: a listed origin is named back (vary: origin), another gets no allow-origin', async () => {
    const m = await createMockServer({ provider: 'openai-chat', cors: [APP] });
    open.push(m);
    const pre = await preflight(`${m.url}/chat/completions`, 'authorization, content-type');
    expect(pre.headers.get('access-control-allow-origin')).toBe(APP);
    expect(pre.headers.get('vary')).toMatch(/origin/i);
    const other = await preflight(`${m.url}/chat/completions`, 'authorization', 'http://evil.localhost');
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const res = await fetch(`${m.url}/chat/completions`, { method: 'POST', headers: { origin: APP }, body: chatBody });
    expect(res.headers.get('access-control-allow-origin')).toBe(APP);
  });

  it('a body over the limit (answered outside the handler) carries the CORS headers too', async () => {
    const m = await createMockServer({ provider: 'openai-chat', cors: true });
    open.push(m);
    const res = await fetch(`${m.url}/chat/completions`, { method: 'POST', headers: { origin: APP }, body: 'x'.repeat(5 * 1024 * 1024) });
    expect(res.status).toBe(413);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await res.json()).toMatchObject({ error: { message: expect.stringContaining('too large') } });
  });
});

describe('gateway cors', () => {
  it('answers the preflight with authorization allowed, and exposes the warnings header on answers and errors', async () => {
    const upstream = await createMockServer({ provider: 'anthropic-messages' });
    open.push(upstream);
    const gw = await startGateway({ listen: 'openai-chat', upstream: 'anthropic-messages', clientToken: 'gw-token-123456789', cors: true, client: { apiKey: 'k', baseUrl: upstream.url, maxRetries: 0 } });
    open.push(gw);
    const pre = await preflight(`${gw.url}/v1/chat/completions`, 'authorization, content-type, x-stainless-os');
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    expect(listed(pre.headers.get('access-control-allow-headers'))).toEqual(expect.arrayContaining(['authorization', 'content-type', 'x-stainless-os']));
    const headers = { origin: APP, authorization: 'Bearer gw-token-123456789', 'content-type': 'application/json' };
    const ok = await fetch(`${gw.url}/v1/chat/completions`, { method: 'POST', headers, body: JSON.stringify({ model: 'm', n: 1, messages: [{ role: 'user', content: 'hi' }] }) });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe('*');
    expect(listed(ok.headers.get('access-control-expose-headers'))).toContain('x-wireforge-warnings');
    const refused = await fetch(`${gw.url}/v1/chat/completions`, { method: 'POST', headers: { ...headers, authorization: 'Bearer nope' }, body: chatBody });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
  });
});
