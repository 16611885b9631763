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
import { StreamError } from '../errors.js';
import type { FrameSink } from './frame.js';

/** A message the service sent instead of an event. */
export type ExceptionSink = (type: string, message: string | undefined, payload: string) => void;

export interface EventStreamOptions {
  provider: string;
  /**
   * A payload that wraps the event as base64 in this JSON field (Bedrock InvokeModel streaming:
   * `{"bytes":"eyJ0eXBlIjoi…"}`): the decoded text is the event, named by the spec's eventKey.
   */
  unwrap?: string | undefined;
}

const PRELUDE = 12;
const utf8 = new TextDecoder();

export class EventStreamDecoder {
  private buffer = new Uint8Array(0);
  private used = 0;
  /** Bytes of the stream consumed before the buffer's start (offsets in errors). */
  private base = 0;

  constructor(
    private readonly sink: FrameSink,
    private readonly onException: ExceptionSink,
    private readonly options: EventStreamOptions,
  ) {}

  push(bytes: Uint8Array): void {
    this.append(bytes);
    let pos = 0;
    while (this.used - pos >= PRELUDE) {
      const b = this.buffer;
      const total = readU32(b, pos);
      const headersLength = readU32(b, pos + 4);
      if (crc32(b, pos, pos + 8) !== readU32(b, pos + 8)) this.corrupt('prelude CRC does not match', pos);
      if (total < PRELUDE + 4 + headersLength) this.corrupt(`message length ${total} is shorter than its headers`, pos);
      if (this.used - pos < total) break;
      if (crc32(b, pos, pos + total - 4) !== readU32(b, pos + total - 4)) this.corrupt('message CRC does not match', pos);
      this.message(b, pos, headersLength, total);
      pos += total;
    }
    if (pos > 0) {
      this.buffer.copyWithin(0, pos, this.used);
      this.used -= pos;
      this.base += pos;
    }
  }

  end(): { unterminated: boolean } {
    const unterminated = this.used > 0;
    this.base += this.used;
    this.used = 0;
    return { unterminated };
  }

  private message(b: Uint8Array, start: number, headersLength: number, total: number): void {
    const headers = readHeaders(b, start + PRELUDE, start + PRELUDE + headersLength, () => this.corrupt('headers run past their length', start));
    const payload = utf8.decode(b.subarray(start + PRELUDE + headersLength, start + total - 4));
    const kind = headers[':message-type'] ?? 'event';
    if (kind === 'exception') {
      const type = headers[':exception-type'] ?? 'exception';
      this.onException(type, messageOf(payload), payload);
      return;
    }
    if (kind === 'error') {
      this.onException(headers[':error-code'] ?? 'error', headers[':error-message'], payload);
      return;
    }
    const event = headers[':event-type'];
    if (this.options.unwrap === undefined) {
      this.sink(event, payload, this.base + start, false);
      return;
    }
    this.sink(undefined, this.unwrapped(payload, start), this.base + start, false);
  }

  /** The base64 event inside a wrapping payload, as text. */
  private unwrapped(payload: string, start: number): string {
    let field: unknown;
    try {
      field = (JSON.parse(payload) as Record<string, unknown>)[this.options.unwrap!];
    } catch {
      this.corrupt('the payload is not JSON', start);
    }
    if (typeof field !== 'string') this.corrupt(`the payload has no "${this.options.unwrap}" field`, start);
    let bin: string;
    try {
      bin = atob(field);
    } catch {
      this.corrupt(`"${this.options.unwrap}" is not base64`, start);
    }
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return utf8.decode(bytes);
  }

  private append(bytes: Uint8Array): void {
    if (this.used + bytes.length > this.buffer.length) {
      const grown = new Uint8Array(Math.max(this.buffer.length * 2, this.used + bytes.length, 4096));
      grown.set(this.buffer.subarray(0, this.used));
      this.buffer = grown;
    }
    this.buffer.set(bytes, this.used);
    this.used += bytes.length;
  }

  private corrupt(reason: string, at: number): never {
    throw new StreamError({ provider: this.options.provider, reason: `corrupt event-stream frame: ${reason}`, offset: this.base + at });
  }
}

function readU32(b: Uint8Array, at: number): number {
  return ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
}

/** The string-valued headers (the only ones this protocol's names use); other types are skipped by their size. */
function readHeaders(b: Uint8Array, from: number, to: number, overrun: () => never): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  let p = from;
  while (p < to) {
    const nameLength = b[p]!;
    const name = utf8.decode(b.subarray(p + 1, p + 1 + nameLength));
    p += 1 + nameLength;
    const type = b[p++]!;
    const fixed = FIXED_SIZE[type];
    if (fixed !== undefined) p += fixed;
    else if (type === 6 || type === 7) {
      const length = (b[p]! << 8) | b[p + 1]!;
      if (type === 7) out[name] = utf8.decode(b.subarray(p + 2, p + 2 + length));
      p += 2 + length;
    } else overrun();
    if (p > to) overrun();
  }
  return out;
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

let table: Uint32Array | undefined;

/** CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320) of b[from, to). */
export function crc32(b: Uint8Array, from: number, to: number): number {
  const t = (table ??= makeTable());
  let c = 0xffffffff;
  for (let i = from; i < to; i++) c = t[(c ^ b[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function makeTable(): Uint32Array {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
}
