/**
 * AWS event-stream messages encoded by an independent implementation (the AWS SDK's own codec,
 * a dev dependency), so the runtime's decoder is never judged by an encoder written beside it.
 */
import { EventStreamCodec, Int64 } from '@smithy/core/event-streams';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';

const codec = new EventStreamCodec(toUtf8, fromUtf8);

/** An `event` message named `eventType` with a JSON payload (plus the headers services add). */
export function encodeEvent(eventType: string, payload: unknown): Uint8Array {
  return codec.encode({
    headers: {
      ':message-type': { type: 'string', value: 'event' },
      ':event-type': { type: 'string', value: eventType },
      ':content-type': { type: 'string', value: 'application/json' },
    },
    body: fromUtf8(JSON.stringify(payload)),
  });
}

/** An `exception` message (`:exception-type`, payload `{ message }`). */
export function encodeException(exceptionType: string, message: string): Uint8Array {
  return codec.encode({
    headers: {
      ':message-type': { type: 'string', value: 'exception' },
      ':exception-type': { type: 'string', value: exceptionType },
      ':content-type': { type: 'string', value: 'application/json' },
    },
    body: fromUtf8(JSON.stringify({ message })),
  });
}

/** A message with one header of every type, to prove the decoder steps over those it does not read. */
export function encodeWithEveryHeaderType(eventType: string, payload: unknown): Uint8Array {
  return codec.encode({
    headers: {
      flag: { type: 'boolean', value: true },
      off: { type: 'boolean', value: false },
      b: { type: 'byte', value: 7 },
      s: { type: 'short', value: 513 },
      i: { type: 'integer', value: 70000 },
      l: { type: 'long', value: Int64.fromNumber(1234567890123) },
      bin: { type: 'binary', value: new Uint8Array([0, 1, 2, 255]) },
      ':message-type': { type: 'string', value: 'event' },
      ':event-type': { type: 'string', value: eventType },
      at: { type: 'timestamp', value: new Date(1_700_000_000_000) },
      id: { type: 'uuid', value: '123e4567-e89b-12d3-a456-426614174000' },
    },
    body: fromUtf8(JSON.stringify(payload)),
  });
}

/** Messages concatenated into one body. */
export function concat(messages: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(messages.reduce((n, m) => n + m.length, 0));
  let at = 0;
  for (const m of messages) {
    out.set(m, at);
    at += m.length;
  }
  return out;
}
