/**
 * AWS event-stream (`application/vnd.amazon.eventstream`): binary messages, each
 *   total length (uint32 BE) · headers length (uint32 BE) · CRC32 of those 8 bytes ·
 *   headers · payload · CRC32 of everything before it
 * (docs/wire-facts.md, "AWS event-stream"). Headers are typed name/value pairs; `:message-type`
 * says whether a message is an `event` (named by `:event-type`), an `exception` (named by
 * `:exception-type`, its payload a JSON `{ message }`) or an `error` (`:error-code`,
 * `:error-message`). Events go to the sink as text, like SSE and NDJSON events; exceptions and
 * errors are the provider's errors. A CRC that does not match is a `StreamError`: a corrupt frame
 * is never read as an event.
 */
import type { EventStreamUnit } from '../contract/codec.js';
import { ProviderError, StreamError } from '../errors.js';
import type { Redact, StreamView } from '../contract/transport.js';
import type { EventStreamOptions, ExceptionSink, FrameSink } from '../contract/frame.js';

const PRELUDE = 12;
/** The largest message and headers section the protocol allows (16 MiB, 128 KiB): a bigger one is corrupt, not buffered. */
const MAX_MESSAGE = 16 * 1024 * 1024;
const MAX_HEADERS = 128 * 1024;
const utf8 = new TextDecoder();

export class EventStreamDecoder {
  #buffer = new Uint8Array(0);
  #used = 0;
  /** Bytes of the stream consumed before the buffer's start (offsets in errors). */
  #base = 0;

  readonly #sink: FrameSink;
  readonly #onException: ExceptionSink;
  readonly #options: EventStreamOptions;

  constructor(sink: FrameSink, onException: ExceptionSink, options: EventStreamOptions) {
    this.#sink = sink;
    this.#onException = onException;
    this.#options = options;
  }

  /** The decoder of a provider's stream: exceptions in it are the provider's errors, typed by their `:exception-type`. */
  static forStream(sink: FrameSink, adapter: StreamView, redact: Redact): EventStreamDecoder {
    const onException: ExceptionSink = (type, message, payload) => {
      throw new ProviderError({ provider: adapter.id, message: redact(message ?? type), type, code: type, body: redact(payload), retryable: false });
    };
    return new EventStreamDecoder(sink, onException, { provider: adapter.id, unwrap: adapter.stream.unwrap });
  }

  push(bytes: Uint8Array): void {
    this.#append(bytes);
    let pos = 0;
    while (this.#used - pos >= PRELUDE) {
      const b = this.#buffer;
      const total = readU32(b, pos);
      const headersLength = readU32(b, pos + 4);
      if (crc32(b, pos, pos + 8) !== readU32(b, pos + 8)) this.#corrupt('prelude CRC does not match', pos);
      if (total < PRELUDE + 4 + headersLength) this.#corrupt(`message length ${total} is shorter than its headers`, pos);
      if (total > MAX_MESSAGE || headersLength > MAX_HEADERS) this.#corrupt(`a message of ${total} bytes (${headersLength} of headers) is over the protocol's limits`, pos);
      if (this.#used - pos < total) break;
      if (crc32(b, pos, pos + total - 4) !== readU32(b, pos + total - 4)) this.#corrupt('message CRC does not match', pos);
      this.#message(b, pos, headersLength, total);
      pos += total;
    }
    if (pos > 0) {
      this.#buffer.copyWithin(0, pos, this.#used);
      this.#used -= pos;
      this.#base += pos;
    }
  }

  end(): { unterminated: boolean } {
    const unterminated = this.#used > 0;
    this.#base += this.#used;
    this.#used = 0;
    return { unterminated };
  }

  #message(b: Uint8Array, start: number, headersLength: number, total: number): void {
    const headers = readHeaders(b, start + PRELUDE, start + PRELUDE + headersLength, () => this.#corrupt('headers run past their length', start));
    const payload = utf8.decode(b.subarray(start + PRELUDE + headersLength, start + total - 4));
    const kind = headers[':message-type'] ?? 'event';
    if (kind === 'exception') {
      const type = headers[':exception-type'] ?? 'exception';
      this.#onException(type, messageOf(payload), payload);
      return;
    }
    if (kind === 'error') {
      this.#onException(headers[':error-code'] ?? 'error', headers[':error-message'], payload);
      return;
    }
    const event = headers[':event-type'];
    if (this.#options.unwrap === undefined) {
      this.#sink(event, payload, this.#base + start, false);
      return;
    }
    this.#sink(undefined, this.#unwrapped(payload, start), this.#base + start, false);
  }

  /** The base64 event inside a wrapping payload, as text. */
  #unwrapped(payload: string, start: number): string {
    let field: unknown;
    try {
      field = (JSON.parse(payload) as Record<string, unknown>)[this.#options.unwrap!];
    } catch {
      this.#corrupt('the payload is not JSON', start);
    }
    if (typeof field !== 'string') this.#corrupt(`the payload has no "${this.#options.unwrap}" field`, start);
    let bin: string;
    try {
      bin = atob(field);
    } catch {
      this.#corrupt(`"${this.#options.unwrap}" is not base64`, start);
    }
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return utf8.decode(bytes);
  }

  #append(bytes: Uint8Array): void {
    if (this.#used + bytes.length > this.#buffer.length) {
      const grown = new Uint8Array(Math.max(this.#buffer.length * 2, this.#used + bytes.length, 4096));
      grown.set(this.#buffer.subarray(0, this.#used));
      this.#buffer = grown;
    }
    this.#buffer.set(bytes, this.#used);
    this.#used += bytes.length;
  }

  #corrupt(reason: string, at: number): never {
    throw new StreamError({ provider: this.#options.provider, reason: `corrupt event-stream frame: ${reason}`, offset: this.#base + at });
  }
}

function readU32(b: Uint8Array, at: number): number {
  return ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
}

/** The headers this protocol's messages are read by; others are stepped over by their size. */
const WANTED = [':message-type', ':event-type', ':exception-type', ':error-code', ':error-message'];
const WANTED_BYTES = WANTED.map((n) => Array.from(n, (c) => c.charCodeAt(0)));
/** The last value seen per wanted header, with its bytes: streams repeat the same few names. */
const lastValue: Array<{ bytes: Uint8Array; text: string } | undefined> = [];

function readHeaders(b: Uint8Array, from: number, to: number, overrun: () => never): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  let p = from;
  while (p < to) {
    const nameLength = b[p]!;
    const wanted = wantedIndex(b, p + 1, nameLength);
    p += 1 + nameLength;
    const type = b[p++]!;
    const fixed = FIXED_SIZE[type];
    if (fixed !== undefined) p += fixed;
    else if (type === 6 || type === 7) {
      const length = (b[p]! << 8) | b[p + 1]!;
      if (p + 2 + length > to) overrun();
      if (type === 7 && wanted >= 0) out[WANTED[wanted]!] = valueOf(wanted, b, p + 2, p + 2 + length);
      p += 2 + length;
    } else overrun();
    if (p > to) overrun();
  }
  return out;
}

function wantedIndex(b: Uint8Array, at: number, length: number): number {
  search: for (let w = 0; w < WANTED_BYTES.length; w++) {
    const name = WANTED_BYTES[w]!;
    if (name.length !== length) continue;
    for (let i = 0; i < length; i++) if (b[at + i] !== name[i]) continue search;
    return w;
  }
  return -1;
}

function valueOf(wanted: number, b: Uint8Array, from: number, to: number): string {
  const last = lastValue[wanted];
  if (last && last.bytes.length === to - from) {
    let same = true;
    for (let i = from; i < to; i++) if (b[i] !== last.bytes[i - from]) (same = false), (i = to);
    if (same) return last.text;
  }
  const text = utf8.decode(b.subarray(from, to));
  lastValue[wanted] = { bytes: b.slice(from, to), text };
  return text;
}

/** Value sizes by header type: true, false, byte, short, int, long, (bytes, string: length-prefixed), timestamp, uuid. */
const FIXED_SIZE: Record<number, number> = { 0: 0, 1: 0, 2: 1, 3: 2, 4: 4, 5: 8, 8: 8, 9: 16 };

function messageOf(payload: string): string | undefined {
  try {
    const m = (JSON.parse(payload) as { message?: unknown; Message?: unknown }) ?? {};
    const text = m.message ?? m.Message;
    return typeof text === 'string' ? text : undefined;
  } catch {
    return undefined;
  }
}

// Four tables of 256 entries, built on first use (slicing-by-4).
let T0: Uint32Array | undefined;
let T1: Uint32Array;
let T2: Uint32Array;
let T3: Uint32Array;

/** CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320) of b[from, to), four bytes a step. */
export function crc32(b: Uint8Array, from: number, to: number): number {
  if (!T0) makeTables();
  const t0 = T0!;
  let c = 0xffffffff;
  let i = from;
  for (; i + 4 <= to; i += 4) {
    c ^= b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24);
    c = T3[c & 0xff]! ^ T2[(c >>> 8) & 0xff]! ^ T1[(c >>> 16) & 0xff]! ^ t0[c >>> 24]!;
  }
  for (; i < to; i++) c = t0[(c ^ b[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function makeTables(): void {
  const t = [new Uint32Array(256), new Uint32Array(256), new Uint32Array(256), new Uint32Array(256)] as const;
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[0][n] = c >>> 0;
  }
  // Table k: the CRC of a byte followed by k zero bytes.
  const [a, b1, b2, b3] = t;
  for (let n = 0; n < 256; n++) {
    b1[n] = (a[a[n]! & 0xff]! ^ (a[n]! >>> 8)) >>> 0;
    b2[n] = (a[b1[n]! & 0xff]! ^ (b1[n]! >>> 8)) >>> 0;
    b3[n] = (a[b2[n]! & 0xff]! ^ (b2[n]! >>> 8)) >>> 0;
  }
  [T0, T1, T2, T3] = t;
}

EventStreamDecoder satisfies EventStreamUnit;
