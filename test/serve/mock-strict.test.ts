/**
 * A mock that cannot fake a pass: a fault its reply cannot carry is refused at start, a stream
 * fault on a request that does not stream is an error, and delays leave no listener behind.
 */
import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { BadRequestError, createClient, ProviderError, StreamError } from '../../generated/index.js';
import { createMockServer, MockSetupError, servedSpec, type MockServer, type MockServerOptions } from '../../node/index.js';
import { createMockHandler } from '../../runtime/serve/index.js';

let mock: MockServer | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const TEXT = 'One two three four five six seven eight nine ten.';
const ask = { messages: [{ role: 'user' as const, content: 'hi' }] };
const client = (m: MockServer) => createClient('openai-chat', { apiKey: 'k', baseUrl: m.url, model: 'm', maxRetries: 0 });

async function refused(options: Omit<MockServerOptions, 'provider'>): Promise<MockSetupError> {
  const err = await createMockServer({ provider: 'openai-chat', ...options }).then(
    (m) => ((mock = m), undefined),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(MockSetupError);
  return err as MockSetupError;
}

/** The data events of a clean streamed answer, as read off the wire (not as the mock counts them). */
async function wireEvents(chunk: number): Promise<number> {
  const m = await createMockServer({ provider: 'openai-chat', chunk, script: [{ reply: { text: TEXT } }] });
  try {
    const res = await fetch(`${m.url}/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }] }) });
    const lines = (await res.text()).split('\n').filter((l) => l.startsWith('data:') && l !== 'data: [DONE]');
    return lines.length;
  } finally {
    await m.close();
  }
}

describe('a fault that cannot apply is refused when the mock is made', () => {
  it('truncateAfter without a reply names the option and says why', async () => {
    const err = await refused({ script: [{ fault: { truncateAfter: 3 } }] });
    expect(err.option).toBe('script[0].fault.truncateAfter');
    expect(err.message).toMatch(/openai-chat mock: script\[0\]\.fault\.truncateAfter: .*gives none/);
  });

  it('errorAfter and truncateAfter past the stream are refused; the last place each can go is served as a fault', async () => {
    const n = await wireEvents(4);
    expect(n).toBeGreaterThan(5);
    const cut = await refused({ chunk: 4, script: [{ reply: { text: TEXT }, fault: { truncateAfter: n } }] });
    expect(cut.option).toBe('script[0].fault.truncateAfter');
    expect(cut.reason).toContain(`makes ${n} stream events`);
    const late = await refused({ chunk: 4, script: [{ reply: { text: TEXT }, fault: { errorAfter: n + 1 } }] });
    expect(late.option).toBe('script[0].fault.errorAfter');

    mock = await createMockServer({ provider: 'openai-chat', chunk: 4, script: [{ reply: { text: TEXT }, fault: { truncateAfter: n - 1 } }] });
    expect(await client(mock).stream(ask).final().catch((e: unknown) => e)).toBeInstanceOf(StreamError);
    await mock.close();
    mock = await createMockServer({ provider: 'openai-chat', chunk: 4, script: [{ reply: { text: TEXT }, fault: { errorAfter: n, message: 'at the end' } }] });
    const err = await client(mock).stream(ask).final().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as Error).message).toContain('at the end');
  });

  it.each([
    [{ status: 500, errorAfter: 2 }, 'fault.errorAfter', /HTTP error before any stream/],
    [{ retryAfter: 2 }, 'fault.retryAfter', /HTTP error only/],
    [{ message: 'boom' }, 'fault.message', /has neither/],
    [{ status: 200 }, 'fault.status', /400 to 599/],
    [{ truncateAftr: 3 }, 'fault.truncateAftr', /did you mean truncateAfter\?/],
    [{ latencyMs: -5 }, 'fault.latencyMs', /from 0/],
    [{ errorAfter: 1, truncateAfter: 2 }, 'fault.truncateAfter', /give one/],
  ])('%j is refused at %s', async (fault, option, reason) => {
    const err = await refused({ script: [{ ...('status' in fault ? {} : { reply: { text: TEXT } }), fault: fault as never }] });
    expect(err.option).toBe(`script[0].${option}`);
    expect(err.reason).toMatch(reason);
  });

  it('a reply beside an HTTP error, a stream fault on a step that never streams, an unknown step key', async () => {
    expect((await refused({ script: [{ reply: { text: 'x' }, fault: { status: 429 } }] })).reason).toMatch(/never be served/);
    expect((await refused({ script: [{ when: { stream: false }, reply: { text: TEXT }, fault: { stallMs: 50 } }] })).option).toBe('script[0].fault.stallMs');
    expect((await refused({ script: [{ reply: { text: 'x' } }, { wen: { model: 'm' }, reply: { text: 'y' } } as never] })).message).toMatch(/script\[1\]\.wen: .*did you mean when\?/);
  });

  it('a misspelt reply field (it served an empty turn), in a thinking block or a tool call, is refused with a did-you-mean', async () => {
    const typo = await refused({ script: [{ reply: { txt: 'x', toolcalls: [] } as never }] });
    expect(typo.option).toBe('script[0].reply.txt');
    expect(typo.message).toMatch(/did you mean text\?/);
    expect((await refused({ script: [{ reply: { thinking: [{ text: 'a' }, { redact: 'b' }] } as never }] })).option).toBe('script[0].reply.thinking[1].redact');
    expect((await refused({ script: [{ reply: { toolCalls: [{ name: 'f', argument: {} }] } as never }] })).message).toMatch(/reply\.toolCalls\[0\]\.argument: .*did you mean arguments\?/);
  });

  it('a reply key left empty in YAML (null) is no key: the mock starts and answers; an empty block in a list is refused', async () => {
    expect((await refused({ script: [{ reply: { text: 'x', thinking: [null] } as never }] })).option).toBe('script[0].reply.thinking[0]');
    for (const reply of [null, { text: 'x', thinking: null }]) {
      mock = await createMockServer({ provider: 'openai-chat', script: [{ reply: reply as never }] });
      const res = await fetch(`${mock.url}/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }) });
      expect(res.status).toBe(200);
      await mock.close();
      mock = undefined;
    }
  });

  it('a stream fault met by a request that does not stream is an error, not a clean answer', async () => {
    mock = await createMockServer({ provider: 'openai-chat', script: [{ reply: { text: TEXT }, fault: { truncateAfter: 2 } }] });
    const err = await client(mock).chat(ask).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as Error).message).toContain('fault.truncateAfter applies inside a stream');
  });

  it('a script function whose step cannot apply answers with an error naming it', async () => {
    mock = await createMockServer({ provider: 'openai-chat', script: () => ({ fault: { errorAfter: 1 } }) });
    const err = await client(mock).stream(ask).final().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).status).toBe(500);
    expect((err as Error).message).toContain('script(call).fault.errorAfter');
  });
});

describe('delays leave no listener behind', () => {
  const spec = servedSpec('openai-chat');
  const post = (stream: boolean) => new Request('http://localhost/chat/completions', { method: 'POST', body: JSON.stringify({ model: 'm', stream, messages: [{ role: 'user', content: 'hi' }] }) });

  it('1,000 delays between stream events on one request signal: at most one listener at a time, none after', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const handler = createMockHandler(spec, { chunk: 1, delayMs: 1, script: [{ reply: { text: 'x'.repeat(1000) }, fault: { stallMs: 1, latencyMs: 1 } }] });
      const req = post(true);
      const res = await handler.fetch(req);
      const reader = res.body!.getReader();
      let most = 0;
      let chunks = 0;
      for (;;) {
        const { done } = await reader.read();
        if (done) break;
        chunks++;
        most = Math.max(most, getEventListeners(req.signal, 'abort').length);
      }
      expect(chunks).toBeGreaterThan(1000);
      expect(most).toBeLessThanOrEqual(2);
      expect(getEventListeners(req.signal, 'abort')).toHaveLength(0);
      expect(handler.calls[0]!.aborted).toBeUndefined();
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
  }, 30_000);

  it('latency before an answer that does not stream, and an error answer: none after', async () => {
    const handler = createMockHandler(spec, { script: [{ when: { lastUserText: 'hi' }, reply: { text: 'ok' }, fault: { latencyMs: 5 } }] });
    const req = post(false);
    expect((await handler.fetch(req)).status).toBe(200);
    expect(getEventListeners(req.signal, 'abort')).toHaveLength(0);
    const bad = new Request('http://localhost/chat/completions', { method: 'POST', body: '{"messages": 5}' });
    expect((await handler.fetch(bad)).status).toBe(400);
    expect(getEventListeners(bad.signal, 'abort')).toHaveLength(0);
  });

  it('a client that goes away mid-stream is still recorded as gone', async () => {
    const handler = createMockHandler(spec, { chunk: 1, delayMs: 20, script: [{ reply: { text: TEXT } }] });
    const controller = new AbortController();
    const req = new Request('http://localhost/chat/completions', { method: 'POST', signal: controller.signal, body: JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }] }) });
    const reader = (await handler.fetch(req)).body!.getReader();
    await reader.read();
    controller.abort();
    await reader.cancel().catch(() => undefined);
    expect(handler.calls[0]!.aborted).toBe(true);
  });
});
