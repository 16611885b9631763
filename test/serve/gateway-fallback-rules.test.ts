/**
 * Which failures move a request to the next target: no connection, no first byte in time, 429
 * and 5xx do; a 400 does not (another provider would refuse it too); nothing does once the first
 * byte went to the caller. Mock upstreams on 127.0.0.1 with scripted faults.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, startGateway, type Listening, type MockServer } from '../../node/index.js';

const KEY = 'sk-fallback-rules-0001';
const ask = (gw: Listening, model: string, content: string, stream = false) =>
  fetch(`${gw.url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model, stream, messages: [{ role: 'user', content }] }) });

describe('fallback rules', () => {
  let flaky: MockServer;
  let good: MockServer;
  let gw: Listening;
  const closedPort = 'http://127.0.0.1:9';
  beforeAll(async () => {
    flaky = await createMockServer({
      provider: 'openai-chat',
      apiKey: KEY,
      script: [
        { when: { lastUserText: 'bad request' }, fault: { status: 400, message: 'messages[0] is invalid' } },
        { when: { lastUserText: 'slow' }, reply: { text: 'too late' }, fault: { latencyMs: 1500 } },
        { when: { lastUserText: 'mid-stream' }, reply: { text: 'partial answer that breaks' }, fault: { errorAfter: 2, message: 'broke mid-stream' } },
        { when: { lastUserText: 'overloaded' }, fault: { status: 529, message: 'Overloaded' } },
        { reply: { text: 'from flaky' } },
      ],
    });
    good = await createMockServer({ provider: 'anthropic-messages', apiKey: KEY, script: [{ reply: { text: 'from the fallback' } }] });
    const fallback = { spec: 'anthropic-messages', model: 'claude-b', baseUrl: good.url, key: { keys: [KEY] } };
    gw = await startGateway({
      listen: 'openai-chat',
      timeoutMs: 300,
      routes: [
        { model: 'refused', targets: [{ spec: 'openai-chat', model: 'gpt-a', baseUrl: closedPort, key: { keys: [KEY] } }, fallback] },
        { model: 'flaky', targets: [{ spec: 'openai-chat', model: 'gpt-a', baseUrl: flaky.url, key: { keys: [KEY] } }, fallback] },
        { model: 'alone', targets: [{ spec: 'openai-chat', model: 'gpt-a', baseUrl: flaky.url, key: { keys: [KEY] } }] },
      ],
    });
  });
  afterAll(async () => {
    await gw.close();
    await flaky.close();
    await good.close();
  });

  it('no connection: the next target answers', async () => {
    const r = await ask(gw, 'refused', 'hi');
    expect(r.status).toBe(200);
    expect(((await r.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]!.message.content).toBe('from the fallback');
    expect(r.headers.get('x-wireforge-fallbacks')).toBe('openai-chat/gpt-a connection');
  });

  it('no first byte within timeoutMs: the next target answers', async () => {
    const r = await ask(gw, 'flaky', 'slow', true);
    expect(r.status).toBe(200);
    const deltas = (await r.text()).split('\n').filter((l) => l.startsWith('data: {')).map((l) => (JSON.parse(l.slice(6)) as { choices: Array<{ delta: { content?: string } }> }).choices[0]?.delta.content ?? '');
    expect(deltas.join('')).toBe('from the fallback');
    expect(r.headers.get('x-wireforge-fallbacks')).toBe('openai-chat/gpt-a timeout');
    expect(r.headers.get('x-wireforge-target')).toBe('anthropic-messages/claude-b');
  });

  it('529 overloaded: the next target answers', async () => {
    const r = await ask(gw, 'flaky', 'overloaded');
    expect(r.status).toBe(200);
    expect(r.headers.get('x-wireforge-fallbacks')).toBe('openai-chat/gpt-a 529');
  });

  it('a 400 is the answer: no other target is asked', async () => {
    const before = good.requests.length;
    const r = await ask(gw, 'flaky', 'bad request');
    expect(r.status).toBe(400);
    expect(((await r.json()) as { error: { message: string } }).error.message).toContain('messages[0] is invalid');
    expect(good.requests.length).toBe(before);
    expect(r.headers.get('x-wireforge-fallbacks')).toBeNull();
  });

  it('after the first byte: an error event in the stream, not another target', async () => {
    const before = good.requests.length;
    const r = await ask(gw, 'flaky', 'mid-stream', true);
    expect(r.status).toBe(200);
    expect(r.headers.get('x-wireforge-target')).toBe('openai-chat/gpt-a');
    const text = await r.text();
    expect(text).toContain('broke mid-stream');
    expect(good.requests.length).toBe(before);
  });

  it('the last target failing: its failure is the answer, the earlier ones in the header', async () => {
    const r = await ask(gw, 'alone', 'overloaded');
    expect(r.status).toBe(529);
    expect(r.headers.get('x-wireforge-fallbacks')).toBeNull();
    expect(r.headers.get('x-wireforge-error-source')).toBe('upstream');
  });
});
