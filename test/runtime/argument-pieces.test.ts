/**
 * Tool-call arguments streamed as JSON-path pieces (Vertex AI `partialArgs`, read by the gemini
 * spec; runtime/assemble/argument-pieces.ts): the argument deltas add up to the arguments at
 * every chunk size, and a call that cannot be assembled gets argumentsError with what arrived.
 * Expected values are written from the documented wire format (docs/wire-facts.md#gemini-response-and-streaming).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { adapters } from '../../generated/index.js';
import { StreamError, type StreamEvent } from '../../runtime/index.js';
import { parseJsonPath } from '../../runtime/assemble/argument-pieces.js';
import { replayStream } from '../helpers/replay.js';

const gemini = adapters.gemini;
const MODEL = { modelVersion: 'gemini-3-pro-preview', responseId: 'WFtest' };

/** An SSE body of Gemini chunks, each holding these parts (the last with a finish reason, if given). */
function sse(parts: unknown[][], finish?: string): Uint8Array {
  const text = parts
    .map((p, i) => {
      const candidate: Record<string, unknown> = { content: { role: 'model', parts: p }, index: 0 };
      if (finish && i === parts.length - 1) candidate.finishReason = finish;
      return `data: ${JSON.stringify({ candidates: [candidate], ...MODEL })}\r\n\r\n`;
    })
    .join('');
  return new TextEncoder().encode(text);
}

const call = (fc: Record<string, unknown>) => ({ functionCall: fc });
const piece = (jsonPath: string, value: Record<string, unknown>, willContinue?: boolean) => ({ jsonPath, ...value, ...(willContinue ? { willContinue } : {}) });

function deltas(events: StreamEvent[], index = 0): string {
  return events.flatMap((e) => (e.type === 'tool-call-delta' && e.index === index ? [e.delta] : [])).join('');
}

describe('JSON-path argument pieces (gemini)', () => {
  it('the fixture: deltas join to the arguments at every chunk size, and more than one arrives', async () => {
    const bytes = new Uint8Array(readFileSync(new URL('../fixtures/gemini/streamed-arguments.sse', import.meta.url)));
    const want = '{"destination":"San Francisco, \\"CA\\"","nights":3,"travellers":[{"name":"Ada","child":false},{"name":"Alan"}],"notes":null}';
    for (let size = 1; size <= bytes.length; size += size < 40 ? 1 : 97) {
      const { events, final } = await replayStream(gemini, bytes, size);
      expect(final.toolCalls[0]!.arguments, `size ${size}`).toBe(want);
      expect(final.toolCalls[0]!.argumentsError).toBeUndefined();
      expect(deltas(events), `size ${size}`).toBe(want);
      expect(events.filter((e) => e.type === 'tool-call-delta').length).toBeGreaterThan(3);
    }
  });

  it('a continued string is streamed as it arrives (escaped), before the call ends', async () => {
    const bytes = sse([[call({ name: 'say', willContinue: true })], [call({ partialArgs: [piece('$.text', { stringValue: 'a "q' }, true)], willContinue: true })], [call({ partialArgs: [piece('$.text', { stringValue: 'uote"' })], willContinue: true })], [call({})]], 'STOP');
    const { events, final } = await replayStream(gemini, bytes, bytes.length);
    const ds = events.flatMap((e) => (e.type === 'tool-call-delta' ? [e.delta] : []));
    expect(ds).toEqual(['{"text":"a \\"q', 'uote\\"', '"}']);
    expect(final.toolCalls).toEqual([{ id: 'call_WFtest_0', name: 'say', arguments: '{"text":"a \\"quote\\""}' }]);
  });

  it('a stream cut while a piece was to continue: a StreamError whose partial call has argumentsError and the text that arrived', async () => {
    const bytes = sse([[call({ name: 'say', willContinue: true })], [call({ partialArgs: [piece('$.text', { stringValue: 'Hel' }, true)], willContinue: true })]]);
    const error = await replayStream(gemini, bytes, 7).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(StreamError);
    const partial = (error as StreamError).partial!;
    expect(partial.toolCalls).toHaveLength(1);
    expect(partial.toolCalls[0]!.arguments).toBe('{"text":"Hel');
    expect(partial.toolCalls[0]!.argumentsError).toMatch(/unfinished/);
  });

  it('a call opened with no pieces and closed is a call without arguments ({}), not an error', async () => {
    const bytes = sse([[call({ name: 'now', willContinue: true })], [call({})]], 'STOP');
    const { final } = await replayStream(gemini, bytes, bytes.length);
    expect(final.toolCalls).toEqual([{ id: 'call_WFtest_0', name: 'now', arguments: '{}' }]);
  });

  it('a piece out of document order (into an object already closed in the text): deltas stop there, the call carries the whole arguments', async () => {
    const bytes = sse([[call({ name: 'f', willContinue: true })], [call({ partialArgs: [piece('$.a.x', { numberValue: 1 }), piece('$.b', { numberValue: 2 }), piece('$.a.y', { numberValue: 3 })], willContinue: true })], [call({})]], 'STOP');
    const { events, final } = await replayStream(gemini, bytes, bytes.length);
    const args = final.toolCalls[0]!.arguments;
    expect(JSON.parse(args)).toEqual({ a: { x: 1, y: 3 }, b: 2 });
    expect(final.toolCalls[0]!.argumentsError).toBeUndefined();
    expect(deltas(events)).toBe('{"a":{"x":1},"b":2');
  });

  it('a second call begun while the first still continues: the first has argumentsError, the second is whole', async () => {
    const bytes = sse(
      [[call({ name: 'f', willContinue: true })], [call({ partialArgs: [piece('$.s', { stringValue: 'ab' }, true)], willContinue: true })], [call({ name: 'g', willContinue: true })], [call({ partialArgs: [piece('$.n', { numberValue: 5 })], willContinue: true })], [call({})]],
      'STOP',
    );
    const { final } = await replayStream(gemini, bytes, 3);
    expect(final.toolCalls.map((c) => c.name)).toEqual(['f', 'g']);
    expect(final.toolCalls[0]!.argumentsError).toMatch(/unfinished/);
    expect(final.toolCalls[1]).toEqual({ id: 'call_WFtest_1', name: 'g', arguments: '{"n":5}' });
    expect(final.finishReason).toBe('tool_calls');
  });

  it.each([
    ['a path that is not a single place', piece('$.a[*]', { numberValue: 1 }), /not a JSON path/],
    ['a piece with no value', piece('$.a', {}), /no value/],
    ['a value of the wrong type', piece('$.a', { numberValue: '1' }), /wrong type/],
    ['an index with a gap', piece('$.list[2]', { numberValue: 1 }), /gap/],
    ['a key into a list', piece('$.list.name', { stringValue: 'x' }), /key into a list/],
  ])('%s: argumentsError naming the path', async (_, bad, reason) => {
    const bytes = sse([[call({ name: 'f', willContinue: true })], [call({ partialArgs: [piece('$.list[0]', { numberValue: 0 }), bad], willContinue: true })], [call({})]], 'STOP');
    const { final } = await replayStream(gemini, bytes, bytes.length);
    expect(final.toolCalls[0]!.argumentsError).toMatch(reason);
    expect(final.toolCalls[0]!.argumentsError).toContain(JSON.stringify(bad.jsonPath));
    // What did arrive is kept.
    expect(JSON.parse(final.toolCalls[0]!.arguments)).toEqual({ list: [0] });
  });

  it('a key named __proto__ is data in the arguments; nothing reaches Object.prototype', async () => {
    const bytes = sse([[call({ name: 'f', willContinue: true })], [call({ partialArgs: [piece('$.__proto__.polluted', { boolValue: true }), piece("$['constructor']", { stringValue: 'c' })], willContinue: true })], [call({})]], 'STOP');
    const { final } = await replayStream(gemini, bytes, bytes.length);
    expect(final.toolCalls[0]!.arguments).toBe('{"__proto__":{"polluted":true},"constructor":"c"}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('pieces for a call that was never opened are a StreamError', async () => {
    const bytes = sse([[call({ partialArgs: [piece('$.a', { numberValue: 1 })], willContinue: true })]], 'STOP');
    await expect(replayStream(gemini, bytes, bytes.length)).rejects.toThrow(/never opened/);
  });

  it('whole calls (no willContinue, no pieces) read as before', async () => {
    const bytes = sse([[call({ name: 'f', args: { a: 1 } }), call({ name: 'g', args: {} })]], 'STOP');
    const { final } = await replayStream(gemini, bytes, bytes.length);
    expect(final.toolCalls).toEqual([
      { id: 'call_WFtest_0', name: 'f', arguments: '{"a":1}' },
      { id: 'call_WFtest_1', name: 'g', arguments: '{}' },
    ]);
  });
});

describe('parseJsonPath (RFC 9535 names and indexes)', () => {
  it.each([
    ['$', []],
    ['$.a', ['a']],
    ['$.a.b[0].c', ['a', 'b', 0, 'c']],
    ["$['a.b']", ['a.b']],
    ['$["q\\"x"][12]', ['q"x', 12]],
  ])('%s', (path, segs) => expect(parseJsonPath(path)).toEqual(segs));

  it.each(['a', '$.', '$..a', '$.a[*]', '$[01]', '$[-1]', "$['a'", '$.a[0', '$x'])('%s is not one place', (path) => expect(parseJsonPath(path)).toBeUndefined());
});
