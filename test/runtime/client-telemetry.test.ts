/**
 * A client with telemetry on (`createClient(id, { telemetry: { tracer } })`): one span per call,
 * named and attributed by the OpenTelemetry GenAI conventions (docs/serving.md#telemetry), for a
 * blocking call, a stream read to its end, and a call the provider refuses. The upstream is a
 * loopback node:http server answering in the Chat Completions format (docs/wire-facts.md): a
 * `chat.completion` object, or `chat.completion.chunk` events ending with a usage chunk and
 * `data: [DONE]`. Spans are read from the SDK's in-memory exporter.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../../generated/index.js';
import { createClientFor } from '../../runtime/index.js';
import { adapters } from '../../generated/index.js';

const COMPLETION = {
  id: 'chatcmpl-tel1',
  object: 'chat.completion',
  created: 1764633600,
  model: 'gpt-4o-mini-2024-07-18',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Bonjour.', refusal: null }, logprobs: null, finish_reason: 'stop' }],
  usage: { prompt_tokens: 11, completion_tokens: 3, total_tokens: 14 },
};
const chunk = (delta: object, finish: string | null) => ({ id: 'chatcmpl-tel2', object: 'chat.completion.chunk', created: 1764633600, model: 'gpt-4o-mini-2024-07-18', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
const STREAM = [
  chunk({ role: 'assistant', content: '' }, null),
  chunk({ content: 'Bon' }, null),
  chunk({ content: 'jour.' }, null),
  chunk({}, 'length'),
  { id: 'chatcmpl-tel2', object: 'chat.completion.chunk', created: 1764633600, model: 'gpt-4o-mini-2024-07-18', choices: [], usage: { prompt_tokens: 21, completion_tokens: 5, total_tokens: 26 } },
];

describe('client telemetry', () => {
  let server: Server;
  let url: string;
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer('test');
  beforeAll(async () => {
    server = createServer((req, res) => {
      let text = '';
      req.on('data', (c: Buffer) => (text += c));
      req.on('end', () => {
        const body = JSON.parse(text) as { model: string; stream?: boolean };
        if (body.model === 'refused') {
          res.writeHead(400, { 'content-type': 'application/json' });
          return res.end(JSON.stringify({ error: { message: 'The model `refused` does not exist', type: 'invalid_request_error', param: 'model', code: 'model_not_found' } }));
        }
        if (!body.stream) {
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end(JSON.stringify(COMPLETION));
        }
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(`${STREAM.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')}data: [DONE]\n\n`);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  beforeEach(() => exporter.reset());

  const client = () => createClient('openai-chat', { apiKey: 'sk-test-0000000001', baseUrl: url, model: 'gpt-4o-mini', maxRetries: 0, telemetry: { tracer } });

  it('a blocking call is one client span with the GenAI attributes, usage and finish reason', async () => {
    const r = await client().chat({ messages: [{ role: 'user', content: 'Hello in French' }] });
    expect(r.message.content).toBe('Bonjour.');
    const spans = exporter.getFinishedSpans();
    expect(spans).toHaveLength(1);
    const [span] = spans;
    expect(span!.name).toBe('chat gpt-4o-mini');
    expect(span!.kind).toBe(2); // SpanKind.CLIENT
    expect(span!.attributes).toEqual({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4o-mini',
      'gen_ai.response.model': 'gpt-4o-mini-2024-07-18',
      'gen_ai.response.id': 'chatcmpl-tel1',
      'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.usage.input_tokens': 11,
      'gen_ai.usage.output_tokens': 3,
    });
    expect(span!.status.code).toBe(0);
  });

  it('a stream is one span, ended when it is read to the end, with the usage chunk and the finish reason', async () => {
    const stream = client().stream({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hello in French' }] });
    let text = '';
    for await (const e of stream) {
      if (e.type === 'text-delta') text += e.delta;
      // Not ended before the stream is.
      expect(exporter.getFinishedSpans()).toHaveLength(0);
    }
    expect(text).toBe('Bonjour.');
    const spans = exporter.getFinishedSpans();
    expect(spans).toHaveLength(1);
    expect(spans[0]!.name).toBe('chat gpt-4o');
    expect(spans[0]!.attributes).toMatchObject({
      'gen_ai.request.model': 'gpt-4o',
      'gen_ai.response.model': 'gpt-4o-mini-2024-07-18',
      'gen_ai.response.finish_reasons': ['length'],
      'gen_ai.usage.input_tokens': 21,
      'gen_ai.usage.output_tokens': 5,
    });
  });

  it('a refused call: the span has error.type (the HTTP status) and the error status; the error reaches the caller', async () => {
    await expect(client().chat({ model: 'refused', messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ status: 400 });
    const [span] = exporter.getFinishedSpans();
    expect(span!.attributes['error.type']).toBe('400');
    expect(span!.status.code).toBe(2); // SpanStatusCode.ERROR
  });

  it('a stream left before its end (`break`) ends its span, as cancelled', async () => {
    for await (const e of client().stream({ messages: [{ role: 'user', content: 'Hello in French' }] })) if (e.type === 'text-delta') break;
    const spans = exporter.getFinishedSpans();
    expect(spans).toHaveLength(1);
    expect(spans[0]!.attributes['error.type']).toBe('AbortError');
    expect(spans[0]!.status.code).toBe(2);
  });

  it('a stream left at its finish event is a whole turn: its span has the response and no error', async () => {
    for await (const e of client().stream({ messages: [{ role: 'user', content: 'Hello in French' }] })) if (e.type === 'finish') break;
    const [span] = exporter.getFinishedSpans();
    expect(span!.status.code).toBe(0);
    expect(span!.attributes).toMatchObject({ 'gen_ai.response.finish_reasons': ['length'], 'gen_ai.usage.input_tokens': 21, 'gen_ai.usage.output_tokens': 5 });
    expect(span!.attributes['error.type']).toBeUndefined();
  });

  it("the span names the model the wire gets: the request's, else defaults.model, else the client's model", async () => {
    const c = createClient('openai-chat', { apiKey: 'sk-test-0000000001', baseUrl: url, model: 'from-options', defaults: { model: 'from-defaults' }, maxRetries: 0, telemetry: { tracer } });
    await c.chat({ messages: [{ role: 'user', content: 'a' }] });
    await c.chat({ model: 'from-request', messages: [{ role: 'user', content: 'b' }] });
    expect(exporter.getFinishedSpans().map((s) => s.attributes['gen_ai.request.model'])).toEqual(['from-defaults', 'from-request']);
  });

  it('one span per call: two calls, two spans', async () => {
    const c = client();
    await c.chat({ messages: [{ role: 'user', content: 'a' }] });
    await c.chat({ messages: [{ role: 'user', content: 'b' }] });
    expect(exporter.getFinishedSpans()).toHaveLength(2);
  });

  it('the core createClientFor refuses the option: telemetry is the registry layer', () => {
    expect(() => createClientFor(adapters['openai-chat'], { apiKey: 'sk-test-0000000001', telemetry: { tracer } })).toThrow(/telemetry/);
  });
});
