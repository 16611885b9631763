/**
 * Behaviour of the HTTP path (createClient → transport → stream reader) against a real
 * loopback server on 127.0.0.1: request shape and auth, fixtures over the wire (blocking and
 * streamed in several chunks), HTTP errors and retries, key redaction, timeouts, cancellation,
 * truncated streams and in-stream error events.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, ProviderError, StreamError, TimeoutError, type AssistantMessage, type ChatRequest, type ChatResponse, type ClientOptions, type StreamEvent } from '../../generated/index.js';
import { partsOf } from '../helpers/replay.js';
import {
  jsonResponse,
  sseResponse,
  splitInto,
  startLoopbackServer,
  type LoopbackServer,
  type RecordedRequest,
  type Responder,
} from '../helpers/loopback-server.js';

const KEY = 'sk-test-SECRET-1234567890abcdef';
const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '../fixtures');
const REQUEST: ChatRequest = { model: 'test-model', messages: [{ role: 'user', content: 'Hello there' }] };

type Id = 'openai-chat' | 'anthropic-messages';

interface ProviderCase {
  id: Id;
  path: string;
  authHeader: string;
  authValue: (key: string) => string;
  /** The key as the server received it. */
  keyFrom: (r: RecordedRequest) => string;
  requestIdHeader: string;
  errorBody: (message: string, type: string, code?: string) => unknown;
  /** The start of a stream that carries these text pieces, without a terminal event. */
  textPrefix: (pieces: string[]) => string;
  /** The provider's in-stream error event. */
  inStreamError: (message: string) => string;
  inStreamErrorType: string;
  /** A status the provider uses for "overloaded" (retryable). */
  overloadedStatus: number;
}

const openaiChunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  `data: ${JSON.stringify({
    id: 'chatcmpl-loop1',
    object: 'chat.completion.chunk',
    created: 1747823411,
    model: 'gpt-test',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    usage: null,
  })}\n\n`;

const anthropicEvent = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

const PROVIDERS: ProviderCase[] = [
  {
    id: 'openai-chat',
    path: '/v1/chat/completions',
    authHeader: 'authorization',
    authValue: (key) => `Bearer ${key}`,
    keyFrom: (r) => String(r.headers.authorization ?? '').replace(/^Bearer /, ''),
    requestIdHeader: 'x-request-id',
    errorBody: (message, type, code) => ({ error: { message, type, param: null, code: code ?? null } }),
    textPrefix: (pieces) =>
      openaiChunk({ role: 'assistant', content: '', refusal: null }) + pieces.map((p) => openaiChunk({ content: p })).join(''),
    inStreamError: (message) => `data: ${JSON.stringify({ error: { message, type: 'server_error', param: null, code: null } })}\n\n`,
    inStreamErrorType: 'server_error',
    overloadedStatus: 500,
  },
  {
    id: 'anthropic-messages',
    path: '/v1/messages',
    authHeader: 'x-api-key',
    authValue: (key) => key,
    keyFrom: (r) => String(r.headers['x-api-key'] ?? ''),
    requestIdHeader: 'request-id',
    errorBody: (message, type) => ({ type: 'error', error: { type, message } }),
    textPrefix: (pieces) =>
      anthropicEvent('message_start', {
        message: {
          id: 'msg_loop1',
          type: 'message',
          role: 'assistant',
          model: 'claude-test',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 },
        },
      }) +
      anthropicEvent('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }) +
      'event: ping\ndata: {"type": "ping"}\n\n' +
      pieces.map((p) => anthropicEvent('content_block_delta', { index: 0, delta: { type: 'text_delta', text: p } })).join(''),
    inStreamError: (message) => anthropicEvent('error', { error: { type: 'overloaded_error', message } }),
    inStreamErrorType: 'overloaded_error',
    overloadedStatus: 529,
  },
];

// ---------------------------------------------------------------------------------------------

const servers: LoopbackServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(responders: Responder | Responder[]): Promise<LoopbackServer> {
  const server = await startLoopbackServer(responders);
  servers.push(server);
  return server;
}

function client(p: ProviderCase, server: LoopbackServer, options: ClientOptions = {}) {
  return createClient(p.id, { apiKey: KEY, baseUrl: `${server.url}/v1`, maxRetries: 0, ...options });
}

/** The rejection of a promise; fails the test if it resolves. */
async function rejection(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection, but the promise resolved');
}

/** Iterates a stream to its end or its error. */
async function drain(stream: AsyncIterable<StreamEvent>): Promise<{ events: StreamEvent[]; error: any }> {
  const events: StreamEvent[] = [];
  try {
    for await (const e of stream) events.push(e);
  } catch (error) {
    return { events, error };
  }
  return { events, error: undefined };
}

function within<T>(promise: Promise<T>, ms: number): Promise<T | 'timed out'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const cap = new Promise<'timed out'>((resolve) => {
    timer = setTimeout(() => resolve('timed out'), ms);
  });
  return Promise.race([promise, cap]).finally(() => clearTimeout(timer));
}

function fixtureCases(id: Id): string[] {
  return readdirSync(join(FIXTURES, id))
    .filter((f) => f.endsWith('.expected.json'))
    .map((f) => f.slice(0, -'.expected.json'.length))
    .sort();
}

function fixture(id: Id, name: string) {
  const dir = join(FIXTURES, id);
  return {
    json: readFileSync(join(dir, `${name}.json`), 'utf8'),
    sse: readFileSync(join(dir, `${name}.sse`), 'utf8'),
    expected: JSON.parse(readFileSync(join(dir, `${name}.expected.json`), 'utf8')) as Record<string, unknown>,
  };
}

/** Blocking requests get the JSON body, streaming requests the SSE body in several chunks. */
function fixtureResponder(id: Id, name: string): Responder {
  const f = fixture(id, name);
  return (req) =>
    (req.body as { stream?: boolean } | undefined)?.stream
      ? sseResponse(splitInto(f.sse, 7), { chunkDelayMs: 2 })
      : { status: 200, headers: { 'content-type': 'application/json' }, body: f.json };
}

const COMPARED = ['id', 'model', 'text', 'thinking', 'toolCalls', 'finishReason', 'rawFinishReason', 'usage', 'message'] as const;
const pick = (r: ChatResponse) => Object.fromEntries(COMPARED.map((k) => [k, r[k]]));

function expectNoSecret(value: unknown, what: string) {
  expect(value, what).not.toContain(KEY);
}

// ---------------------------------------------------------------------------------------------

describe.each(PROVIDERS)('$id over HTTP', (p) => {
  describe('request', () => {
    it('POSTs JSON to the spec path with the auth header and the user headers', async () => {
      const server = await serve(fixtureResponder(p.id, 'text'));
      const c = client(p, server, { headers: { 'X-Client-Header': 'client-value' } });
      await c.chat(REQUEST, { headers: { 'x-call-header': 'call-value' } });

      expect(server.requests).toHaveLength(1);
      const r = server.requests[0]!;
      expect(r.method).toBe('POST');
      expect(r.url).toBe(p.path);
      expect(r.headers[p.authHeader]).toBe(p.authValue(KEY));
      expect(r.headers['content-type']).toBe('application/json');
      if (p.id === 'anthropic-messages') expect(r.headers['anthropic-version']).toBe('2023-06-01');
      expect(r.headers['x-client-header']).toBe('client-value');
      expect(r.headers['x-call-header']).toBe('call-value');
      expect(r.body).toMatchObject({ model: 'test-model' });
      expect((r.body as { stream?: unknown }).stream).toBeUndefined();
    });

    it('stream() asks for a stream on the same path with the same auth', async () => {
      const server = await serve(fixtureResponder(p.id, 'text'));
      await client(p, server).stream(REQUEST).final();
      const r = server.requests[0]!;
      expect(r.method).toBe('POST');
      expect(r.url).toBe(p.path);
      expect(r.headers[p.authHeader]).toBe(p.authValue(KEY));
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.body).toMatchObject({ model: 'test-model', stream: true });
    });

    it('a user header named like the auth header does not replace it', async () => {
      const server = await serve(fixtureResponder(p.id, 'text'));
      const upper = p.authHeader.replace(/(^|-)([a-z])/g, (_m, d: string, ch: string) => d + ch.toUpperCase());
      const c = client(p, server, { headers: { [upper]: p.authValue('sk-other-token-000000000') } });
      await c.chat(REQUEST, { headers: { [p.authHeader]: p.authValue('sk-call-token-000000000') } });
      expect(server.requests[0]!.headers[p.authHeader]).toBe(p.authValue(KEY));
    });

    it('allowAuthOverride: true lets a user header replace the auth header', async () => {
      const server = await serve(fixtureResponder(p.id, 'text'));
      const c = client(p, server, { headers: { [p.authHeader]: p.authValue('sk-proxy-token-000000000') }, allowAuthOverride: true });
      await c.chat(REQUEST);
      expect(server.requests[0]!.headers[p.authHeader]).toBe(p.authValue('sk-proxy-token-000000000'));
    });
  });

  describe('fixtures over the wire', () => {
    for (const name of fixtureCases(p.id)) {
      it(`${name}: chat() gives the expected result, stream() events and final() match it`, async () => {
        const { expected } = fixture(p.id, name);
        const server = await serve(fixtureResponder(p.id, name));
        const c = client(p, server);

        const res = await c.chat(REQUEST);
        for (const [k, v] of Object.entries(expected)) {
          // The returned message also says where it came from (continuity state is only valid there).
          const want = k === 'message' ? { ...(v as object), parts: (v as AssistantMessage).parts ?? partsOf(v as AssistantMessage), origin: { provider: p.id, model: 'test-model' } } : v;
          expect((res as unknown as Record<string, unknown>)[k], k).toEqual(want);
        }

        const stream = c.stream(REQUEST);
        const { events, error } = await drain(stream);
        expect(error).toBeUndefined();
        expect(events[0]?.type).toBe('start');
        expect(events.at(-1)?.type).toBe('finish');
        expect(events.filter((e) => e.type === 'start')).toHaveLength(1);
        expect(events.filter((e) => e.type === 'finish')).toHaveLength(1);
        const streamedText = events.flatMap((e) => (e.type === 'text-delta' ? [e.delta] : [])).join('');
        expect(streamedText === '' ? null : streamedText).toBe(res.text);
        const final = await stream.final();
        expect(pick(final)).toEqual(pick(res));
        const finish = events.at(-1) as Extract<StreamEvent, { type: 'finish' }>;
        expect({ finishReason: finish.finishReason, rawFinishReason: finish.rawFinishReason, usage: finish.usage }).toEqual({
          finishReason: res.finishReason,
          rawFinishReason: res.rawFinishReason,
          usage: res.usage,
        });
        expect(server.requests).toHaveLength(2);
      });
    }
  });

  describe('HTTP errors', () => {
    it('400 with the provider error body → ProviderError with the provider fields, not retryable', async () => {
      const server = await serve(
        jsonResponse(400, p.errorBody("Unsupported parameter: 'max_tokens'", 'invalid_request_error', 'unsupported_parameter'), {
          [p.requestIdHeader]: 'req_loop_400',
        }),
      );
      const error = await rejection(client(p, server).chat(REQUEST));
      expect(error).toBeInstanceOf(ProviderError);
      expect(error.status).toBe(400);
      expect(error.providerMessage).toBe("Unsupported parameter: 'max_tokens'");
      expect(error.message).toContain("Unsupported parameter: 'max_tokens'");
      expect(error.type).toBe('invalid_request_error');
      // Anthropic error bodies carry no code.
      expect(error.code).toBe(p.id === 'openai-chat' ? 'unsupported_parameter' : undefined);
      expect(error.retryable).toBe(false);
      expect(error.requestId).toBe('req_loop_400');
      expect(error.body).toEqual(p.errorBody("Unsupported parameter: 'max_tokens'", 'invalid_request_error', 'unsupported_parameter'));
      expect(server.requests).toHaveLength(1);
    });

    it('stream(): an HTTP error rejects the iteration with the same ProviderError', async () => {
      const server = await serve(jsonResponse(400, p.errorBody('bad request', 'invalid_request_error'), { [p.requestIdHeader]: 'req_s' }));
      const { events, error } = await drain(client(p, server).stream(REQUEST));
      expect(events).toEqual([]);
      expect(error).toBeInstanceOf(ProviderError);
      expect(error.status).toBe(400);
      expect(error.providerMessage).toBe('bad request');
      expect(error.requestId).toBe('req_s');
      expect(error.retryable).toBe(false);
    });

    it.each([429, 500, 503])('%i → retryable', async (status) => {
      const server = await serve(jsonResponse(status, p.errorBody('try later', status === 429 ? 'rate_limit_error' : 'api_error')));
      const error = await rejection(client(p, server).chat(REQUEST));
      expect(error).toBeInstanceOf(ProviderError);
      expect(error.status).toBe(status);
      expect(error.retryable).toBe(true);
      expect(server.requests).toHaveLength(1); // maxRetries: 0
    });

    it(`${p.overloadedStatus} overloaded → retryable`, async () => {
      const server = await serve(jsonResponse(p.overloadedStatus, p.errorBody('Overloaded', 'overloaded_error')));
      const error = await rejection(client(p, server).chat(REQUEST));
      expect(error).toBeInstanceOf(ProviderError);
      expect(error.status).toBe(p.overloadedStatus);
      expect(error.type).toBe('overloaded_error');
      expect(error.retryable).toBe(true);
    });

    if (p.id === 'openai-chat') {
      it('429 with code insufficient_quota → not retryable', async () => {
        const server = await serve(
          jsonResponse(429, p.errorBody('You exceeded your current quota', 'insufficient_quota', 'insufficient_quota')),
        );
        const error = await rejection(client(p, server, { maxRetries: 2 }).chat(REQUEST));
        expect(error).toBeInstanceOf(ProviderError);
        expect(error.status).toBe(429);
        expect(error.code).toBe('insufficient_quota');
        expect(error.retryable).toBe(false);
        expect(server.requests).toHaveLength(1);
      });
    }

    it('x-should-retry: false on a 500 → not retryable (and not retried)', async () => {
      const server = await serve(jsonResponse(500, p.errorBody('internal', 'api_error'), { 'x-should-retry': 'false' }));
      const error = await rejection(client(p, server, { maxRetries: 2 }).chat(REQUEST));
      expect(error).toBeInstanceOf(ProviderError);
      expect(error.status).toBe(500);
      expect(error.retryable).toBe(false);
      expect(server.requests).toHaveLength(1);
    });

    it('502 with an HTML body → ProviderError that says non-JSON and quotes the body', async () => {
      const html = '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>';
      const server = await serve({ status: 502, headers: { 'content-type': 'text/html', [p.requestIdHeader]: 'req_gw' }, body: html });
      const error = await rejection(client(p, server).chat(REQUEST));
      expect(error).toBeInstanceOf(ProviderError);
      expect(error.status).toBe(502);
      expect(error.message).toMatch(/non-JSON/i);
      expect(error.message).toContain('502 Bad Gateway');
      expect(error.retryable).toBe(true);
      expect(error.requestId).toBe('req_gw');
    });
  });

  describe('the API key never leaks', () => {
    /** Echo the received key everywhere a provider might: message, type, extra fields. */
    const echo: Responder = (req) => {
      const key = p.keyFrom(req);
      const body = p.errorBody(`Incorrect API key provided: ${key}. You can find your key at …`, 'authentication_error', 'invalid_api_key') as Record<string, any>;
      body.echo = { key, headers: { [p.authHeader]: p.authValue(key) }, list: [key, `prefix-${key}-suffix`] };
      return jsonResponse(401, body, { [p.requestIdHeader]: 'req_leak' });
    };

    function expectClean(error: any) {
      expectNoSecret(error.message, 'message');
      expectNoSecret(String(error), 'String(error)');
      expectNoSecret(JSON.stringify(error), 'JSON.stringify(error)');
      expectNoSecret(error.stack, 'stack');
      expectNoSecret(inspect(error, { depth: Infinity }), 'inspect(error)');
      expectNoSecret(inspect(error, { depth: Infinity, showHidden: true }), 'inspect(error, showHidden)');
      expectNoSecret(JSON.stringify(error.body ?? null), 'JSON.stringify(error.body)');
      expectNoSecret(JSON.stringify(error.partial ?? null), 'JSON.stringify(error.partial)');
    }

    it('an HTTP error body that echoes the key: chat() and stream()', async () => {
      const server = await serve(echo);
      const c = client(p, server);

      const error = await rejection(c.chat(REQUEST));
      expect(error).toBeInstanceOf(ProviderError);
      expect(p.keyFrom(server.requests[0]!)).toBe(KEY); // the server really echoed the key
      expect(error.status).toBe(401);
      expect(error.providerMessage).toContain('Incorrect API key provided');
      expect(error.requestId).toBe('req_leak');
      expectClean(error);

      const { error: streamError } = await drain(c.stream(REQUEST));
      expect(streamError).toBeInstanceOf(ProviderError);
      expectClean(streamError);
    });

    it('a non-JSON error page that echoes the key', async () => {
      const server = await serve((req) => ({
        status: 502,
        headers: { 'content-type': 'text/html' },
        body: `<html><body>Bad gateway for key ${p.keyFrom(req)}</body></html>`,
      }));
      const error = await rejection(client(p, server).chat(REQUEST));
      expect(error).toBeInstanceOf(ProviderError);
      expect(error.message).toMatch(/non-JSON/i);
      expectClean(error);
    });

    it('an in-stream error event that echoes the key', async () => {
      const server = await serve((req) => sseResponse([p.textPrefix(['Hel', 'lo']), p.inStreamError(`key ${p.keyFrom(req)} was revoked`)]));
      const { error } = await drain(client(p, server).stream(REQUEST));
      expect(error).toBeInstanceOf(ProviderError);
      expect(error.providerMessage).toContain('was revoked');
      expectClean(error);
    });

    it('a malformed stream event that echoes the key', async () => {
      const server = await serve((req) => sseResponse([p.textPrefix(['Hi']), `data: {"oops": "${p.keyFrom(req)}"\n\n`]));
      const { error } = await drain(client(p, server).stream(REQUEST));
      expect(error).toBeInstanceOf(StreamError);
      expect(error.message).toMatch(/malformed JSON/);
      expectClean(error);
    });

    it('a 200 whose body is not JSON and echoes the key (chat)', async () => {
      const server = await serve((req) => ({ status: 200, headers: { 'content-type': 'text/plain' }, body: `proxy says: key ${p.keyFrom(req)} accepted` }));
      const error = await rejection(client(p, server).chat(REQUEST));
      expect(error).toBeInstanceOf(StreamError);
      expectClean(error);
    });

    it('util.inspect(client) does not show the key', async () => {
      const server = await serve(fixtureResponder(p.id, 'text'));
      const c = client(p, server, { headers: { 'x-extra': 'v' } });
      expectNoSecret(inspect(c, { depth: Infinity }), 'inspect(client)');
      expectNoSecret(inspect(c, { depth: Infinity, showHidden: true }), 'inspect(client, showHidden)');
      expectNoSecret(JSON.stringify(c), 'JSON.stringify(client)');
      const stream = c.stream(REQUEST);
      expectNoSecret(inspect(stream, { depth: Infinity, showHidden: true }), 'inspect(stream)');
      await stream.final();
    });
  });

  describe('retries', () => {
    it('maxRetries: 2 — a 500 then a 200 succeeds after 2 requests, honouring retry-after-ms', async () => {
      const ok = fixtureResponder(p.id, 'text');
      const server = await serve([jsonResponse(500, p.errorBody('internal', 'api_error'), { 'retry-after-ms': '10' }), ok]);
      const res = await client(p, server, { maxRetries: 2 }).chat(REQUEST);
      expect(res.text).toBe(fixture(p.id, 'text').expected.text);
      expect(server.requests).toHaveLength(2);
      // The default backoff for the first retry is 375–500 ms: less means the header was used.
      // Measured between the two arrivals at the server, not around the whole call, for a busy machine.
      expect(server.requests[1]!.receivedAt - server.requests[0]!.receivedAt).toBeLessThan(375);
      expect(server.requests[1]!.rawBody).toBe(server.requests[0]!.rawBody);
    });

    it('retry-after-ms sets the wait between attempts', async () => {
      const server = await serve([
        jsonResponse(p.overloadedStatus, p.errorBody('Overloaded', 'overloaded_error'), { 'retry-after-ms': '120' }),
        fixtureResponder(p.id, 'text'),
      ]);
      await client(p, server, { maxRetries: 1 }).chat(REQUEST);
      expect(server.requests).toHaveLength(2);
      const gap = server.requests[1]!.receivedAt - server.requests[0]!.receivedAt;
      expect(gap).toBeGreaterThanOrEqual(110);
      // Under the default backoff's least (375 ms): the header's wait, not the default's.
      expect(gap).toBeLessThan(375);
    });

    it('stream(): a 429 then a stream succeeds', async () => {
      const server = await serve([jsonResponse(429, p.errorBody('slow down', 'rate_limit_error'), { 'retry-after-ms': '5' }), fixtureResponder(p.id, 'text')]);
      const final = await client(p, server, { maxRetries: 2 }).stream(REQUEST).final();
      expect(final.text).toBe(fixture(p.id, 'text').expected.text);
      expect(server.requests).toHaveLength(2);
    });

    it('a 400 is never retried', async () => {
      const server = await serve([jsonResponse(400, p.errorBody('bad', 'invalid_request_error')), fixtureResponder(p.id, 'text')]);
      const error = await rejection(client(p, server, { maxRetries: 2 }).chat(REQUEST));
      expect(error).toBeInstanceOf(ProviderError);
      expect(error.status).toBe(400);
      expect(server.requests).toHaveLength(1);
    });

    it('x-should-retry: true makes even a 400 retryable', async () => {
      const server = await serve([
        jsonResponse(400, p.errorBody('transient', 'invalid_request_error'), { 'x-should-retry': 'true', 'retry-after-ms': '1' }),
        fixtureResponder(p.id, 'text'),
      ]);
      const res = await client(p, server, { maxRetries: 1 }).chat(REQUEST);
      expect(res.text).toBe(fixture(p.id, 'text').expected.text);
      expect(server.requests).toHaveLength(2);
    });

    it('retries stop after maxRetries and the last error is raised', async () => {
      const server = await serve(jsonResponse(500, p.errorBody('still broken', 'api_error'), { 'retry-after-ms': '1' }));
      const error = await rejection(client(p, server, { maxRetries: 2 }).chat(REQUEST));
      expect(error).toBeInstanceOf(ProviderError);
      expect(error.status).toBe(500);
      expect(server.requests).toHaveLength(3);
    });
  });

  describe('timeouts', () => {
    it('timeoutMs against a server that never answers → TimeoutError first-byte', async () => {
      const server = await serve({ hang: true });
      const t0 = performance.now();
      const error = await rejection(client(p, server, { timeoutMs: 200 }).chat(REQUEST));
      expect(error).toBeInstanceOf(TimeoutError);
      expect(error.phase).toBe('first-byte');
      expect(error.timeoutMs).toBe(200);
      // Well before any default (600 s), with room for a busy machine: the 200 ms timeout is what ended it.
      expect(performance.now() - t0).toBeLessThan(5000);
      expect(await within(server.requests[0]!.socketClosed, 5000)).not.toBe('timed out');
    });

    it('stream(): timeoutMs against a server that never answers → TimeoutError first-byte', async () => {
      const server = await serve({ hang: true });
      const { events, error } = await drain(client(p, server, { timeoutMs: 200 }).stream(REQUEST));
      expect(events).toEqual([]);
      expect(error).toBeInstanceOf(TimeoutError);
      expect(error.phase).toBe('first-byte');
    });

    it('chat(): headers then a body that stalls → TimeoutError, connection released', async () => {
      const { json } = fixture(p.id, 'text');
      const server = await serve({ status: 200, headers: { 'content-type': 'application/json' }, body: [json.slice(0, 40)], keepOpen: true });
      const outcome = await within(rejection(client(p, server, { timeoutMs: 200, idleTimeoutMs: 200 }).chat(REQUEST)), 5000);
      expect(outcome, 'chat() still pending 5 s after a 200 ms timeout').not.toBe('timed out');
      expect(outcome).toBeInstanceOf(TimeoutError);
      expect(await within(server.requests[0]!.socketClosed, 5000)).not.toBe('timed out');
    });

    it('headers but no event → TimeoutError idle (idleTimeoutMs), connection released', async () => {
      const server = await serve(sseResponse([], { keepOpen: true }));
      const t0 = performance.now();
      const { events, error } = await drain(client(p, server, { idleTimeoutMs: 200 }).stream(REQUEST));
      expect(events).toEqual([]);
      expect(error).toBeInstanceOf(TimeoutError);
      expect(error.phase).toBe('idle');
      expect(error.timeoutMs).toBe(200);
      // Well before any default (600 s), with room for a busy machine: the 200 ms timeout is what ended it.
      expect(performance.now() - t0).toBeLessThan(5000);
      expect(await within(server.requests[0]!.socketClosed, 5000)).not.toBe('timed out');
    });

    it('silence after some text → TimeoutError idle with partial text', async () => {
      const server = await serve(sseResponse([p.textPrefix(['Hello', ', wor'])], { keepOpen: true }));
      const { events, error } = await drain(client(p, server, { idleTimeoutMs: 200 }).stream(REQUEST));
      expect(events[0]?.type).toBe('start');
      expect(error).toBeInstanceOf(TimeoutError);
      expect(error.phase).toBe('idle');
      expect(error.partial?.text).toBe('Hello, wor');
    });
  });

  describe('cancellation', () => {
    const midStream = () => sseResponse([p.textPrefix(['Hello', ' there'])], { keepOpen: true });

    it('aborting the signal after the first event rejects with an AbortError and closes the socket', async () => {
      const server = await serve(midStream());
      const controller = new AbortController();
      const stream = client(p, server).stream(REQUEST, { signal: controller.signal });
      const events: StreamEvent[] = [];
      const error = await rejection(
        (async () => {
          for await (const e of stream) {
            events.push(e);
            if (events.length === 1) controller.abort();
          }
        })(),
      );
      expect(events[0]?.type).toBe('start');
      expect(error).toBeInstanceOf(Error);
      expect(error.name).toBe('AbortError');
      expect(await within(server.requests[0]!.socketClosed, 5000)).not.toBe('timed out');
      await expect(stream.final()).rejects.toBeDefined();
    });

    it('aborting with a reason rejects with that reason', async () => {
      const server = await serve(midStream());
      const controller = new AbortController();
      const reason = new Error('user pressed stop');
      const stream = client(p, server).stream(REQUEST, { signal: controller.signal });
      const error = await rejection(
        (async () => {
          for await (const e of stream) if (e.type === 'start') controller.abort(reason);
        })(),
      );
      expect(error).toBe(reason);
      expect(await within(server.requests[0]!.socketClosed, 5000)).not.toBe('timed out');
    });

    it('aborting while waiting for the response rejects chat() with an AbortError and closes the socket', async () => {
      const server = await serve({ hang: true });
      const controller = new AbortController();
      const pending = client(p, server).chat(REQUEST, { signal: controller.signal });
      const req = await server.waitForRequest(0);
      controller.abort();
      const error = await rejection(pending);
      expect(error.name).toBe('AbortError');
      expect(await within(req.socketClosed, 5000)).not.toBe('timed out');
    });

    it('an already aborted signal rejects without sending the request', async () => {
      const server = await serve(fixtureResponder(p.id, 'text'));
      const c = client(p, server);
      const error = await rejection(c.chat(REQUEST, { signal: AbortSignal.abort() }));
      expect(error.name).toBe('AbortError');
      const { error: streamError } = await drain(c.stream(REQUEST, { signal: AbortSignal.abort() }));
      expect(streamError.name).toBe('AbortError');
      expect(server.requests).toHaveLength(0);
    });

    it('breaking out of for-await after the first event closes the socket promptly', async () => {
      const server = await serve(midStream());
      const stream = client(p, server).stream(REQUEST);
      const seen: StreamEvent[] = [];
      for await (const e of stream) {
        seen.push(e);
        break;
      }
      expect(seen.map((e) => e.type)).toEqual(['start']);
      expect(await within(server.requests[0]!.socketClosed, 5000)).not.toBe('timed out');
      const error = await rejection(stream.final());
      expect(error).toBeInstanceOf(StreamError);
    });
  });

  describe('empty and truncated bodies', () => {
    it('chat(): an empty 200 body → StreamError', async () => {
      const server = await serve({ status: 200, headers: { 'content-type': 'application/json' }, body: '' });
      const error = await rejection(client(p, server).chat(REQUEST));
      expect(error).toBeInstanceOf(StreamError);
      expect(error.message).toMatch(/empty/i);
    });

    it('stream(): an empty 200 body → StreamError', async () => {
      const server = await serve(sseResponse([]));
      const { error } = await drain(client(p, server).stream(REQUEST));
      expect(error).toBeInstanceOf(StreamError);
    });

    it('stream(): a stream that ends before its terminal event → StreamError with partial text', async () => {
      const body = p.textPrefix(['The tide', ' is ', 'out.']);
      const server = await serve(sseResponse(splitInto(body, 4), { chunkDelayMs: 2 }));
      const { events, error } = await drain(client(p, server).stream(REQUEST));
      expect(events[0]?.type).toBe('start');
      expect(events.some((e) => e.type === 'finish')).toBe(false);
      expect(error).toBeInstanceOf(StreamError);
      expect(error.message).toMatch(/terminal event/);
      expect(error.partial?.text).toBe('The tide is out.');
    });

    it('stream(): the connection is reset mid-stream → StreamError with partial text', async () => {
      const server = await serve(sseResponse([p.textPrefix(['Half', ' a sentence'])], { destroyAfter: true }));
      const { events, error } = await drain(client(p, server).stream(REQUEST));
      expect(events[0]?.type).toBe('start');
      expect(error).toBeInstanceOf(StreamError);
      expect(error.partial?.text).toBe('Half a sentence');
    });

    it('stream(): a complete fixture cut just before its terminal event → StreamError with all the text', async () => {
      const { sse, expected } = fixture(p.id, 'text');
      const cut = p.id === 'openai-chat' ? sse.slice(0, sse.lastIndexOf('data: [DONE]')) : sse.slice(0, sse.lastIndexOf('event: message_stop'));
      expect(cut.length).toBeLessThan(sse.length);
      const server = await serve(sseResponse(splitInto(cut, 5), { chunkDelayMs: 2 }));
      const stream = client(p, server).stream(REQUEST);
      const { error } = await drain(stream);
      expect(error).toBeInstanceOf(StreamError);
      expect(error.partial?.text).toBe(expected.text);
      await expect(stream.final()).rejects.toBe(error);
    });
  });

  describe('in-stream error events', () => {
    it('an error event after some text → ProviderError with partial text', async () => {
      // The error comes in a read of its own: 100 ms apart, also on a busy machine.
      const server = await serve(sseResponse([p.textPrefix(['Partial', ' answer']), { delayMs: 100 }, p.inStreamError('Overloaded')]));
      const stream = client(p, server).stream(REQUEST);
      const { events, error } = await drain(stream);
      expect(events[0]?.type).toBe('start');
      expect(events.filter((e) => e.type === 'text-delta').map((e) => (e as { delta: string }).delta).join('')).toBe('Partial answer');
      expect(error).toBeInstanceOf(ProviderError);
      expect(error.status).toBeUndefined();
      expect(error.providerMessage).toBe('Overloaded');
      expect(error.type).toBe(p.inStreamErrorType);
      expect(error.partial?.text).toBe('Partial answer');
      await expect(stream.final()).rejects.toBe(error);
    });

    it('text and an error event in one read: the text events are handed out before the error', async () => {
      const server = await serve(sseResponse([p.textPrefix(['Partial', ' answer']) + p.inStreamError('Overloaded')]));
      const stream = client(p, server).stream(REQUEST);
      const { events, error } = await drain(stream);
      expect(events[0]?.type).toBe('start');
      expect(events.filter((e) => e.type === 'text-delta').map((e) => (e as { delta: string }).delta).join('')).toBe('Partial answer');
      expect(error).toBeInstanceOf(ProviderError);
      expect(error.partial?.text).toBe('Partial answer');
      await expect(stream.final()).rejects.toBe(error);
    });

    it('an error event on a connection the server keeps open releases the connection', async () => {
      const server = await serve(sseResponse([p.textPrefix(['x']), p.inStreamError('Overloaded')], { keepOpen: true }));
      const { error } = await drain(client(p, server).stream(REQUEST));
      expect(error).toBeInstanceOf(ProviderError);
      expect(await within(server.requests[0]!.socketClosed, 5000)).not.toBe('timed out');
    });
  });
});
