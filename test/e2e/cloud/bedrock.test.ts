/**
 * Claude on Bedrock (InvokeModel) against a loopback server that checks what Bedrock checks: the
 * SigV4 signature recomputed by the AWS SDK's signer with the secret it knows (so a wrong secret
 * or a changed body is refused), the signing time within five minutes, and Bedrock's 403 shape
 * when not. Streams are event-stream frames encoded by the AWS SDK's codec; an exception frame
 * and a corrupt frame keep what arrived. No secret reaches an error.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { adapters, createClient, defineTool, PermissionError, ProviderError, RequestError, runTools, StreamError, streamTools, type ProviderAdapter } from '../../../generated/index.js';
import { streamBodyFor } from '../../helpers/frame-stream.js';
import { chunked } from '../../helpers/replay.js';
import { buildTurn, type ScriptedTurn } from '../../helpers/scripted-turns.js';
import { concat, encodeEvent, encodeException } from '../../helpers/event-stream-encoder.js';
import { startLoopbackServer, type LoopbackServer, type RecordedRequest, type ScriptedResponse } from '../../helpers/loopback-server.js';
import { AWS, bedrockServer, realNow } from '../../helpers/bedrock-server.js';

const MODEL = 'anthropic.claude-sonnet-4-5-20250929-v1:0';
let server: LoopbackServer | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await server?.close();
});

const message = { id: 'msg_bdrk_01', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [{ type: 'text', text: 'Olá.' }], stop_reason: 'end_turn', usage: { input_tokens: 6, output_tokens: 2 } };
const chunk = (e: unknown) => encodeEvent('chunk', { bytes: Buffer.from(JSON.stringify(e)).toString('base64'), p: 'abcdef' });
const turnEvents = [
  { type: 'message_start', message: { ...message, content: [], stop_reason: null, usage: { input_tokens: 6, output_tokens: 0 } } },
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Ol' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'á.' } },
  { type: 'content_block_stop', index: 0 },
  { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2 } },
  { type: 'message_stop', 'amazon-bedrock-invocationMetrics': { inputTokenCount: 6, outputTokenCount: 2, invocationLatency: 310, firstByteLatency: 120 } },
];

async function bedrock(reply: (req: RecordedRequest) => ScriptedResponse) {
  const b = await bedrockServer(reply);
  server = b.server;
  return b;
}

const invoke = (r: RecordedRequest): ScriptedResponse =>
  r.url.endsWith('/invoke-with-response-stream')
    ? { status: 200, headers: { 'content-type': 'application/vnd.amazon.eventstream' }, body: chunked(concat(turnEvents.map(chunk)), 37) }
    : { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(message) };


describe('bedrock-anthropic', () => {
  it('a blocking and a streamed turn, signed as Bedrock checks them; the model in the path, anthropic_version in the body, no model or stream there', async () => {
    const lb = await bedrock(invoke);
    const client = createClient('bedrock-anthropic', { model: MODEL, endpoint: { region: 'us-east-1' }, aws: AWS, fetch: lb.fetch, maxRetries: 0 });
    const blocking = await client.chat({ messages: [{ role: 'user', content: 'Diga olá.' }] });
    const stream = client.stream({ messages: [{ role: 'user', content: 'Diga olá.' }] });
    const final = await stream.final();
    expect(blocking.text).toBe('Olá.');
    expect(final).toMatchObject({ id: 'msg_bdrk_01', text: 'Olá.', finishReason: 'stop', usage: { inputTokens: 6, outputTokens: 2 } });
    expect(lb.urls).toEqual([
      'https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke',
      'https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke-with-response-stream',
    ]);
    for (const r of lb.server.requests) {
      expect(r.body).toMatchObject({ anthropic_version: 'bedrock-2023-05-31', max_tokens: 4096 });
      expect(Object.keys(r.body as object)).not.toContain('model');
      expect(Object.keys(r.body as object)).not.toContain('stream');
      expect(r.headers['anthropic-version']).toBeUndefined();
      expect(r.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDLOOPBACKTEST0001\/\d{8}\/us-east-1\/bedrock\/aws4_request, /);
    }
  });

  it('a session token is sent and signed; an error that quotes it, or the secret, is redacted', async () => {
    const token = 'IQoJb3JpZ2luX2VjEXAMPLESESSIONTOKEN0123456789';
    const lb = await bedrock((r) => ({ status: 400, headers: { 'content-type': 'application/json', 'x-amzn-errortype': 'ValidationException' }, body: JSON.stringify({ message: `bad request for token ${String(r.headers['x-amz-security-token'])} and ${AWS.secretAccessKey}` }) }));
    const e = await createClient('bedrock-anthropic', { model: MODEL, endpoint: { region: 'us-east-1' }, aws: { ...AWS, sessionToken: token }, fetch: lb.fetch, maxRetries: 0 })
      .chat({ messages: [{ role: 'user', content: 'hi' }] })
      .catch((x: unknown) => x);
    expect(lb.server.requests[0]!.headers['x-amz-security-token']).toBe(token);
    expect(e).toBeInstanceOf(ProviderError);
    expect((e as ProviderError).type).toBe('ValidationException');
    const shown = `${String(e)} ${JSON.stringify(e)} ${JSON.stringify((e as ProviderError).body)}`;
    expect(shown).not.toContain(token);
    expect(shown).not.toContain(AWS.secretAccessKey);
  });

  it("a wrong secret, a changed body, a clock six minutes off: Bedrock's 403 as a PermissionError typed InvalidSignatureException", async () => {
    const lb = await bedrock(invoke);
    const wrong = createClient('bedrock-anthropic', { model: MODEL, endpoint: { region: 'us-east-1' }, aws: { ...AWS, secretAccessKey: 'not/the/secret/0123456789' }, fetch: lb.fetch, maxRetries: 0 });
    const e1 = await wrong.chat({ messages: [{ role: 'user', content: 'hi' }] }).catch((x: unknown) => x);
    expect(e1).toBeInstanceOf(PermissionError);
    expect(e1).toMatchObject({ status: 403, type: 'InvalidSignatureException', requestId: 'req-403-1' });
    expect((e1 as PermissionError).providerMessage).toContain('signature we calculated does not match');

    const tamper: typeof fetch = (url, init) => lb.fetch(url, { ...init, body: String(init?.body).replace('hi', 'ho') });
    const e2 = await createClient('bedrock-anthropic', { model: MODEL, endpoint: { region: 'us-east-1' }, aws: AWS, fetch: tamper, maxRetries: 0 }).chat({ messages: [{ role: 'user', content: 'hi' }] }).catch((x: unknown) => x);
    expect(e2).toBeInstanceOf(PermissionError);

    vi.useFakeTimers({ toFake: ['Date'], now: realNow() - 6 * 60_000 });
    const e3 = await createClient('bedrock-anthropic', { model: MODEL, endpoint: { region: 'us-east-1' }, aws: AWS, fetch: lb.fetch, maxRetries: 0 }).chat({ messages: [{ role: 'user', content: 'hi' }] }).catch((x: unknown) => x);
    vi.useRealTimers();
    expect(e3).toBeInstanceOf(PermissionError);
    expect((e3 as PermissionError).providerMessage).toContain('Signature expired');
  });

  it('an exception frame mid-stream is a ProviderError typed by :exception-type, with the text that arrived', async () => {
    const lb = await bedrock(() => ({ status: 200, headers: { 'content-type': 'application/vnd.amazon.eventstream' }, body: [concat([...turnEvents.slice(0, 3).map(chunk), encodeException('throttlingException', 'Too many requests, please wait before trying again.')])] }));
    const e = await createClient('bedrock-anthropic', { model: MODEL, endpoint: { region: 'us-east-1' }, aws: AWS, fetch: lb.fetch, maxRetries: 0 }).stream({ messages: [{ role: 'user', content: 'hi' }] }).final().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ProviderError);
    expect(e).toMatchObject({ type: 'throttlingException', status: undefined, partial: { text: 'Ol' } });
    expect((e as ProviderError).providerMessage).toBe('Too many requests, please wait before trying again.');
  });

  it('a corrupt frame (a byte changed in flight) or a body cut inside a frame is a StreamError that keeps what arrived', async () => {
    const good = concat(turnEvents.slice(0, 3).map(chunk));
    const bad = chunk(turnEvents[3]).slice();
    bad[bad.length - 6] = bad[bad.length - 6]! ^ 0x20;
    for (const [name, body, reason] of [
      ['corrupt', concat([good, bad]), /corrupt event-stream frame: message CRC/],
      ['cut', concat([good, chunk(turnEvents[3]).subarray(0, 20)]), /ended inside an event/],
    ] as const) {
      const lb = await bedrock(() => ({ status: 200, headers: { 'content-type': 'application/vnd.amazon.eventstream' }, body: chunked(body, 11) }));
      const e = await createClient('bedrock-anthropic', { model: MODEL, endpoint: { region: 'us-east-1' }, aws: AWS, fetch: lb.fetch, maxRetries: 0 }).stream({ messages: [{ role: 'user', content: 'hi' }] }).final().catch((x: unknown) => x);
      expect(e, name).toBeInstanceOf(StreamError);
      expect(String((e as Error).message), name).toMatch(reason);
      expect((e as StreamError).partial?.text, name).toBe('Ol');
      await server!.close();
      server = undefined;
    }
  });

  it('credentials from a function, asked for before every request: rotated ones sign the next request', async () => {
    const lb = await bedrock(invoke);
    const handed: string[] = [];
    // The stand-in knows one secret: the first call gets a wrong one (refused), the second the right one.
    const rotating = async () => {
      handed.push('x');
      return handed.length === 1 ? { ...AWS, secretAccessKey: 'old/rotated-away/secret0123' } : { ...AWS, sessionToken: 'IQoJrotatedSESSIONtoken0123456789' };
    };
    const client = createClient('bedrock-anthropic', { model: MODEL, endpoint: { region: 'us-east-1' }, aws: rotating, fetch: lb.fetch, maxRetries: 0 });
    const first = await client.chat({ messages: [{ role: 'user', content: 'hi' }] }).catch((x: unknown) => x);
    expect(first).toBeInstanceOf(PermissionError);
    expect((await client.chat({ messages: [{ role: 'user', content: 'hi' }] })).text).toBe('Olá.');
    expect(handed).toHaveLength(2);
    expect(lb.server.requests[1]!.headers['x-amz-security-token']).toBe('IQoJrotatedSESSIONtoken0123456789');
  });

  it('a Bedrock API key goes as a bearer token instead of a signature; no credentials at all names both ways', async () => {
    server = await startLoopbackServer(() => ({ status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(message) }));
    const s = server;
    const f: typeof fetch = (url, init) => fetch(`${s.url}${new URL(String(url)).pathname}`, init);
    await createClient('bedrock-anthropic', { model: MODEL, apiKey: 'ABSKbedrock-api-key-0123456789', endpoint: { region: 'eu-west-1' }, fetch: f }).chat({ messages: [{ role: 'user', content: 'hi' }] });
    expect(s.requests[0]!.headers.authorization).toBe('Bearer ABSKbedrock-api-key-0123456789');
    expect(s.requests[0]!.headers['x-amz-date']).toBeUndefined();
    const before = { ...process.env };
    try {
      for (const k of ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_BEARER_TOKEN_BEDROCK']) delete process.env[k];
      expect(() => createClient('bedrock-anthropic', { endpoint: { region: 'us-east-1' } })).toThrow(RequestError);
      expect(() => createClient('bedrock-anthropic', { endpoint: { region: 'us-east-1' } })).toThrow(/AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY \(or a key in AWS_BEARER_TOKEN_BEDROCK\)/);
      // An empty key (a blank line in an env file) is no key: SigV4 still applies.
      process.env.AWS_BEARER_TOKEN_BEDROCK = '';
      expect(() => createClient('bedrock-anthropic', { endpoint: { region: 'us-east-1' } })).toThrow(/AWS_ACCESS_KEY_ID/);
      process.env.AWS_ACCESS_KEY_ID = AWS.accessKeyId;
      process.env.AWS_SECRET_ACCESS_KEY = AWS.secretAccessKey;
      delete process.env.AWS_REGION;
      delete process.env.AWS_DEFAULT_REGION;
      expect(() => createClient('bedrock-anthropic', {})).toThrow(/endpoint option "region".*AWS_REGION or AWS_DEFAULT_REGION/);
      await expect(createClient('bedrock-anthropic', { endpoint: { region: 'us-east-1' }, model: '..' }).chat({ messages: [{ role: 'user', content: 'hi' }] })).rejects.toThrow(/is not a value for the endpoint's \{model\}/);
    } finally {
      process.env = before;
    }
  });

  it('a tool conversation, streamed (streamTools) and blocking (runTools), every request signed and checked', async () => {
    const turns: ScriptedTurn[] = [
      { responseId: 'bdrk_t1', thinking: { text: 'Weather for Lisbon: ask the tool.', signature: 'EqQBSignedByBedrock+1==' }, calls: [{ id: 'toolu_b1', name: 'weather', args: { city: 'Lisbon' } }] },
      { responseId: 'bdrk_t2', text: 'Lisbon: sunny, 21 °C.' },
    ];
    const adapter = (adapters as Record<string, ProviderAdapter>)['bedrock-anthropic']!;
    const lb = await bedrock((r) => {
      const turn = turns[JSON.stringify(r.body).includes('tool_result') ? 1 : 0]!;
      const b = buildTurn('bedrock-anthropic', turn, MODEL);
      if (!r.url.endsWith('/invoke-with-response-stream')) return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(b.json) };
      return { status: 200, headers: { 'content-type': 'application/vnd.amazon.eventstream' }, body: chunked(streamBodyFor(adapter, b.stream).body, 29) };
    });
    const weather = defineTool({ parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } as const, execute: async ({ city }) => `${city}: sunny, 21 °C` });
    const client = createClient('bedrock-anthropic', { model: MODEL, endpoint: { region: 'us-east-1' }, aws: AWS, fetch: lb.fetch, maxRetries: 0 });
    const request = { messages: [{ role: 'user' as const, content: 'Weather in Lisbon?' }], reasoning: { budgetTokens: 1024 } };
    const streamed = streamTools(client, request, { tools: { weather } });
    for await (const _ of streamed) void _;
    const s = await streamed.final();
    const b = await runTools(client, request, { tools: { weather } });
    for (const r of [s, b]) {
      expect(r.response.text).toBe('Lisbon: sunny, 21 °C.');
      expect(r.steps[0]!.response.toolCalls).toEqual([expect.objectContaining({ id: 'toolu_b1', name: 'weather', arguments: '{"city":"Lisbon"}' })]);
    }
    // Four signed requests reached the model (any refused one would have failed the loop); the
    // follow-ups carried the signed thinking block back first.
    expect(lb.server.requests).toHaveLength(4);
    for (const i of [1, 3]) {
      const sent = lb.server.requests[i]!.body as { messages: Array<{ role: string; content: Array<Record<string, unknown>> }> };
      expect(sent.messages[1]!.content[0]).toEqual({ type: 'thinking', thinking: 'Weather for Lisbon: ask the tool.', signature: 'EqQBSignedByBedrock+1==' });
    }
  });
});
