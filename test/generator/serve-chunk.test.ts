/**
 * Chunk events (docs/spec-language.md#chunk-events): a step's event written as its own part,
 * `{ $chunk: <part> }`, placed by serve.chunk where it reads `$body`. What the emitted code
 * writes, the located problems of a misused `$chunk`, and the writer's side of it.
 */
import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../generator/diagnostics.js';
import { generate, type SpecSource } from '../../generator/pipeline.js';
import { adapters } from '../../generated/index.js';
import { StreamWriter, type ServeCodec } from '../../runtime/serve/index.js';
import { MINI } from './helpers.js';

const F = 'test/generator/mini.yaml';

/** MINI with its serve section's stream lines changed (the text after `  stream:` up to `finish:`). */
function withServe(lines: string[]): SpecSource {
  const text = MINI.text.replace(/  stream:\n    textDelta: .*\n    toolCall: .*\n/, `${lines.join('\n')}\n`);
  expect(text).not.toBe(MINI.text);
  return { file: MINI.file, text };
}

async function diagnose(spec: SpecSource): Promise<string[]> {
  const r = await generate([spec]);
  return r.diagnostics.map(formatDiagnostic);
}

describe('$chunk in a spec', () => {
  it('is emitted as the part alone, placed by serve.chunk', async () => {
    const spec = withServe(['  chunk: { seq: $seq, piece: $body }', '  stream:', '    textDelta: { $chunk: { body: $delta } }', '    toolCall: { $when: { first: true }, $chunk: { call: $callId } }']);
    const r = await generate([spec]);
    expect(r.diagnostics).toEqual([]);
    const code = [...r.files.entries()].find(([f]) => f.endsWith('mini.ts'))![1];
    expect(code).toContain('chunk: (s, body) => compact({ seq: s.seq, piece: body })');
    expect(code).toContain('textDelta: [{ chunk: (s) => compact({ body: s.delta }) }]');
    expect(code).toContain('toolCall: [{ chunk: (s) => (s.first === true ? compact({ call: s.callId }) : undefined) }]');
  });

  it('needs a serve.chunk, is the whole event, and sits nowhere else; serve.chunk places $body', async () => {
    const line = (needle: string, text: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;
    const noChunk = withServe(['  stream:', '    textDelta: { $chunk: { body: $delta } }']);
    expect(await diagnose(noChunk)).toEqual([
      `${F}:${line('textDelta', noChunk.text)}:26 missing-field $chunk places its part in serve.chunk, and this spec (and its base) has none (at /serve/stream/textDelta/$chunk); add serve.chunk: the event every chunk is, with $body where the part goes`,
    ]);
    const mixed = withServe(['  chunk: { piece: $body }', '  stream:', '    textDelta: { $chunk: { body: $delta }, seq: $seq }']);
    expect(await diagnose(mixed)).toEqual([
      `${F}:${line('textDelta', mixed.text)}:16 bad-value a $chunk event is only its part, but this one also writes seq (at /serve/stream/textDelta); move those keys into the part, or into serve.chunk if every chunk carries them`,
    ]);
    const nested = withServe(['  chunk: { piece: $body }', '  stream:', '    textDelta: { delta: { $chunk: { body: $delta } } }']);
    expect(await diagnose(nested)).toEqual([
      `${F}:${line('textDelta', nested.text)}:27 bad-value $chunk is a stream event's only key, not a key inside a template (at /serve/stream/textDelta/delta/$chunk); write the step as { $chunk: <part> }`,
    ]);
    const noBody = withServe(['  chunk: { piece: $seq }', '  stream:', '    textDelta: { $chunk: { body: $delta } }']);
    expect(await diagnose(noBody)).toEqual([
      `${F}:${line('chunk:', noBody.text)}:10 bad-value serve.chunk does not place $body, so every chunk event would drop its part (at /serve/chunk); put $body where a step's part goes (a Chat chunk: choices: [{ delta: $body, … }])`,
    ]);
    const bodyInStep = withServe(['  stream:', '    textDelta: { delta: $body }']);
    expect((await diagnose(bodyInStep)).map((d) => d.split(' ')[1])).toEqual(['unknown-slot']);
  });
});

describe('chunk events in the stream writer', () => {
  const adapter = adapters['openai-chat'];
  const events = (serve: ServeCodec) => {
    const w = new StreamWriter(adapter, serve, { id: 'c1', model: 'm', created: 0 });
    return [...w.write({ type: 'text-delta', delta: 'Hi' }), ...w.write({ type: 'text-delta', delta: '!' })].map((e) => e.data);
  };

  it('places each part where serve.chunk reads $body; a part that is undefined writes no event', () => {
    const serve: ServeCodec = {
      chunk: (s, body) => ({ n: s.seq, part: body }),
      stream: { textDelta: [{ chunk: (s) => (s.delta === '!' ? undefined : { text: s.delta }) }, (s) => ({ whole: s.delta })] },
      finish: {},
    };
    expect(events(serve)).toEqual([{ n: 0, part: { text: 'Hi' } }, { whole: 'Hi' }, { whole: '!' }]);
  });

  it('a chunk event without serve.chunk is a TypeError naming the step', () => {
    const serve: ServeCodec = { stream: { textDelta: [{ chunk: (s) => ({ text: s.delta }) }] }, finish: {} };
    expect(() => events(serve)).toThrow(new TypeError("serve.stream.textDelta: a chunk event needs the codec's serve.chunk template"));
  });
});
