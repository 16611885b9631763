/**
 * Wire events → bytes in the spec's framing: SSE (with `event:` lines where the wire names its
 * events, and the done sentinel last), NDJSON, or AWS event-stream messages; or one JSON array,
 * for a stream asked for without the query that selects the spec's framing (Gemini without alt=sse).
 */
import type { ProviderAdapter } from '../contract/adapter.js';
import type { ServeCodec } from '../contract/serve-codec.js';
import { eventStreamMessage } from './encode-event-stream.js';
import type { WireEvent } from './stream-writer.js';

export interface EventEncoder {
  readonly contentType: string;
  /** The events' bytes, in order. */
  bytes(events: readonly WireEvent[]): Uint8Array;
  /** What follows the last event (`data: [DONE]`); empty when nothing does. */
  end(): Uint8Array;
}

const utf8 = new TextEncoder();
const NOTHING = new Uint8Array(0);

/**
 * The framing a stream request asked for: the spec's own, unless the spec has a stream query
 * (`alt=sse`) that the request's URL lacks and says how such a stream is framed instead.
 */
export function requestedFraming(adapter: ProviderAdapter, serve: ServeCodec, url: URL): 'json-array' | undefined {
  const query = adapter.endpoint.streamQuery;
  if (!query || !serve.streamWithoutQuery) return undefined;
  return Object.entries(query).every(([k, v]) => url.searchParams.get(k) === v) ? undefined : serve.streamWithoutQuery;
}

export function eventEncoder(adapter: ProviderAdapter, framingAsked?: 'json-array'): EventEncoder {
  if (framingAsked === 'json-array') return jsonArray();
  const { framing, doneSentinel, unwrap } = adapter.profile.stream;
  if (framing === 'event-stream') return { contentType: 'application/vnd.amazon.eventstream', bytes: (events) => concat(events.map((e) => eventStreamMessage(e, unwrap))), end: () => NOTHING };
  if (framing === 'ndjson') return { contentType: 'application/x-ndjson', bytes: ndjson, end: () => NOTHING };
  const done = doneSentinel === undefined ? NOTHING : utf8.encode(`data: ${doneSentinel}\n\n`);
  return { contentType: 'text/event-stream', bytes: sse, end: () => done };
}

// One string and its bytes per batch (no array of pieces): these run once per streamed event.
function sse(events: readonly WireEvent[]): Uint8Array {
  let text = '';
  for (const e of events) text += `${e.event === undefined ? '' : `event: ${e.event}\n`}data: ${JSON.stringify(e.data)}\n\n`;
  return utf8.encode(text);
}

function ndjson(events: readonly WireEvent[]): Uint8Array {
  let text = '';
  for (const e of events) text += `${JSON.stringify(e.data)}\n`;
  return utf8.encode(text);
}

/** The events as the elements of one JSON array, written as they come (`[` before the first, `]` at the end). */
function jsonArray(): EventEncoder {
  let opened = false;
  return {
    contentType: 'application/json',
    bytes(events) {
      let text = '';
      for (const e of events) {
        text += `${opened ? '\r\n,' : '['}${JSON.stringify(e.data)}`;
        opened = true;
      }
      return utf8.encode(text);
    },
    end: () => utf8.encode(opened ? ']' : '[]'),
  };
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
