/**
 * Broken input (issue 5 §4): every failure is a typed error that says what and where, and keeps
 * what already arrived in `error.partial`.
 */
import { describe, expect, it } from 'vitest';
import { adapters } from '../../generated/index.js';
import { ProviderError, StreamError, type ProviderAdapter } from '../../generated/index.js';
import { replayBlocking, replayStream } from '../helpers/replay.js';

const enc = (s: string) => new TextEncoder().encode(s);
const openai = adapters['openai-chat'] as ProviderAdapter;
const anthropic = adapters['anthropic-messages'] as ProviderAdapter;
const gemini = adapters.gemini as ProviderAdapter;

const chunk = (delta: object, extra: object = {}) =>
  `data: ${JSON.stringify({ id: 'c1', model: 'gpt-4o', choices: [{ index: 0, delta, finish_reason: null }], ...extra })}\n\n`;
const finish = (reason: string) => `data: ${JSON.stringify({ id: 'c1', choices: [{ index: 0, delta: {}, finish_reason: reason }] })}\n\n`;
const ev = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

async function streamError(adapter: ProviderAdapter, body: string, size = 5): Promise<unknown> {
  return replayStream(adapter, enc(body), size).then(
    (r) => ({ resolved: r.final }),
    (e: unknown) => e,
  );
}

describe('broken streams', () => {
  it('malformed JSON in an event: StreamError with event, offset and excerpt; partial kept', async () => {
    const body = chunk({ content: 'Hello' }) + 'data: {"id":"c1","choices":[{"delta":{"content":"oops"}\n\n' + finish('stop') + 'data: [DONE]\n\n';
    for (const size of [1, 5, body.length]) {
      const e = (await streamError(openai, body, size)) as StreamError;
      expect(e).toBeInstanceOf(StreamError);
      expect(e.reason).toBe('malformed JSON in an event');
      expect(e.offset).toBe(chunk({ content: 'Hello' }).length);
      expect(e.excerpt).toContain('"oops"');
      expect(e.message).toMatch(/^openai-chat: malformed JSON in an event at offset \d+: /);
      expect(e.partial?.text).toBe('Hello');
    }
  });

  it('a named event with malformed JSON says which event', async () => {
    const body = ev('message_start', { message: { id: 'm1', model: 'claude', usage: { input_tokens: 1 } } }) + 'event: content_block_delta\ndata: {"type":\n\n';
    const e = (await streamError(anthropic, body)) as StreamError;
    expect([e.reason, e.event]).toEqual(['malformed JSON in an event', 'content_block_delta']);
    expect(e.partial?.id).toBe('m1');
  });

  it('a stream that ends before its terminal event', async () => {
    const body = chunk({ content: 'Hel' }) + chunk({ content: 'lo' }) + finish('stop');
    const e = (await streamError(openai, body)) as StreamError;
    expect(e).toBeInstanceOf(StreamError);
    expect(e.reason).toBe('the stream ended before its terminal event');
    expect(e.partial?.text).toBe('Hello');
    expect(e.partial?.rawFinishReason).toBe('stop');
  });

  it('Anthropic without message_stop, with a complete tool call', async () => {
    const body =
      ev('message_start', { message: { id: 'm1', model: 'claude', usage: { input_tokens: 3, output_tokens: 1 } } }) +
      ev('content_block_start', { index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'f', input: {} } }) +
      ev('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: '{"a":1}' } }) +
      ev('content_block_stop', { index: 0 }) +
      ev('content_block_start', { index: 1, content_block: { type: 'text', text: '' } }) +
      ev('content_block_delta', { index: 1, delta: { type: 'text_delta', text: 'partial answ' } });
    const e = (await streamError(anthropic, body)) as StreamError;
    expect(e.reason).toBe('the stream ended before its terminal event');
    expect(e.partial?.toolCalls).toEqual([{ id: 'toolu_1', name: 'f', arguments: '{"a":1}' }]);
    expect(e.partial?.text).toBe('partial answ');
    expect(e.partial?.usage).toEqual({ inputTokens: 3, outputTokens: 1, totalTokens: 4 });
  });

  it('a stream that ends inside an event', async () => {
    const body = chunk({ content: 'Hi' }) + 'data: {"id":"c1","choices":[{"delta":{"content":" th';
    const e = (await streamError(openai, body)) as StreamError;
    expect(e.reason).toBe('the stream ended inside an event');
    expect(e.excerpt).toContain('" th');
    expect(e.partial?.text).toBe('Hi');
  });

  it('tool-call arguments that are not valid JSON when the turn ends: raw text kept, flagged', async () => {
    const body =
      chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"city": "Par' } }] }) +
      finish('tool_calls') +
      'data: [DONE]\n\n';
    const { resolved } = (await streamError(openai, body)) as { resolved: { toolCalls: Array<{ arguments: string; argumentsError?: string }> } };
    expect(resolved.toolCalls[0]!.arguments).toBe('{"city": "Par');
    expect(resolved.toolCalls[0]!.argumentsError).toMatch(/^not valid JSON/);
  });

  it('valid arguments carry no flag', async () => {
    const body = chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }] }) + finish('tool_calls') + 'data: [DONE]\n\n';
    const { resolved } = (await streamError(openai, body)) as { resolved: { toolCalls: object[] } };
    expect(resolved.toolCalls[0]).toEqual({ id: 'call_1', name: 'f', arguments: '{}' });
  });

  it('a tool-call fragment for an index never opened', async () => {
    const body = chunk({ content: 'x' }) + chunk({ tool_calls: [{ index: 3, function: { arguments: '{"a"' } }] }) + finish('tool_calls') + 'data: [DONE]\n\n';
    const e = (await streamError(openai, body)) as StreamError;
    expect(e).toBeInstanceOf(StreamError);
    expect(e.message).toContain('tool-call fragment for index 3 that was never opened');
    expect(e.partial?.text).toBe('x');
  });

  it('two calls sharing one index with different ids', async () => {
    const body =
      chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'f', arguments: '{}' } }] }) +
      chunk({ tool_calls: [{ index: 0, id: 'call_b', type: 'function', function: { name: 'g', arguments: '{}' } }] }) +
      finish('tool_calls') +
      'data: [DONE]\n\n';
    const e = (await streamError(openai, body)) as StreamError;
    expect(e.message).toContain('two tool calls share index 0 (ids "call_a" and "call_b")');
    expect(e.partial?.toolCalls.map((c) => c.id)).toEqual(['call_a']);
  });

  it.each([
    ['openai-chat', openai, chunk({ content: 'so far' }) + 'data: {"error":{"message":"upstream died","type":"server_error","code":"boom"}}\n\n', 'upstream died', 'boom'],
    [
      'anthropic-messages',
      anthropic,
      ev('message_start', { message: { id: 'm', model: 'c', usage: {} } }) +
        ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }) +
        ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'so far' } }) +
        ev('error', { error: { type: 'overloaded_error', message: 'Overloaded' } }),
      'Overloaded',
      undefined,
    ],
    [
      'gemini',
      gemini,
      'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"so far"}]}}]}\r\n\r\n' + 'data: {"error":{"code":503,"message":"The model is overloaded.","status":"UNAVAILABLE"}}\r\n\r\n',
      'The model is overloaded.',
      '503',
    ],
  ])('%s: an in-stream error event → ProviderError with partial', async (_id, adapter, body, message, code) => {
    const e = (await streamError(adapter, body)) as ProviderError;
    expect(e).toBeInstanceOf(ProviderError);
    expect(e.status).toBeUndefined();
    expect(e.providerMessage).toBe(message);
    expect(e.code).toBe(code);
    expect(e.retryable).toBe(false);
    expect(e.partial?.text).toBe('so far');
  });

  it('a stream whose chunks have none of the fields the spec reads', async () => {
    const body = 'data: {"id":"c1","object":"chat.completion.chunk"}\n\ndata: {"id":"c1"}\n\ndata: [DONE]\n\n';
    const e = (await streamError(openai, body)) as StreamError;
    expect(e).toBeInstanceOf(StreamError);
    expect(e.message).toContain('none of the fields this spec reads');
  });

  it('a stream with no bytes at all', async () => {
    const e = (await streamError(openai, '')) as StreamError;
    expect(e.message).toContain('ended without sending any event');
  });
});

describe('broken blocking bodies', () => {
  it.each([
    ['choices absent', '{"id":"c1","object":"chat.completion"}'],
    ['choices empty', '{"id":"c1","choices":[]}'],
    ['an empty JSON object', '{}'],
  ])('%s → StreamError naming the problem', async (_name, body) => {
    const e = await replayBlocking(openai, body).then(() => undefined, (x: unknown) => x);
    expect(e).toBeInstanceOf(StreamError);
    expect((e as StreamError).message).toContain('none of the fields this spec reads');
  });

  it('an empty 200 body', async () => {
    const e = (await replayBlocking(anthropic, '').then(() => undefined, (x: unknown) => x)) as StreamError;
    expect(e.reason).toBe('empty response body');
  });

  it('a non-JSON 200 body quotes an excerpt', async () => {
    const e = (await replayBlocking(anthropic, '<html>gateway</html>').then(() => undefined, (x: unknown) => x)) as StreamError;
    expect([e.reason, e.excerpt]).toEqual(['response body is not JSON', '<html>gateway</html>']);
  });

  it('a blocking error object in a 200 body (Responses failed) → ProviderError', async () => {
    const body = JSON.stringify({ id: 'resp_1', status: 'failed', error: { code: 'server_error', message: 'went wrong' }, output: [] });
    const e = (await replayBlocking(adapters['openai-responses'] as ProviderAdapter, body).then(() => undefined, (x: unknown) => x)) as ProviderError;
    expect(e).toBeInstanceOf(ProviderError);
    expect([e.providerMessage, e.code]).toEqual(['went wrong', 'server_error']);
  });
});
