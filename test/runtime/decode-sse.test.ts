/** The SSE decoder: WHATWG line rules, fields, comments, BOM, and chunk boundaries anywhere. */
import { describe, expect, it } from 'vitest';
import { SseDecoder } from '../../runtime/framing/decode-sse.js';
import { NdjsonDecoder } from '../../runtime/framing/decode-ndjson.js';
import type { FrameDecoder, FrameSink } from '../../runtime/contract/frame.js';

interface Frame {
  event: string | undefined;
  data: string;
  offset: number;
}
type Make = (sink: FrameSink) => FrameDecoder;

/** A decoder whose frames land in `out`. */
function collecting(make: Make): { decoder: FrameDecoder; out: Frame[] } {
  const out: Frame[] = [];
  return { decoder: make((event, data, offset) => out.push({ event, data, offset })), out };
}

function decodeText(make: Make, pieces: string[]): { frames: Array<Omit<Frame, 'offset'>>; unterminated: boolean } {
  const { decoder, out } = collecting(make);
  for (const p of pieces) decoder.push(p);
  const { unterminated } = decoder.end();
  return { frames: out.map(({ event, data }) => ({ event, data })), unterminated };
}

const sse: Make = (sink) => new SseDecoder(sink);
const ndjson: Make = (sink) => new NdjsonDecoder(sink);

/** Split bytes at every position (two pieces), decoding with a streaming TextDecoder. */
function everySplit(bytes: Uint8Array, make: Make) {
  const results = [];
  for (let cut = 0; cut <= bytes.length; cut++) {
    const td = new TextDecoder();
    const pieces = [td.decode(bytes.subarray(0, cut), { stream: true }), td.decode(bytes.subarray(cut), { stream: true }), td.decode()];
    results.push({ cut, ...decodeText(make, pieces) });
  }
  return results;
}

const cases: Array<[string, string, Array<{ event: string | undefined; data: string }>]> = [
  ['LF line ends', 'data: a\n\ndata: b\n\n', [{ event: undefined, data: 'a' }, { event: undefined, data: 'b' }]],
  ['CRLF line ends', 'data: a\r\n\r\ndata: b\r\n\r\n', [{ event: undefined, data: 'a' }, { event: undefined, data: 'b' }]],
  ['CR line ends', 'data: a\r\rdata: b\r\r', [{ event: undefined, data: 'a' }, { event: undefined, data: 'b' }]],
  ['mixed line ends', 'data: a\r\n\ndata: b\r\r\n', [{ event: undefined, data: 'a' }, { event: undefined, data: 'b' }]],
  ['event names', 'event: message_start\ndata: {"x":1}\n\nevent: ping\ndata: {}\n\n', [{ event: 'message_start', data: '{"x":1}' }, { event: 'ping', data: '{}' }]],
  ['multi-line data joins with LF', 'data: line1\ndata: line2\ndata:\n\n', [{ event: undefined, data: 'line1\nline2\n' }]],
  ['no space after colon', 'data:{"a":1}\n\n', [{ event: undefined, data: '{"a":1}' }]],
  ['only one leading space stripped', 'data:  two\n\n', [{ event: undefined, data: ' two' }]],
  ['comments and keep-alives ignored', ': OPENROUTER PROCESSING\n\n: x\ndata: a\n\n', [{ event: undefined, data: 'a' }]],
  ['id and retry ignored', 'id: 7\nretry: 100\ndata: a\n\n', [{ event: undefined, data: 'a' }]],
  ['field without colon', 'data\n\n', [{ event: undefined, data: '' }]],
  ['event with no data is not dispatched', 'event: lonely\n\ndata: a\n\n', [{ event: undefined, data: 'a' }]],
  ['BOM at start dropped', '\uFEFFdata: a\n\n', [{ event: undefined, data: 'a' }]],
  ['unicode payload', 'data: {"t":"héllo 👋 日本"}\n\n', [{ event: undefined, data: '{"t":"héllo 👋 日本"}' }]],
  ['blank lines between events', '\n\n\ndata: a\n\n\n\n', [{ event: undefined, data: 'a' }]],
];

describe('SseDecoder', () => {
  it.each(cases)('%s', (_name, input, want) => {
    expect(decodeText(sse, [input]).frames).toEqual(want);
  });

  it.each(cases)('%s: split at every byte, incl. inside UTF-8 and between CR and LF', (_name, input, want) => {
    for (const r of everySplit(new TextEncoder().encode(input), sse)) {
      expect(r.frames, `cut at ${r.cut}`).toEqual(want);
    }
  });

  it('one character at a time', () => {
    const input = 'event: e\r\ndata: x\r\ndata: y\r\n\r\n: c\r\ndata: z\r\r';
    expect(decodeText(sse, [...input]).frames).toEqual([
      { event: 'e', data: 'x\ny' },
      { event: undefined, data: 'z' },
    ]);
  });

  it('a trailing event without its blank line is delivered and flagged', () => {
    const r = decodeText(sse, ['data: a\n\ndata: [DONE]\n']);
    expect(r.frames).toEqual([{ event: undefined, data: 'a' }, { event: undefined, data: '[DONE]' }]);
    expect(r.unterminated).toBe(true);
  });

  it('a cut inside a line is flagged as unterminated', () => {
    const r = decodeText(sse, ['data: {"a":1}\n\ndata: {"b"']);
    expect(r.unterminated).toBe(true);
    expect(r.frames.at(-1)).toEqual({ event: undefined, data: '{"b"' });
  });

  it('a clean end is not flagged', () => {
    expect(decodeText(sse, ['data: a\n\n']).unterminated).toBe(false);
  });

  it('reports the offset where each event began', () => {
    const { decoder: d, out } = collecting(sse);
    d.push('data: a\n\n: comment\ndata: b');
    d.push('\n\n');
    expect(out.map((f) => f.offset)).toEqual([0, 19]);
  });
});

describe('NdjsonDecoder', () => {
  it.each([
    ['lines', '{"a":1}\n{"b":2}\n', ['{"a":1}', '{"b":2}']],
    ['CRLF and blank lines', '{"a":1}\r\n\r\n{"b":2}\r\n', ['{"a":1}', '{"b":2}']],
    ['last line without newline', '{"a":1}\n{"b":2}', ['{"a":1}', '{"b":2}']],
  ])('%s', (_n, input, want) => {
    for (const r of everySplit(new TextEncoder().encode(input), ndjson)) {
      expect(r.frames.map((f) => f.data), `cut at ${r.cut}`).toEqual(want);
    }
  });
});
