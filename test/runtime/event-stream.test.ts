/**
 * The AWS event-stream decoder against messages encoded by the AWS SDK's codec: every chunking
 * (cuts inside the prelude, the headers, the payload and the CRCs) gives the same events; a bad
 * CRC or a truncated body is a StreamError, never an event; exceptions reach their sink.
 */
import { describe, expect, it } from 'vitest';
import { StreamError } from '../../runtime/errors.js';
import { crc32, EventStreamDecoder } from '../../runtime/framing/decode-event-stream.js';
import { concat, encodeEvent, encodeException, encodeWithEveryHeaderType } from '../helpers/event-stream-encoder.js';

interface Seen {
  events: Array<{ event: string | undefined; data: string; offset: number }>;
  exceptions: Array<{ type: string; message: string | undefined }>;
}

function decode(body: Uint8Array, chunk: number, unwrap?: string): Seen & { unterminated: boolean } {
  const seen: Seen = { events: [], exceptions: [] };
  const d = new EventStreamDecoder(
    (event, data, offset) => seen.events.push({ event, data, offset }),
    (type, message) => seen.exceptions.push({ type, message }),
    { provider: 'test', unwrap },
  );
  for (let i = 0; i < body.length; i += chunk) d.push(body.subarray(i, i + chunk));
  return { ...seen, ...d.end() };
}

const PAYLOADS: Array<[string, unknown]> = [
  ['messageStart', { role: 'assistant' }],
  ['contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Olá, ' } }],
  ['contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'mundo 🌍' } }],
  ['contentBlockStop', { contentBlockIndex: 0 }],
  ['messageStop', { stopReason: 'end_turn' }],
  ['metadata', { usage: { inputTokens: 10, outputTokens: 4, totalTokens: 14 }, metrics: { latencyMs: 120 } }],
];

describe('AWS event-stream decoding', () => {
  it('CRC-32 gives the standard check value, from any offset and length', () => {
    const digits = new TextEncoder().encode('xx123456789yy');
    expect(crc32(digits, 2, 11)).toBe(0xcbf43926);
    expect(crc32(digits, 2, 2)).toBe(0);
    expect(crc32(new TextEncoder().encode('a'), 0, 1)).toBe(0xe8b7be43);
  });

  const messages = PAYLOADS.map(([t, p], i) => (i === 2 ? encodeWithEveryHeaderType(t, p) : encodeEvent(t, p)));
  const body = concat(messages);

  it('every chunk size, from 1 byte to the whole body, gives the same events with their names and offsets', () => {
    const offsets = messages.map((_, i) => messages.slice(0, i).reduce((n, m) => n + m.length, 0));
    const want = PAYLOADS.map(([event, p], i) => ({ event, data: JSON.stringify(p), offset: offsets[i] }));
    for (let chunk = 1; chunk <= body.length; chunk++) {
      const got = decode(body, chunk);
      expect(got.events, `chunk ${chunk}`).toEqual(want);
      expect(got.unterminated).toBe(false);
    }
  });

  it('a body cut anywhere yields the whole messages before the cut and says it ended inside one', () => {
    for (let cut = 1; cut < body.length; cut++) {
      const got = decode(body.subarray(0, cut), 7);
      const whole = messages.filter((_, i) => messages.slice(0, i + 1).reduce((n, m) => n + m.length, 0) <= cut).length;
      expect(got.events.length, `cut at ${cut}`).toBe(whole);
      const boundary = messages.some((_, i) => messages.slice(0, i + 1).reduce((n, m) => n + m.length, 0) === cut);
      expect(got.unterminated, `cut at ${cut}`).toBe(!boundary);
    }
  });

  it('a changed byte in the prelude, the headers, the payload or either CRC is a StreamError naming the check', () => {
    const one = encodeEvent('contentBlockDelta', { delta: { text: 'hi' } });
    const cases: Array<[string, number, RegExp]> = [
      ['total length', 2, /prelude CRC/],
      ['prelude CRC', 9, /prelude CRC/],
      ['headers', 14, /message CRC/],
      ['payload', one.length - 8, /message CRC/],
      ['message CRC', one.length - 1, /message CRC/],
    ];
    for (const [where, at, reason] of cases) {
      const bad = one.slice();
      bad[at] = bad[at]! ^ 0x40;
      let error: unknown;
      try {
        decode(concat([encodeEvent('messageStart', { role: 'assistant' }), bad]), 5);
      } catch (e) {
        error = e;
      }
      expect(error, where).toBeInstanceOf(StreamError);
      expect((error as StreamError).message, where).toMatch(reason);
      expect((error as StreamError).message, where).toContain('corrupt event-stream frame');
    }
  });

  it('a prelude announcing a message over 16 MiB is refused, not buffered', () => {
    const prelude = new Uint8Array(12);
    const view = new DataView(prelude.buffer);
    view.setUint32(0, 32 * 1024 * 1024);
    view.setUint32(4, 0);
    view.setUint32(8, crc32(prelude, 0, 8));
    expect(() => decode(prelude, 12)).toThrow(/over the protocol's limits/);
  });

  it('an exception message goes to the exception sink with its type and message, not to the events', () => {
    const got = decode(concat([encodeEvent('messageStart', { role: 'assistant' }), encodeException('throttlingException', 'Too many requests, please wait.')]), 3);
    expect(got.events.map((e) => e.event)).toEqual(['messageStart']);
    expect(got.exceptions).toEqual([{ type: 'throttlingException', message: 'Too many requests, please wait.' }]);
  });

  it('payloads that wrap the event as base64 (InvokeModel streaming) are unwrapped to the event text', () => {
    const inner = [
      { type: 'message_start', message: { id: 'msg_1', role: 'assistant', content: [] } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Grüße ✓' } },
    ];
    const wrapped = concat(inner.map((e) => encodeEvent('chunk', { bytes: Buffer.from(JSON.stringify(e)).toString('base64') })));
    for (const chunk of [1, 4, 13, wrapped.length]) {
      const got = decode(wrapped, chunk, 'bytes');
      expect(got.events.map((e) => JSON.parse(e.data))).toEqual(inner);
      expect(got.events.every((e) => e.event === undefined)).toBe(true);
    }
  });
});
