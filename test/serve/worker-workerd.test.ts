/**
 * examples/worker in real workerd: the Worker is bundled by its own build script, served by the
 * workerd binary from the `workerd` package on 127.0.0.1, and called with the official openai SDK.
 * Its upstreams are the mocks on 127.0.0.1, reached through the Worker's outbound network (a
 * network service that allows loopback only), so the gateway's upstream fetch is the Worker's own.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWorker } from '../../examples/worker/build.mjs';
import { createMockServer, type MockServer } from '../../node/index.js';
import { ANSWER, GREETING, WEATHER, script } from '../helpers/sdk-drivers.js';
import { startWorkerd, type Workerd } from '../helpers/workerd.js';

const TOKEN = 'worker-team-token-0123';
const OPENAI_KEY = 'sk-openai-upstream-worker-01';
const ANTHROPIC_KEY = 'sk-ant-upstream-worker-01';

let dir: string;
let bundle: { outfile: string; bytes: number };
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'wireforge-worker-'));
  bundle = await buildWorker(path.join(dir, 'worker.js'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('examples/worker in workerd, through the openai SDK', () => {
  let openaiUp: MockServer;
  let anthropicUp: MockServer;
  let worker: Workerd;
  let openai: OpenAI;
  beforeAll(async () => {
    [openaiUp, anthropicUp] = await Promise.all([
      createMockServer({ provider: 'openai-chat', apiKey: OPENAI_KEY, script: script() }),
      createMockServer({ provider: 'anthropic-messages', apiKey: ANTHROPIC_KEY, script: script() }),
    ]);
    worker = await startWorkerd({
      module: bundle.outfile,
      compatibilityDate: '2025-11-01',
      // The Worker's env bindings: the config reads its keys and token from these.
      bindings: { OPENAI_API_KEY: OPENAI_KEY, ANTHROPIC_API_KEY: ANTHROPIC_KEY, GATEWAY_TOKEN: TOKEN, OPENAI_BASE_URL: openaiUp.url, ANTHROPIC_BASE_URL: anthropicUp.url },
    });
    openai = new OpenAI({ apiKey: TOKEN, baseURL: `${worker.url}/openai`, maxRetries: 0 });
  });
  afterAll(async () => {
    await worker?.close();
    await Promise.all([openaiUp?.close(), anthropicUp?.close()]);
  });

  it('the bundle is one module with no Node built-in in it', async () => {
    const code = await readFile(bundle.outfile, 'utf8');
    expect(code).not.toMatch(/\bfrom\s*["'](node:|fs["']|http["'])/);
    expect(code).not.toMatch(/\brequire\(\s*["']/);
    expect(code).not.toMatch(/\bimport\(\s*["']/);
    expect(bundle.bytes).toBeLessThan(200_000);
  });

  it('text: the OpenAI target answers, the Worker used its bound key', async () => {
    const before = openaiUp.requests.length;
    const { data, response } = await openai.chat.completions.create({ model: 'smart', messages: [{ role: 'user', content: 'hi' }] }).withResponse();
    expect(data.choices[0]!.message.content).toBe(GREETING);
    expect(data.choices[0]!.finish_reason).toBe('stop');
    expect(data.usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 8 });
    expect(response.headers.get('x-wireforge-target')).toBe('openai-chat/gpt-4.1');
    const call = openaiUp.requests[before]!;
    expect(call.headers.authorization).toBe(`Bearer ${OPENAI_KEY}`);
    expect((call.body as { model: string }).model).toBe('gpt-4.1');
  });

  it('stream: deltas through the SDK stream helper, usage at the end', async () => {
    const stream = openai.chat.completions.stream({ model: 'smart', messages: [{ role: 'user', content: 'hi' }], stream_options: { include_usage: true } });
    let deltas = 0;
    stream.on('content', () => deltas++);
    const done = await stream.finalChatCompletion();
    expect(done.choices[0]!.message.content).toBe(GREETING);
    expect(deltas).toBeGreaterThan(1);
    expect(done.usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 8 });
  });

  it('tools: a call and its result round trip, translated to an Anthropic upstream and back', async () => {
    const tools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: WEATHER } }];
    const q = { role: 'user' as const, content: 'What is the weather in Paris?' };
    const first = await openai.chat.completions.create({ model: 'claude-sonnet-4-5', messages: [q], tools });
    const call = first.choices[0]!.message.tool_calls?.[0];
    expect(first.choices[0]!.finish_reason).toBe('tool_calls');
    expect(call?.type === 'function' && call.function.name).toBe('get_weather');
    expect(call?.type === 'function' && JSON.parse(call.function.arguments)).toEqual({ city: 'Paris' });
    const second = await openai.chat.completions.create({
      model: 'claude-sonnet-4-5',
      tools,
      messages: [q, first.choices[0]!.message, { role: 'tool', tool_call_id: call!.id, content: '18 degrees' }],
    });
    expect(second.choices[0]!.message.content).toBe(ANSWER);
    // The upstream saw the Anthropic wire: the tool result as a tool_result block for the call's id.
    const sent = anthropicUp.requests.at(-1)!;
    expect(sent.headers['x-api-key']).toBe(ANTHROPIC_KEY);
    expect(JSON.stringify(sent.body)).toContain('"type":"tool_result"');
  });

  it('a wrong client token is a 401 in the OpenAI shape, nothing sent upstream', async () => {
    const before = openaiUp.requests.length;
    const bad = new OpenAI({ apiKey: 'not-the-team-token-000', baseURL: `${worker.url}/openai`, maxRetries: 0 });
    const err = await bad.chat.completions.create({ model: 'smart', messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(openaiUp.requests.length).toBe(before);
  });

  it('models.list() lists the routes', async () => {
    const ids: string[] = [];
    for await (const m of openai.models.list()) ids.push(m.id);
    expect(ids).toEqual(expect.arrayContaining(['smart', 'claude-haiku-4-5', 'claude-sonnet-4-5']));
  });
});

describe('examples/worker in workerd with a secret missing', () => {
  it('answers 500 and logs the located config problem, naming the variable and no key', async () => {
    // ANTHROPIC_API_KEY is not bound: both routes that use it are reported, before any upstream call.
    const worker = await startWorkerd({ module: bundle.outfile, compatibilityDate: '2025-11-01', bindings: { OPENAI_API_KEY: OPENAI_KEY, GATEWAY_TOKEN: TOKEN, OPENAI_BASE_URL: 'http://127.0.0.1:9' } });
    try {
      const r = await fetch(`${worker.url}/openai/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'smart', messages: [{ role: 'user', content: 'hi' }] }) });
      expect(r.status).toBe(500);
      await r.body?.cancel();
      await expect.poll(() => worker.log(), { timeout: 2000 }).toContain('GatewayConfigError');
      expect(worker.log()).toContain('/routes/0/targets/1/key/env unset-env environment variable ANTHROPIC_API_KEY is not set');
      expect(worker.log()).toContain('/routes/1/targets/0/key/env');
      expect(worker.log()).not.toContain(OPENAI_KEY);
      expect(worker.log()).not.toContain(TOKEN);
    } finally {
      await worker.close();
    }
  });
});

describe('examples/worker in workerd with its first target down', () => {
  it('smart: the OpenAI target answers 503, Claude answers, the fallback is named in the headers', async () => {
    const down = await createMockServer({ provider: 'openai-chat', apiKey: OPENAI_KEY, script: [{ fault: { status: 503, message: 'The server is overloaded' } }] });
    const anthropicUp = await createMockServer({ provider: 'anthropic-messages', apiKey: ANTHROPIC_KEY, script: script() });
    const worker = await startWorkerd({
      module: bundle.outfile,
      compatibilityDate: '2025-11-01',
      bindings: { OPENAI_API_KEY: OPENAI_KEY, ANTHROPIC_API_KEY: ANTHROPIC_KEY, GATEWAY_TOKEN: TOKEN, OPENAI_BASE_URL: down.url, ANTHROPIC_BASE_URL: anthropicUp.url },
    });
    try {
      const openai = new OpenAI({ apiKey: TOKEN, baseURL: `${worker.url}/openai`, maxRetries: 0 });
      const { data, response } = await openai.chat.completions.create({ model: 'smart', messages: [{ role: 'user', content: 'hi' }] }).withResponse();
      expect(data.choices[0]!.message.content).toBe(GREETING);
      expect(down.requests.length).toBe(1);
      expect((anthropicUp.requests[0]!.body as { model: string }).model).toBe('claude-sonnet-4-5');
      expect(response.headers.get('x-wireforge-target')).toBe('anthropic-messages/claude-sonnet-4-5');
      expect(response.headers.get('x-wireforge-fallbacks')).toBe('openai-chat/gpt-4.1 503');
    } finally {
      await worker.close();
      await Promise.all([down.close(), anthropicUp.close()]);
    }
  });
});
