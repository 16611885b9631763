/**
 * The mock and the gateway answer only where the spec is served: a client with a wrong baseUrl
 * gets the provider's 404 (real HTTP on 127.0.0.1), so a test against the mock cannot pass on it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, NotFoundError, type ProviderId } from '../../generated/index.js';
import { serves } from '../../generated/serve.js';
import { createMockServer, startGateway, type Listening, type MockServer } from '../../node/index.js';

const open: Array<MockServer | Listening> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});
const ask = { messages: [{ role: 'user' as const, content: 'hi' }] };

async function mockOf(id: string): Promise<MockServer> {
  const m = await createMockServer({ provider: id });
  open.push(m);
  return m;
}

describe.each(Object.keys(serves))('%s mock', (id) => {
  const client = (baseUrl: string) => createClient(id as ProviderId, { apiKey: 'k-0000000001', baseUrl, model: 'm', maxRetries: 0 } as never);

  it('answers at its own URL; under a wrong base path a blocking and a streamed call get its 404', async () => {
    const m = await mockOf(id);
    expect((await client(m.url).chat(ask)).text).toBe('Hello from the mock.');
    for (const call of [() => client(`${m.url}/wrong`).chat(ask), () => client(`${m.url}/v1/v1`).stream(ask).final()]) {
      const err = await call().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(NotFoundError);
      expect((err as NotFoundError).status).toBe(404);
      expect((err as Error).message).toContain('check the client');
    }
    // The two wrong requests were recorded, and nothing was answered to them.
    expect(m.requests.map((r) => r.path.split('?')[0]!.split('/')[1])).toEqual([expect.any(String), 'wrong', 'v1']);
  });
});

describe('the 404 in the provider shape, and the paths provider SDKs send', () => {
  const post = (url: string, body: unknown) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('openai-chat: /chat/completions and /v1/chat/completions are served; /api/chat/completions is an invalid_request_error 404', async () => {
    const m = await mockOf('openai-chat');
    const body = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };
    expect((await post(`${m.url}/chat/completions`, body)).status).toBe(200);
    expect((await post(`${m.url}/v1/chat/completions`, body)).status).toBe(200);
    const res = await post(`${m.url}/api/chat/completions`, body);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { type: string } }).error.type).toBe('invalid_request_error');
  });

  it('anthropic-messages: /v1/messages (its SDK) is served; /v2beta/x/messages is a not_found_error', async () => {
    const m = await mockOf('anthropic-messages');
    const body = { model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] };
    expect((await post(`${m.url}/v1/messages`, body)).status).toBe(200);
    const res = await post(`${m.url}/v2beta/x/messages`, body);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
  });

  it('gemini: the model in the path under /v1beta or /v1 is served; /models without a model, or under /api, is NOT_FOUND', async () => {
    const m = await mockOf('gemini');
    const body = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };
    expect((await post(`${m.url}/v1beta/models/gemini-x:generateContent`, body)).status).toBe(200);
    expect((await post(`${m.url}/v1/models/gemini-x:streamGenerateContent?alt=sse`, body)).status).toBe(200);
    for (const wrong of ['/v1beta/models:generateContent', '/api/models/gemini-x:generateContent', '/v1beta/models/gemini-x:generate']) {
      const res = await post(`${m.url}${wrong}`, body);
      expect(res.status, wrong).toBe(404);
      expect(await res.json()).toMatchObject({ error: { code: 404, status: 'NOT_FOUND' } });
    }
  });

  it('bedrock-converse: /model/{model}/converse-stream is served; /models/{model}/converse is a ResourceNotFoundException', async () => {
    const m = await mockOf('bedrock-converse');
    const body = { messages: [{ role: 'user', content: [{ text: 'hi' }] }] };
    expect((await post(`${m.url}/model/m/converse-stream`, body)).status).toBe(200);
    const res = await post(`${m.url}/models/m/converse`, body);
    expect(res.status).toBe(404);
    expect(res.headers.get('x-amzn-errortype') ?? JSON.stringify(await res.json())).toContain('ResourceNotFoundException');
  });
});

describe('a gateway listening as a protocol', () => {
  it('answers a wrong path with that protocol’s 404, before asking for its token or calling upstream', async () => {
    const upstream = await mockOf('anthropic-messages');
    const gw = await startGateway({ listen: 'openai-chat', upstream: 'anthropic-messages', clientToken: 'gw-token-123456789', client: { apiKey: 'k', baseUrl: upstream.url, maxRetries: 0 } });
    open.push(gw);
    const sdk = (baseUrl: string) => createClient('openai-chat', { apiKey: 'gw-token-123456789', baseUrl, model: 'm', maxRetries: 0 });
    expect((await sdk(gw.url).chat(ask)).text).toBe('Hello from the mock.');
    const err = await sdk(`${gw.url}/wrong`).chat(ask).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFoundError);
    expect((err as Error).message).toContain('not /wrong/chat/completions');
    expect(upstream.requests).toHaveLength(1);
  });
});
