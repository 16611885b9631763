/**
 * Telemetry on where `@opentelemetry/api` cannot be loaded (its import made to fail with vi.mock,
 * as when the optional peer is not installed) and no tracer is given: a client's call is a
 * RequestError on `telemetry` saying what to do; a gateway serves on without spans, says so once
 * on stderr, and still writes its usage records. The upstream is a loopback node:http server
 * answering a Chat Completions object (docs/wire-facts.md).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient } from '../../generated/index.js';
import { RequestError } from '../../runtime/index.js';
import { startGateway } from '../../node/index.js';
import type { UsageRecord } from '../../runtime/serve/index.js';

vi.mock('@opentelemetry/api', () => {
  throw new Error("Cannot find package '@opentelemetry/api'");
});

const COMPLETION = {
  id: 'chatcmpl-miss1',
  object: 'chat.completion',
  created: 1764633600,
  model: 'gpt-4o-mini-2024-07-18',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hi.', refusal: null }, logprobs: null, finish_reason: 'stop' }],
  usage: { prompt_tokens: 4, completion_tokens: 2, total_tokens: 6 },
};

describe('telemetry without @opentelemetry/api', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(COMPLETION));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('a client: a RequestError on telemetry that says to install it or pass a tracer', async () => {
    const client = createClient('openai-chat', { apiKey: 'sk-test-0000000001', baseUrl: url, model: 'gpt-4o-mini', maxRetries: 0, telemetry: {} });
    const e = await client.chat({ messages: [{ role: 'user', content: 'hi' }] }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(RequestError);
    expect((e as RequestError).field).toBe('telemetry');
    expect((e as Error).message).toMatch(/install it, or pass telemetry: \{ tracer \}/);
  });

  it('a gateway: serves without spans, warns once, records usage', async () => {
    const records: UsageRecord[] = [];
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const gw = await startGateway({ listen: 'openai-chat', routes: [{ model: 'm', targets: [{ spec: 'openai-chat', model: 'gpt-4o-mini', baseUrl: url, key: { keys: ['sk-upstream-0001'] } }] }], telemetry: true, onUsage: (r) => records.push(r) });
    try {
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`${gw.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }) });
        expect(res.status).toBe(200);
        expect(((await res.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]!.message.content).toBe('Hi.');
      }
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]![0])).toMatch(/no spans are made/);
      expect(records.map((r) => [r.status, r.inputTokens, r.outputTokens])).toEqual([
        [200, 4, 2],
        [200, 4, 2],
      ]);
    } finally {
      warn.mockRestore();
      await gw.close();
    }
  });
});
