/**
 * Vertex AI over loopback: the project/location URL of each publisher, an OAuth access token from
 * getToken() asked for before every attempt (a retry gets a fresh one) and never quoted by an
 * error, anthropic_version in the body instead of the model, Gemini's thought signatures carried
 * over two turns, and a call without args.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, RequestError, type Message } from '../../../generated/index.js';
import { forwardingFetch } from '../../helpers/forwarding-fetch.js';
import { jsonResponse, sseResponse, startLoopbackServer, type LoopbackServer, type Responder } from '../../helpers/loopback-server.js';

let server: LoopbackServer | undefined;
afterEach(async () => server?.close());

async function loopback(responders: Responder | Responder[]) {
  server = await startLoopbackServer(responders);
  return { ...forwardingFetch(server), server };
}

const tokens = () => {
  let n = 0;
  return { getToken: async () => `ya29.token-number-${++n}-0123456789`, count: () => n };
};

describe('vertex-gemini', () => {
  const answer = (parts: unknown[], finishReason = 'STOP') => ({ candidates: [{ content: { role: 'model', parts }, finishReason }], usageMetadata: { promptTokenCount: 4, candidatesTokenCount: 3, totalTokenCount: 7 }, modelVersion: 'gemini-2.5-pro' });

  it('the project and location URL, a bearer token per attempt (a retry asks again), the token never in an error', async () => {
    const t = tokens();
    const lb = await loopback([jsonResponse(503, { error: { code: 503, message: 'busy', status: 'UNAVAILABLE' } }), jsonResponse(200, answer([{ text: 'Olá.' }]))]);
    const client = createClient('vertex-gemini', { model: 'gemini-2.5-pro', endpoint: { project: 'my-proj' }, getToken: t.getToken, fetch: lb.fetch, maxRetries: 1 });
    expect((await client.chat({ messages: [{ role: 'user', content: 'hi' }] })).text).toBe('Olá.');
    expect(lb.urls[0]).toBe('https://us-central1-aiplatform.googleapis.com/v1/projects/my-proj/locations/us-central1/publishers/google/models/gemini-2.5-pro:generateContent');
    expect(lb.server.requests.map((r) => r.headers.authorization)).toEqual(['Bearer ya29.token-number-1-0123456789', 'Bearer ya29.token-number-2-0123456789']);
    expect(lb.server.requests[0]!.headers['x-goog-api-key']).toBeUndefined();

    // An error body that echoes the token: redacted.
    const lb2 = await loopback(jsonResponse(401, { error: { code: 401, message: 'bad token ya29.token-number-3-0123456789', status: 'UNAUTHENTICATED' } }));
    const e = await createClient('vertex-gemini', { model: 'm', endpoint: { project: 'p' }, getToken: t.getToken, fetch: lb2.fetch, maxRetries: 0 })
      .chat({ messages: [{ role: 'user', content: 'hi' }] })
      .catch((x: unknown) => x);
    expect(JSON.stringify(e)).not.toContain('token-number-3');
    expect(String((e as Error).message)).toContain('[redacted]');
  });

  it('streams from the location of the global host, with alt=sse', async () => {
    const lb = await loopback(sseResponse([`data: ${JSON.stringify(answer([{ text: 'Hi' }]))}\n\n`]));
    // The global location's host has no region prefix: the spec picks it by the location.
    const s = createClient('vertex-gemini', { model: 'gemini-2.5-flash', endpoint: { project: 'p', location: 'global' }, getToken: () => 'ya29.static-token-0123456789', fetch: lb.fetch });
    expect((await s.stream({ messages: [{ role: 'user', content: 'hi' }] }).final()).text).toBe('Hi');
    expect(lb.urls[0]).toBe('https://aiplatform.googleapis.com/v1/projects/p/locations/global/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
  });

  it('a getToken() that never settles is cut by the timeout, and by the caller\'s signal', async () => {
    const lb = await loopback(jsonResponse(200, answer([{ text: 'never' }])));
    const hanging = () => new Promise<string>(() => undefined);
    const slow = createClient('vertex-gemini', { model: 'm', endpoint: { project: 'p' }, getToken: hanging, fetch: lb.fetch, timeoutMs: 150, maxRetries: 0 });
    await expect(slow.chat({ messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ name: 'TimeoutError' });
    const patient = createClient('vertex-gemini', { model: 'm', endpoint: { project: 'p' }, getToken: hanging, fetch: lb.fetch, maxRetries: 0 });
    const stop = new AbortController();
    setTimeout(() => stop.abort(new Error('user left')), 50);
    await expect(patient.chat({ messages: [{ role: 'user', content: 'hi' }] }, { signal: stop.signal })).rejects.toThrow('user left');
    expect(lb.server.requests).toHaveLength(0);
  });

  it('getToken given to a spec that takes keys is refused', () => {
    expect(() => createClient('openai-chat', { getToken: () => 't' })).toThrow(/does not authenticate with access tokens/);
  });

  it('no token and no key: a RequestError that says to pass getToken; a missing project names its env vars', () => {
    expect(() => createClient('vertex-gemini', { endpoint: { project: 'p' } })).toThrow(RequestError);
    expect(() => createClient('vertex-gemini', { endpoint: { project: 'p' } })).toThrow(/getToken/);
    const before = { ...process.env };
    try {
      delete process.env.GOOGLE_VERTEX_PROJECT;
      delete process.env.GOOGLE_CLOUD_PROJECT;
      expect(() => createClient('vertex-gemini', { getToken: () => 't' })).toThrow(/GOOGLE_VERTEX_PROJECT or GOOGLE_CLOUD_PROJECT/);
    } finally {
      process.env = before;
    }
  });

  it('thought signatures go back on the parts they came with; a call without args has {} arguments', async () => {
    const first = answer([{ text: 'Let me check.', thoughtSignature: 'sig-text-1' }, { functionCall: { name: 'now' }, thoughtSignature: 'sig-call-1' }]);
    const lb = await loopback([jsonResponse(200, first), jsonResponse(200, answer([{ text: 'It is noon.' }]))]);
    const client = createClient('vertex-gemini', { model: 'gemini-3-pro', endpoint: { project: 'p' }, getToken: () => 'ya29.static-token-0123456789', fetch: lb.fetch });
    const tools = [{ name: 'now', parameters: { type: 'object', properties: {} } }];
    const r1 = await client.chat({ messages: [{ role: 'user', content: 'Time?' }], tools });
    expect(r1.toolCalls).toEqual([expect.objectContaining({ name: 'now', arguments: '{}' })]);
    const history: Message[] = [{ role: 'user', content: 'Time?' }, r1.message, { role: 'tool', toolCallId: r1.toolCalls[0]!.id, toolName: 'now', content: '12:00' }];
    await client.chat({ messages: history, tools });
    const sent = lb.server.requests[1]!.body as { contents: Array<{ role: string; parts: Array<Record<string, unknown>> }> };
    expect(sent.contents[1]).toEqual({ role: 'model', parts: [{ text: 'Let me check.', thoughtSignature: 'sig-text-1' }, { functionCall: { name: 'now', args: {} }, thoughtSignature: 'sig-call-1' }] });
    expect(sent.contents[2]!.parts[0]).toEqual({ functionResponse: { name: 'now', response: { output: '12:00' } } });
  });
});

describe('vertex-anthropic', () => {
  const message = { id: 'msg_vrtx_01', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5@20250929', content: [{ type: 'text', text: 'Hello.' }], stop_reason: 'end_turn', usage: { input_tokens: 5, output_tokens: 2 } };

  it('rawPredict with the model in the path, anthropic_version in the body and no model there; no anthropic-version header; a bearer token', async () => {
    const lb = await loopback(jsonResponse(200, message));
    const client = createClient('vertex-anthropic', { model: 'claude-sonnet-4-5@20250929', endpoint: { project: 'my-proj' }, getToken: () => 'ya29.static-token-0123456789', fetch: lb.fetch });
    expect((await client.chat({ messages: [{ role: 'user', content: 'hi' }] })).text).toBe('Hello.');
    expect(lb.urls[0]).toBe('https://us-east5-aiplatform.googleapis.com/v1/projects/my-proj/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5%4020250929:rawPredict');
    const req = lb.server.requests[0]!;
    expect(req.body).toMatchObject({ anthropic_version: 'vertex-2023-10-16', max_tokens: 4096, messages: [{ role: 'user', content: 'hi' }] });
    expect((req.body as Record<string, unknown>).model).toBeUndefined();
    expect(req.headers['anthropic-version']).toBeUndefined();
    expect(req.headers['x-api-key']).toBeUndefined();
    expect(req.headers.authorization).toBe('Bearer ya29.static-token-0123456789');
  });

  it('streamRawPredict keeps stream: true in the body and reads Anthropic SSE', async () => {
    const ev = (type: string, o: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...o })}\n\n`;
    const lb = await loopback(
      sseResponse([
        ev('message_start', { message: { ...message, content: [], stop_reason: null } }),
        ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
        ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Hel' } }),
        ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'lo.' } }),
        ev('content_block_stop', { index: 0 }),
        ev('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2 } }),
        ev('message_stop', {}),
      ]),
    );
    const client = createClient('vertex-anthropic', { model: 'claude-sonnet-4-5@20250929', endpoint: { project: 'p', location: 'europe-west1' }, getToken: () => 'ya29.static-token-0123456789', fetch: lb.fetch });
    const final = await client.stream({ messages: [{ role: 'user', content: 'hi' }] }).final();
    expect(final).toMatchObject({ id: 'msg_vrtx_01', text: 'Hello.', finishReason: 'stop' });
    expect(lb.urls[0]).toBe('https://europe-west1-aiplatform.googleapis.com/v1/projects/p/locations/europe-west1/publishers/anthropic/models/claude-sonnet-4-5%4020250929:streamRawPredict');
    expect(lb.server.requests[0]!.body).toMatchObject({ stream: true, anthropic_version: 'vertex-2023-10-16' });
  });
});
