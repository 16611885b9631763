/**
 * `@opentelemetry/api` is an optional peer: a module-load spy (vi.mock with a counting factory)
 * shows it is never imported by a client or a gateway without telemetry, and imported (the spy
 * counts the client's own import) once a client with `telemetry: {}` (no tracer given: the global
 * one) makes its first call; its spans then reach the globally registered provider. The upstream is a loopback node:http server answering
 * a Chat Completions object (docs/wire-facts.md).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient } from '../../generated/index.js';
import { startGateway, type Listening } from '../../node/index.js';

const loads = vi.hoisted(() => ({ count: 0 }));
vi.mock('@opentelemetry/api', async (original) => {
  loads.count++;
  return await original();
});

const COMPLETION = {
  id: 'chatcmpl-peer1',
  object: 'chat.completion',
  created: 1764633600,
  model: 'gpt-4o-mini-2024-07-18',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hi.', refusal: null }, logprobs: null, finish_reason: 'stop' }],
  usage: { prompt_tokens: 4, completion_tokens: 2, total_tokens: 6 },
};

describe('@opentelemetry/api is loaded only when telemetry is on', () => {
  let server: Server;
  let url: string;
  let gw: Listening;
  beforeAll(async () => {
    // Test files share a worker's module cache (vitest.config.ts): another file may have loaded the real module.
    vi.resetModules();
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(COMPLETION));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    gw = await startGateway({ listen: 'openai-chat', routes: [{ model: 'm', targets: [{ spec: 'openai-chat', model: 'gpt-4o-mini', baseUrl: url, key: { keys: ['sk-upstream-0001'] } }] }] });
  });
  afterAll(async () => {
    await gw.close();
    await new Promise<void>((r) => server.close(() => r()));
  });

  it('a client and a gateway without telemetry never import it', async () => {
    const client = createClient('openai-chat', { apiKey: 'sk-test-0000000001', baseUrl: url, model: 'gpt-4o-mini', maxRetries: 0 });
    expect((await client.chat({ messages: [{ role: 'user', content: 'hi' }] })).message.content).toBe('Hi.');
    const res = await fetch(`${gw.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }) });
    expect(res.status).toBe(200);
    await res.text();
    expect(loads.count).toBe(0);
  });

  it('a client with telemetry and no tracer imports it at its first call; its spans go to the global provider', async () => {
    const client = createClient('openai-chat', { apiKey: 'sk-test-0000000001', baseUrl: url, model: 'gpt-4o-mini', maxRetries: 0, telemetry: {} });
    // Made, not called yet: still not loaded.
    expect(loads.count).toBe(0);
    await client.chat({ messages: [{ role: 'user', content: 'hi' }] });
    // The client's own import went through the spy (the test has not imported it).
    expect(loads.count).toBe(1);
    const api = await import('@opentelemetry/api');
    const exporter = new InMemorySpanExporter();
    api.trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
    try {
      await client.chat({ messages: [{ role: 'user', content: 'hi' }] });
      expect(exporter.getFinishedSpans().map((s) => [s.name, s.attributes['gen_ai.usage.output_tokens']])).toEqual([['chat gpt-4o-mini', 2]]);
    } finally {
      api.trace.disable();
    }
  });
});
