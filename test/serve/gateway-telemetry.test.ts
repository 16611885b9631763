/**
 * Telemetry of the gateway for teams (docs/serving.md#telemetry): a routed request is one server
 * span with the GenAI conventions' attributes, the target that answered and the fallbacks (the
 * span attribute and one event per failed target), and one usage record. The first target is a
 * loopback server answering 503 in OpenAI's error shape; the second the Anthropic mock, whose
 * reply says 12 tokens in and 8 out. Spans are read from the SDK's in-memory exporter.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { builtInSpecs, createMockServer, startGateway, type Listening, type MockServer } from '../../node/index.js';
import { checkGatewayConfig } from '../../runtime/serve/index.js';
import type { UsageRecord } from '../../runtime/serve/index.js';
import { GREETING, script } from '../helpers/sdk-drivers.js';

const TOKEN = 'team-token-0123456789';
const TINY_TOKEN = 'tiny-token-0123456789';
const OPENAI_KEY = 'sk-openai-upstream-0001';
const ANTHROPIC_KEY = 'sk-ant-upstream-0001';

async function failing(status = 503): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    req.resume();
    // A 429 asks for a 30 s rest (retry-after in seconds), so the key pool cools its key.
    res.writeHead(status, { 'content-type': 'application/json', ...(status === 429 ? { 'retry-after': '30' } : {}) });
    res.end(JSON.stringify({ error: { message: status === 429 ? 'Rate limit reached' : 'The server is overloaded', type: status === 429 ? 'requests' : 'server_error', code: null } }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(() => r())) };
}

describe('gateway telemetry: spans and usage records', () => {
  let down: Awaited<ReturnType<typeof failing>>;
  let busy: Awaited<ReturnType<typeof failing>>;
  let anthropic: MockServer;
  let gw: Listening;
  const exporter = new InMemorySpanExporter();
  const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('test');
  const records: UsageRecord[] = [];
  beforeAll(async () => {
    down = await failing();
    busy = await failing(429);
    anthropic = await createMockServer({ provider: 'anthropic-messages', apiKey: ANTHROPIC_KEY, script: script() });
    gw = await startGateway({
      listen: [{ spec: 'openai-chat', path: '/openai' }],
      clients: [
        { name: 'team', token: TOKEN },
        { name: 'tiny', token: TINY_TOKEN, limits: { requestsPerMinute: 1 } },
      ],
      routes: [
        {
          model: 'smart',
          targets: [
            { spec: 'openai-chat', model: 'gpt-up', baseUrl: down.url, key: { keys: [OPENAI_KEY] } },
            { spec: 'anthropic-messages', model: 'claude-up', baseUrl: anthropic.url, key: { keys: [ANTHROPIC_KEY] } },
          ],
        },
        { model: 'down', targets: [{ spec: 'openai-chat', model: 'gpt-up', baseUrl: down.url, key: { keys: [OPENAI_KEY] } }] },
        {
          model: 'pooled',
          targets: [
            { spec: 'openai-chat', model: 'gpt-busy', baseUrl: busy.url, key: { keys: [OPENAI_KEY] } },
            { spec: 'anthropic-messages', model: 'claude-up', baseUrl: anthropic.url, key: { keys: [ANTHROPIC_KEY] } },
          ],
        },
      ],
      tracer,
      onUsage: (r) => records.push(r),
    });
  });
  afterAll(async () => {
    await gw.close();
    await anthropic.close();
    await down.close();
    await busy.close();
  });
  beforeEach(() => {
    exporter.reset();
    records.length = 0;
  });
  const openai = () => new OpenAI({ apiKey: TOKEN, baseURL: `${gw.url}/openai`, maxRetries: 0 });

  it('a fallback: one span with the GenAI attributes, the answering target, and the failed one named', async () => {
    const r = await openai().chat.completions.create({ model: 'smart', messages: [{ role: 'user', content: 'hi' }] });
    expect(r.choices[0]!.message.content).toBe(GREETING);
    const spans = exporter.getFinishedSpans();
    expect(spans).toHaveLength(1);
    const span = spans[0]!;
    expect(span.name).toBe('chat smart');
    expect(span.kind).toBe(1); // SpanKind.SERVER
    expect(span.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'smart',
      'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.usage.input_tokens': 12,
      'gen_ai.usage.output_tokens': 8,
      'wireforge.gateway.route': 'smart',
      'wireforge.gateway.target': 'anthropic-messages/claude-up',
      'wireforge.gateway.fallbacks': ['openai-chat/gpt-up 503'],
    });
    expect(typeof span.attributes['gen_ai.response.model']).toBe('string');
    expect(span.events.map((e) => [e.name, e.attributes])).toEqual([['wireforge.gateway.attempt', { 'wireforge.gateway.target': 'openai-chat/gpt-up', 'error.type': '503' }]]);
    expect(span.status.code).toBe(0);
    // No key in any attribute.
    expect(JSON.stringify(span.attributes)).not.toMatch(/sk-|team-token/);
    expect(records).toEqual([
      { time: expect.any(String), route: 'smart', model: 'smart', client: 'team', stream: false, target: 'anthropic-messages/claude-up', fallbacks: ['openai-chat/gpt-up 503'], status: 200, inputTokens: 12, outputTokens: 8, latencyMs: expect.any(Number) },
    ]);
    expect(Number.isNaN(Date.parse(records[0]!.time))).toBe(false);
  });

  it("the caller's W3C trace: the span continues it (same trace, the caller's span as parent); a malformed traceparent starts a new trace", async () => {
    // Ids written by hand in the W3C Trace Context format (version-traceid-parentid-flags).
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parentId = '00f067aa0ba902b7';
    await openai().chat.completions.create({ model: 'smart', messages: [{ role: 'user', content: 'hi' }] }, { headers: { traceparent: `00-${traceId}-${parentId}-01`, tracestate: 'team=a1' } });
    const [span] = exporter.getFinishedSpans();
    expect(span!.spanContext().traceId).toBe(traceId);
    expect(span!.parentSpanContext?.spanId).toBe(parentId);
    expect(span!.spanContext().traceState?.get('team')).toBe('a1');
    exporter.reset();
    // An all-zero trace id is invalid: a root span, not a child of nothing.
    await openai().chat.completions.create({ model: 'smart', messages: [{ role: 'user', content: 'hi' }] }, { headers: { traceparent: `00-${'0'.repeat(32)}-${parentId}-01` } });
    const [root] = exporter.getFinishedSpans();
    expect(root!.parentSpanContext).toBeUndefined();
    expect(root!.spanContext().traceId).not.toBe('0'.repeat(32));
  });

  it('streamed: the span and the record end with the stream, with its usage and finish reason', async () => {
    const stream = await openai().chat.completions.create({ model: 'smart', messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true } });
    let text = '';
    for await (const c of stream) text += c.choices[0]?.delta.content ?? '';
    expect(text).toBe(GREETING);
    await vi.waitFor(() => expect(records).toHaveLength(1));
    const [span] = exporter.getFinishedSpans();
    expect(span!.attributes).toMatchObject({
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.usage.input_tokens': 12,
      'gen_ai.usage.output_tokens': 8,
      'wireforge.gateway.target': 'anthropic-messages/claude-up',
      'wireforge.gateway.fallbacks': ['openai-chat/gpt-up 503'],
    });
    expect(records[0]).toMatchObject({ stream: true, status: 200, target: 'anthropic-messages/claude-up', inputTokens: 12, outputTokens: 8 });
  });

  it('no target answers: the span is an error with error.type, the record has the status and no target', async () => {
    await expect(openai().chat.completions.create({ model: 'down', messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ status: 503 });
    const [span] = exporter.getFinishedSpans();
    expect(span!.attributes['error.type']).toBe('503');
    expect(span!.attributes['wireforge.gateway.target']).toBeUndefined();
    // The one failed attempt is an event; it is the answer itself, so no fallback is listed.
    expect(span!.events.map((e) => [e.name, e.attributes])).toEqual([['wireforge.gateway.attempt', { 'wireforge.gateway.target': 'openai-chat/gpt-up', 'error.type': '503' }]]);
    expect(span!.attributes['wireforge.gateway.fallbacks']).toBeUndefined();
    expect(span!.status.code).toBe(2); // SpanStatusCode.ERROR
    expect(records).toEqual([{ time: expect.any(String), route: 'down', model: 'down', client: 'team', stream: false, fallbacks: [], status: 503, error: '503', latencyMs: expect.any(Number) }]);
  });

  it('a target whose one key got a 429 and now rests: passed over as keys-resting, an attempt event each time', async () => {
    await openai().chat.completions.create({ model: 'pooled', messages: [{ role: 'user', content: 'hi' }] });
    await openai().chat.completions.create({ model: 'pooled', messages: [{ role: 'user', content: 'hi' }] });
    expect(records.map((r) => r.fallbacks)).toEqual([['openai-chat/gpt-busy 429'], ['openai-chat/gpt-busy keys-resting']]);
    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => s.events.map((e) => e.attributes?.['error.type']))).toEqual([['429'], ['keys-resting']]);
    expect(spans.map((s) => s.attributes['wireforge.gateway.fallbacks'])).toEqual([['openai-chat/gpt-busy 429'], ['openai-chat/gpt-busy keys-resting']]);
  });

  it("a request refused by the client's limit: a record with 429 and no target, the span an error", async () => {
    const tiny = new OpenAI({ apiKey: TINY_TOKEN, baseURL: `${gw.url}/openai`, maxRetries: 0 });
    await tiny.chat.completions.create({ model: 'smart', messages: [{ role: 'user', content: 'hi' }] });
    await expect(tiny.chat.completions.create({ model: 'smart', messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ status: 429 });
    expect(records.map((r) => [r.client, r.status, r.target, r.error])).toEqual([
      ['tiny', 200, 'anthropic-messages/claude-up', undefined],
      ['tiny', 429, undefined, '429'],
    ]);
    const refused = exporter.getFinishedSpans()[1]!;
    expect(refused.attributes['error.type']).toBe('429');
    expect(refused.status.code).toBe(2);
  });
});

describe('gateway usage log on stdout', () => {
  it("usageLog: 'stdout' writes one JSON line per request", async () => {
    const anthropic = await createMockServer({ provider: 'anthropic-messages', apiKey: ANTHROPIC_KEY, script: script() });
    const gw = await startGateway({ listen: 'openai-chat', routes: [{ model: 'fast', targets: [{ spec: 'anthropic-messages', model: 'claude-fast', baseUrl: anthropic.url, key: { keys: [ANTHROPIC_KEY] } }] }], usageLog: 'stdout' });
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      const res = await fetch(`${gw.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'fast', messages: [{ role: 'user', content: 'hi' }] }) });
      expect(res.status).toBe(200);
      await res.text();
      const lines = log.mock.calls.map((c) => String(c[0]));
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toMatchObject({ route: 'fast', target: 'anthropic-messages/claude-fast', status: 200, inputTokens: 12, outputTokens: 8, fallbacks: [] });
    } finally {
      log.mockRestore();
      await gw.close();
      await anthropic.close();
    }
  });
});

describe('gateway telemetry config', () => {
  it('telemetry and usageLog are checked with the rest: located problems, a did-you-mean for a misspelt key', () => {
    const specs = builtInSpecs();
    const base = { listen: 'openai-chat', routes: [{ model: 'm', targets: [{ spec: 'openai-chat', key: { keys: ['sk-pool-key-0001'] } }] }] };
    expect(checkGatewayConfig({ ...base, telemetry: true, usageLog: 'stdout' }, { specs, env: {} })).toEqual([]);
    expect(checkGatewayConfig({ ...base, telemetry: { name: 'team-gateway' } }, { specs, env: {} })).toEqual([]);
    const problems = checkGatewayConfig({ ...base, telemetry: { nmae: 'x' }, usageLog: 'stderr' }, { specs, env: {} });
    expect(problems.map((p) => `${p.pointer} ${p.code}`)).toEqual(['/telemetry/nmae unknown-key', '/usageLog bad-value']);
    expect(problems[0]!.hint).toMatch(/did you mean "name"/);
    expect(checkGatewayConfig({ ...base, telemetry: 'yes' }, { specs, env: {} }).map((p) => `${p.pointer} ${p.code}`)).toEqual(['/telemetry wrong-type']);
  });
});
