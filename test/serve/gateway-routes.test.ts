/**
 * The gateway for teams through the official SDKs: two routes, a fallback from an OpenAI-wire
 * target that answers 503 to an Anthropic-wire one, model lists in each listen protocol's shape,
 * client tokens and CORS. Upstreams are loopback servers: a plain node:http one that fails, and
 * the Anthropic mock.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, startGateway, type Listening, type MockServer } from '../../node/index.js';
import { GREETING, script } from '../helpers/sdk-drivers.js';

const TOKEN = 'team-token-0123456789';
const OTHER_TOKEN = 'other-token-0123456789';
const OPENAI_KEY = 'sk-openai-upstream-0001';
const ANTHROPIC_KEY = 'sk-ant-upstream-0001';

/** An upstream that answers every POST with a 503 in OpenAI's error shape. */
async function failing(): Promise<{ url: string; hits: () => number; close: () => Promise<void> }> {
  let hits = 0;
  const server: Server = createServer((req, res) => {
    hits++;
    req.resume();
    res.writeHead(503, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: 'The server is overloaded', type: 'server_error', code: null } }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits: () => hits, close: () => new Promise((r) => server.close(() => r())) };
}

describe('gateway for teams: routes, fallback, model lists', () => {
  let down: Awaited<ReturnType<typeof failing>>;
  let anthropic: MockServer;
  let gw: Listening;
  beforeAll(async () => {
    down = await failing();
    anthropic = await createMockServer({ provider: 'anthropic-messages', apiKey: ANTHROPIC_KEY, script: script() });
    gw = await startGateway({
      listen: [
        { spec: 'openai-chat', path: '/openai' },
        { spec: 'anthropic-messages', path: '/anthropic' },
        { spec: 'gemini', path: '/gemini' },
      ],
      clients: [
        { name: 'team', token: TOKEN },
        { name: 'other', token: OTHER_TOKEN, routes: ['fast'] },
      ],
      routes: [
        {
          model: 'smart',
          targets: [
            { spec: 'openai-chat', model: 'gpt-up', baseUrl: down.url, key: { keys: [OPENAI_KEY] } },
            { spec: 'anthropic-messages', model: 'claude-up', baseUrl: anthropic.url, key: { keys: [ANTHROPIC_KEY] } },
          ],
        },
        { model: 'fast', targets: [{ spec: 'anthropic-messages', model: 'claude-fast', baseUrl: anthropic.url, key: { keys: [ANTHROPIC_KEY] } }] },
        // A pattern route: not listed (nothing in `list`), but each model it takes can be got by id.
        { model: 'team/*', targets: [{ spec: 'anthropic-messages', baseUrl: anthropic.url, key: { keys: [ANTHROPIC_KEY] } }] },
      ],
      cors: ['https://app.example'],
    });
  });
  afterAll(async () => {
    await gw.close();
    await anthropic.close();
    await down.close();
  });

  it('openai SDK: the 503 target is passed over for the Anthropic one; one clean response, the fallback in headers', async () => {
    const openai = new OpenAI({ apiKey: TOKEN, baseURL: `${gw.url}/openai`, maxRetries: 0 });
    const before = down.hits();
    const { data, response } = await openai.chat.completions.create({ model: 'smart', messages: [{ role: 'user', content: 'hi' }] }).withResponse();
    expect(data.choices[0]!.message.content).toBe(GREETING);
    expect(data.choices[0]!.finish_reason).toBe('stop');
    expect(down.hits()).toBe(before + 1);
    expect(response.headers.get('x-wireforge-target')).toBe('anthropic-messages/claude-up');
    expect(response.headers.get('x-wireforge-fallbacks')).toBe('openai-chat/gpt-up 503');
    // The answering translation's fidelity warnings: Claude's reasoning has no place in a Chat completion.
    expect(JSON.parse(response.headers.get('x-wireforge-warnings') ?? '[]')).toEqual([expect.objectContaining({ field: expect.stringContaining('thinking') })]);
    // Anthropic got its own model name and the gateway's key, not the caller's token.
    const call = anthropic.requests.at(-1)!;
    expect((call.body as { model: string }).model).toBe('claude-up');
    expect(call.headers['x-api-key']).toBe(ANTHROPIC_KEY);
  });

  it('openai SDK, streamed: the fallback happens before the first byte', async () => {
    const openai = new OpenAI({ apiKey: TOKEN, baseURL: `${gw.url}/openai`, maxRetries: 0 });
    const { data: stream, response } = await openai.chat.completions.create({ model: 'smart', messages: [{ role: 'user', content: 'hi' }], stream: true }).withResponse();
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe(GREETING);
    expect(response.headers.get('x-wireforge-fallbacks')).toBe('openai-chat/gpt-up 503');
  });

  it('anthropic SDK on its own prefix reaches the same route', async () => {
    const client = new Anthropic({ apiKey: TOKEN, baseURL: `${gw.url}/anthropic`, maxRetries: 0 });
    const { data, response } = await client.messages.create({ model: 'smart', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] }).withResponse();
    expect(data.content.find((b) => b.type === 'text')).toMatchObject({ text: GREETING });
    expect(response.headers.get('x-wireforge-target')).toBe('anthropic-messages/claude-up');
  });

  it('gemini SDK through its prefix, with the token as its key', async () => {
    const ai = new GoogleGenAI({ apiKey: TOKEN, httpOptions: { baseUrl: `${gw.url}/gemini` } });
    const r = await ai.models.generateContent({ model: 'fast', contents: 'hi' });
    expect(r.text).toBe(GREETING);
  });

  it('model lists: openai.models.list() and anthropic.models.list() list the routes; a client sees only its own', async () => {
    const openai = new OpenAI({ apiKey: TOKEN, baseURL: `${gw.url}/openai`, maxRetries: 0 });
    const ids: string[] = [];
    for await (const m of openai.models.list()) ids.push(m.id);
    expect(ids).toEqual(['smart', 'fast']);
    const ant = new Anthropic({ apiKey: OTHER_TOKEN, baseURL: `${gw.url}/anthropic`, maxRetries: 0 });
    const listed: string[] = [];
    for await (const m of ant.models.list()) listed.push(m.id);
    expect(listed).toEqual(['fast']);
    const ai = new GoogleGenAI({ apiKey: TOKEN, httpOptions: { baseUrl: `${gw.url}/gemini` } });
    const names: string[] = [];
    for await (const m of await ai.models.list()) names.push(m.name!);
    expect(names).toEqual(['models/smart', 'models/fast']);
  });

  it('one model by id: openai.models.retrieve, anthropic.models.retrieve and ai.models.get; an unknown id or a route not allowed is a 404', async () => {
    const openai = new OpenAI({ apiKey: TOKEN, baseURL: `${gw.url}/openai`, maxRetries: 0 });
    expect(await openai.models.retrieve('smart')).toMatchObject({ id: 'smart', object: 'model' });
    // A pattern route's model, its id holding a `/` (the SDK percent-encodes it in the path).
    expect((await openai.models.retrieve('team/claude-x')).id).toBe('team/claude-x');
    // Ids hold `:` (fine-tunes, Ollama tags); only Gemini's paths put a method after one.
    expect((await openai.models.retrieve('team/llama3:8b')).id).toBe('team/llama3:8b');
    expect((await fetch(`${gw.url}/openai/v1/models/team%2Fx%ZZ`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    const missing = (await openai.models.retrieve('smrt').catch((x: unknown) => x)) as { status: number; message: string };
    expect(missing.status).toBe(404);
    expect(missing.message).toContain('did you mean "smart"');
    const ant = new Anthropic({ apiKey: OTHER_TOKEN, baseURL: `${gw.url}/anthropic`, maxRetries: 0 });
    expect(await ant.models.retrieve('fast')).toMatchObject({ type: 'model', id: 'fast' });
    // `other` may use `fast` only: `smart` exists, but not for this client, and is not named to it.
    const hidden = (await ant.models.retrieve('smart').catch((x: unknown) => x)) as { status: number; message: string };
    expect(hidden.status).toBe(404);
    expect(hidden.message).not.toContain('did you mean "smart"');
    const ai = new GoogleGenAI({ apiKey: TOKEN, httpOptions: { baseUrl: `${gw.url}/gemini` } });
    expect((await ai.models.get({ model: 'smart' })).name).toBe('models/smart');
  });

  it('client tokens: a wrong token is a 401, a route not allowed a 403, an unknown model a 404 naming the routes', async () => {
    const bad = new OpenAI({ apiKey: 'wrong-token-0123456789', baseURL: `${gw.url}/openai`, maxRetries: 0 });
    await expect(bad.chat.completions.create({ model: 'smart', messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ status: 401 });
    const other = new OpenAI({ apiKey: OTHER_TOKEN, baseURL: `${gw.url}/openai`, maxRetries: 0 });
    await expect(other.chat.completions.create({ model: 'smart', messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ status: 403 });
    const team = new OpenAI({ apiKey: TOKEN, baseURL: `${gw.url}/openai`, maxRetries: 0 });
    const e = (await team.chat.completions.create({ model: 'smrt', messages: [{ role: 'user', content: 'hi' }] }).catch((x: unknown) => x)) as { status: number; message: string };
    expect(e.status).toBe(404);
    expect(e.message).toContain('did you mean "smart"');
    expect(e.message).not.toContain(ANTHROPIC_KEY);
  });

  it('CORS: a preflight from the allowed origin passes, another origin gets no allow-origin', async () => {
    const ask = (origin: string) => fetch(`${gw.url}/openai/models`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' } });
    const ok = await ask('https://app.example');
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.example');
    const no = await ask('https://evil.example');
    expect(no.headers.get('access-control-allow-origin')).toBeNull();
    const list = await fetch(`${gw.url}/openai/models`, { headers: { origin: 'https://app.example', authorization: `Bearer ${TOKEN}` } });
    expect(list.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(list.headers.get('access-control-expose-headers')).toContain('x-wireforge-fallbacks');
  });
});

describe('beyond loopback', () => {
  const route = (key?: 'caller') => ({ model: 'm', targets: [{ spec: 'openai-chat', model: 'up', baseUrl: 'http://127.0.0.1:9', ...(key ? { key } : { key: { keys: [OPENAI_KEY] } }) }] });

  it('a gateway that holds a key and has no client tokens refuses to listen beyond loopback', async () => {
    await expect(startGateway({ host: '0.0.0.0', listen: 'openai-chat', routes: [route()] })).rejects.toThrow(/with your upstream keys and no client tokens/);
  });

  it('one that holds none (every target takes the caller\'s key) may: the caller brings its own', async () => {
    const gw = await startGateway({ host: '0.0.0.0', listen: 'openai-chat', routes: [route('caller')] });
    await gw.close();
  });
});
