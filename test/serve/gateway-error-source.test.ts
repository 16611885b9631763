/**
 * Which side refused: a 401 from the gateway is the caller's token (its message names the header
 * the gateway read), and `x-wireforge-error-source: gateway` says so; the upstream refusing the
 * gateway's own key is a 502 with `x-wireforge-error-source: upstream`, so a caller's SDK does not
 * take it for its own token refused. With the caller's key passed upstream, the upstream's 401 is
 * the caller's and goes back as it is. Requests are made by hand in the OpenAI Chat Completions
 * form, over 127.0.0.1.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createMockServer, startGateway, type MockServer } from '../../node/index.js';
import type { Listening } from '../../node/listen.js';

const open: Array<MockServer | Listening> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

const TOKEN = 'gateway-token-0000001';
const UPSTREAM_KEY = 'upstream-key-0000001';

async function setup(gatewayKey: string | 'caller') {
  const mock = await createMockServer({ provider: 'anthropic-messages', apiKey: UPSTREAM_KEY });
  open.push(mock);
  const gateway = await startGateway(
    gatewayKey === 'caller'
      ? { listen: 'openai-chat', upstream: 'anthropic-messages', upstreamKey: 'caller', client: { baseUrl: mock.url, maxRetries: 0 } }
      : { listen: 'openai-chat', upstream: 'anthropic-messages', clientToken: TOKEN, client: { apiKey: gatewayKey, baseUrl: mock.url, maxRetries: 0 } },
  );
  open.push(gateway);
  return { mock, gateway };
}

const ask = (url: string, headers: Record<string, string>) =>
  fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ model: 'claude-x', messages: [{ role: 'user', content: 'hi' }] }),
  });

const errorOf = async (r: Response) => ((await r.json()) as { error: { message: string } }).error.message;

describe('gateway error source', () => {
  it('no token: 401 from the gateway, naming the header it reads', async () => {
    const { gateway, mock } = await setup(UPSTREAM_KEY);
    const r = await ask(gateway.url, {});
    expect(r.status).toBe(401);
    expect(r.headers.get('x-wireforge-error-source')).toBe('gateway');
    expect(await errorOf(r)).toMatch(/needs its token: send it in the authorization header \(Bearer <token>\)/);
    expect(mock.requests).toHaveLength(0);
  });

  it('a wrong token: 401 from the gateway, refused, nothing sent upstream', async () => {
    const { gateway, mock } = await setup(UPSTREAM_KEY);
    const r = await ask(gateway.url, { authorization: 'Bearer not-the-token-000' });
    expect(r.status).toBe(401);
    expect(r.headers.get('x-wireforge-error-source')).toBe('gateway');
    expect(await errorOf(r)).toMatch(/refused the token sent in the authorization header/);
    expect(mock.requests).toHaveLength(0);
  });

  it("the upstream refuses the gateway's key: 502, from upstream, and the key is not in the message", async () => {
    const wrong = 'wrong-upstream-key-00001';
    const { gateway, mock } = await setup(wrong);
    const r = await ask(gateway.url, { authorization: `Bearer ${TOKEN}` });
    expect(r.status).toBe(502);
    expect(r.headers.get('x-wireforge-error-source')).toBe('upstream');
    const message = await errorOf(r);
    expect(message).toMatch(/Anthropic Messages refused the gateway's key \(HTTP 401\)/);
    expect(message).not.toContain(wrong);
    expect(mock.requests).toHaveLength(1);
  });

  it("the caller's own key passed upstream and refused: the upstream's 401, from upstream", async () => {
    const { gateway } = await setup('caller');
    const r = await ask(gateway.url, { authorization: 'Bearer callers-wrong-key-0001' });
    expect(r.status).toBe(401);
    expect(r.headers.get('x-wireforge-error-source')).toBe('upstream');
    const none = await ask(gateway.url, {});
    expect(none.status).toBe(401);
    expect(none.headers.get('x-wireforge-error-source')).toBe('gateway');
    expect(await errorOf(none)).toMatch(/send your Anthropic Messages key in the authorization header/);
  });

  it('a right token and key: an answer, no error source', async () => {
    const { gateway } = await setup(UPSTREAM_KEY);
    const r = await ask(gateway.url, { authorization: `Bearer ${TOKEN}` });
    expect(r.status).toBe(200);
    expect(r.headers.get('x-wireforge-error-source')).toBeNull();
  });
});
