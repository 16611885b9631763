/**
 * HTTP error statuses → ProviderError subclasses (runtime/errors.ts providerErrorFor), over a
 * real loopback server: the class, that it is still a ProviderError and a WireforgeError, the
 * status and name, and that the API key the server echoes back never reaches the message.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { adapters } from '../../generated/index.js';
import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  createClientFor,
  InternalServerError,
  NotFoundError,
  PermissionError,
  ProviderError,
  providerErrorFor,
  RateLimitError,
  UnprocessableEntityError,
  WireforgeError,
  type ChatRequest,
} from '../../generated/index.js';
import { jsonResponse, startLoopbackServer, type LoopbackServer, type ScriptedResponse } from '../helpers/loopback-server.js';

const KEY = 'sk-test-ERRORS-1234567890abcdef';
const REQUEST: ChatRequest = { model: 'test-model', messages: [{ role: 'user', content: 'Hello there' }] };

type ErrorClass = new (...args: never[]) => ProviderError;

/** An OpenAI-shaped error body whose message echoes the key, as some providers do for 401s. */
const echoingKey = (status: number): ScriptedResponse =>
  jsonResponse(status, { error: { message: `request refused for key ${KEY}`, type: 'test_error', param: null, code: `status_${status}` } });

const CASES: Array<{ status: number; expected: ErrorClass; response?: ScriptedResponse }> = [
  { status: 400, expected: BadRequestError },
  { status: 401, expected: AuthenticationError },
  { status: 403, expected: PermissionError },
  { status: 404, expected: NotFoundError },
  { status: 409, expected: ConflictError },
  { status: 422, expected: UnprocessableEntityError },
  { status: 429, expected: RateLimitError },
  { status: 500, expected: InternalServerError },
  { status: 502, expected: InternalServerError },
  { status: 503, expected: InternalServerError },
  { status: 529, expected: InternalServerError },
  // A non-JSON body is quoted in the message: the key must be redacted there too.
  { status: 504, expected: InternalServerError, response: { status: 504, headers: { 'content-type': 'text/html' }, body: `<html>gateway timeout ${KEY}</html>` } },
  // Statuses without a subclass stay plain ProviderError.
  { status: 402, expected: ProviderError },
  { status: 405, expected: ProviderError },
  { status: 408, expected: ProviderError },
  { status: 413, expected: ProviderError },
  { status: 418, expected: ProviderError },
];

const SUBCLASSES: ErrorClass[] = [
  BadRequestError,
  AuthenticationError,
  PermissionError,
  NotFoundError,
  ConflictError,
  UnprocessableEntityError,
  RateLimitError,
  InternalServerError,
];

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function clientFor(url: string) {
  return createClientFor(adapters['openai-chat'], { apiKey: KEY, baseUrl: `${url}/v1`, maxRetries: 0 });
}

describe('HTTP error status → ProviderError subclass (openai-chat over loopback)', () => {
  it.each(CASES.map((c) => [c.status, c.expected.name, c] as const))('%i → %s', async (status, _name, c) => {
    server = await startLoopbackServer(c.response ?? echoingKey(status));
    const error = await clientFor(server.url).chat(REQUEST).then(() => undefined, (e: unknown) => e);

    expect(error).toBeInstanceOf(c.expected);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toBeInstanceOf(WireforgeError);
    const e = error as ProviderError;
    expect(e.constructor).toBe(c.expected);
    expect(e.status).toBe(status);
    expect(e.name).toBe(c.expected.name);
    for (const other of SUBCLASSES) if (other !== c.expected) expect(e).not.toBeInstanceOf(other);

    expect(e.message).not.toContain(KEY);
    expect(String(e)).not.toContain(KEY);
    expect(String(e).startsWith(`${c.expected.name}: `)).toBe(true);
    expect(JSON.stringify(e.body) ?? '').not.toContain(KEY);
    expect(e.message).toContain('[redacted]');
    expect(server.requests).toHaveLength(1);
  });

  it('stream(): an HTTP error rejects the iteration with the subclass too', async () => {
    server = await startLoopbackServer(echoingKey(401));
    let error: unknown;
    try {
      for await (const _event of clientFor(server.url).stream(REQUEST)) {
        // no events expected
      }
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).status).toBe(401);
    expect((error as ProviderError).name).toBe('AuthenticationError');
    expect(String(error)).not.toContain(KEY);
  });
});

describe('a key echoed in any field the provider sends back is scrubbed', () => {
  const everywhere = { error: { message: `bad key ${KEY}`, type: `invalid ${KEY}`, code: `code_${KEY}` } };
  const asText = (e: ProviderError) => JSON.stringify({ message: e.message, providerMessage: e.providerMessage, type: e.type, code: e.code, body: e.body, requestId: e.requestId });

  it('an HTTP error: message, type, code, body and the request id header', async () => {
    server = await startLoopbackServer({ status: 400, headers: { 'content-type': 'application/json', 'x-request-id': `req_${KEY}` }, body: JSON.stringify(everywhere) });
    const e = (await clientFor(server.url).chat(REQUEST).catch((x: unknown) => x)) as ProviderError;
    expect(e).toBeInstanceOf(BadRequestError);
    expect(asText(e)).not.toContain(KEY);
    expect(e.type).toBe('invalid [redacted]');
    expect(e.code).toBe('code_[redacted]');
    expect(e.requestId).toBe('req_[redacted]');
    expect(e.message).toBe('openai-chat: HTTP 400 (invalid [redacted]): bad key [redacted]');
  });

  it('an error event in the middle of a stream: message, type, code and body', async () => {
    const chunk = { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: 'hi' }, finish_reason: null }] };
    server = await startLoopbackServer({ headers: { 'content-type': 'text/event-stream' }, body: `data: ${JSON.stringify(chunk)}\n\ndata: ${JSON.stringify(everywhere)}\n\n` });
    const e = (await clientFor(server.url).stream(REQUEST).final().catch((x: unknown) => x)) as ProviderError;
    expect(e).toBeInstanceOf(ProviderError);
    expect(e.status).toBeUndefined();
    expect(asText(e)).not.toContain(KEY);
    expect(e.type).toBe('invalid [redacted]');
    expect(e.code).toBe('code_[redacted]');
  });
});

describe('providerErrorFor', () => {
  const init = { provider: 'test', message: 'm', retryable: false };

  it('an in-stream error (no status) stays a plain ProviderError', () => {
    const e = providerErrorFor(init);
    expect(e.constructor).toBe(ProviderError);
    expect(e.name).toBe('ProviderError');
    expect(e.status).toBeUndefined();
  });

  it.each([
    [399, ProviderError],
    [499, ProviderError],
    [500, InternalServerError],
    [599, InternalServerError],
  ] as const)('status %i → %o', (status, expected) => {
    const e = providerErrorFor({ ...init, status });
    expect(e.constructor).toBe(expected);
    expect(e.name).toBe(expected.name);
  });

  it('keeps every field of the init, as ProviderError does', () => {
    const full = { ...init, status: 429, type: 'rate_limit_error', code: 'slow_down', body: { a: 1 }, retryable: true, requestId: 'req_1' };
    const e = providerErrorFor(full);
    const plain = new ProviderError(full);
    expect(e).toBeInstanceOf(RateLimitError);
    expect({ ...e, name: undefined }).toEqual({ ...plain, name: undefined });
    expect(e.message).toBe(plain.message);
  });
});
