/**
 * An error body the client can parse but whose message is not where the spec looks: the error
 * says which path it read and quotes the body, rather than calling it non-JSON.
 */
import { afterEach, expect, it } from 'vitest';
import { createClient, ProviderError } from '../../generated/index.js';
import { jsonResponse, startLoopbackServer, type LoopbackServer } from '../helpers/loopback-server.js';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function errorFrom(id: 'openai-chat' | 'anthropic-messages', status: number, body: string, contentType = 'application/json'): Promise<ProviderError> {
  server = await startLoopbackServer({ status, headers: { 'content-type': contentType }, body });
  const client = createClient(id, { apiKey: 'k', baseUrl: server.url, model: 'm', maxRetries: 0 });
  const e = await client.chat({ messages: [{ role: 'user', content: 'hi' }] }).then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(ProviderError);
  return e as ProviderError;
}

it('a JSON body without the message path says so, naming the paths it looked at, and quotes the body', async () => {
  const e = await errorFrom('openai-chat', 400, JSON.stringify({ detail: 'model not found' }));
  expect(e.message).not.toMatch(/non-JSON/i);
  expect(e.message).toContain('HTTP 400: no message at error.message or message: ');
  expect(e.message).toContain('model not found');
  expect(e.body).toEqual({ detail: 'model not found' });
});

it("names the spec's own paths (Anthropic's error.message)", async () => {
  const e = await errorFrom('anthropic-messages', 500, JSON.stringify({ type: 'error', error: { type: 'api_error' } }));
  expect(e.message).toMatch(/: no message at error\.message: /);
  expect(e.type).toBe('api_error');
});

it('a JSON value that is not an object (a bare string) is still JSON', async () => {
  const e = await errorFrom('openai-chat', 503, JSON.stringify('upstream overloaded'));
  expect(e.message).toMatch(/HTTP 503: no message at /);
  expect(e.message).toContain('upstream overloaded');
});

it('a body that is not JSON still says non-JSON', async () => {
  const e = await errorFrom('openai-chat', 502, '<html>bad gateway</html>', 'text/html');
  expect(e.message).toMatch(/: non-JSON error body: <html>bad gateway/);
});
