/**
 * Run in a child process with hook.mjs (test/runtime/telemetry-peer-load.test.ts): a client and a
 * gateway, without telemetry (WF_OTEL=off) or with it and @opentelemetry/api failing to load
 * (WF_OTEL=missing), against a loopback upstream answering a Chat Completions object. Prints one
 * JSON line of what happened.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from '../../../generated/index.js';
import { startGateway } from '../../../node/index.js';

const COMPLETION = {
  id: 'chatcmpl-peer1',
  object: 'chat.completion',
  created: 1764633600,
  model: 'gpt-4o-mini-2024-07-18',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hi.', refusal: null }, logprobs: null, finish_reason: 'stop' }],
  usage: { prompt_tokens: 4, completion_tokens: 2, total_tokens: 6 },
};
const on = process.env.WF_OTEL === 'missing';
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(COMPLETION));
  });
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
const out: Record<string, unknown> = {};
const client = createClient('openai-chat', { apiKey: 'sk-test-0000000001', baseUrl: url, model: 'gpt-4o-mini', maxRetries: 0, ...(on ? { telemetry: {} } : {}) });
try {
  out.client = (await client.chat({ messages: [{ role: 'user', content: 'hi' }] })).message.content;
} catch (e) {
  out.client = { name: (e as Error).name, field: (e as { field?: string }).field, message: (e as Error).message };
}
const warnings: string[] = [];
console.warn = (m: unknown) => void warnings.push(String(m));
const records: unknown[] = [];
const gw = await startGateway({ listen: 'openai-chat', routes: [{ model: 'm', targets: [{ spec: 'openai-chat', model: 'gpt-4o-mini', baseUrl: url, key: { keys: ['sk-upstream-0001'] } }] }], ...(on ? { telemetry: true, onUsage: (r) => void records.push(r) } : {}) });
const answers: unknown[] = [];
for (let i = 0; i < 2; i++) {
  const res = await fetch(`${gw.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }) });
  answers.push([res.status, ((await res.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]!.message.content]);
}
out.gateway = answers;
out.warnings = warnings;
out.records = records.length;
await gw.close();
server.close();
process.stdout.write(`${JSON.stringify(out)}\n`);
