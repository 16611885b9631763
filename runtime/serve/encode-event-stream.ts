/**
 * Wire events as AWS event-stream messages (docs/wire-facts.md#aws-event-stream): prelude (total
 * and headers length, CRC-32), string headers (`:event-type`, `:content-type`, `:message-type`),
 * the JSON payload, and the message CRC-32. With `unwrap` (Bedrock InvokeModel), each event goes
 * base64-encoded inside `{"<field>": …}` as a `chunk` event. An error is an `exception` message.
 */
import { crc32 } from '../framing/decode-event-stream.js';
import type { WireEvent } from './stream-writer.js';

const utf8 = new TextEncoder();

export function eventStreamMessage(e: WireEvent, unwrap: string | undefined): Uint8Array {
  if (e.exception !== undefined) return message({ ':message-type': 'exception', ':exception-type': e.exception, ':content-type': 'application/json' }, utf8.encode(JSON.stringify(e.data)));
  const json = JSON.stringify(e.data);
  if (unwrap !== undefined) return message({ ':message-type': 'event', ':event-type': 'chunk', ':content-type': 'application/json' }, utf8.encode(JSON.stringify({ [unwrap]: base64(utf8.encode(json)) })));
  return message({ ':message-type': 'event', ':event-type': e.event ?? 'event', ':content-type': 'application/json' }, utf8.encode(json));
}

function message(headers: Record<string, string>, payload: Uint8Array): Uint8Array {
  const encoded = Object.entries(headers).map(([k, v]) => [utf8.encode(k), utf8.encode(v)] as const);
  // Each header: name length (1 byte), name, type 7 (string), value length (2 bytes), value.
  const headersLength = encoded.reduce((n, [k, v]) => n + 1 + k.length + 1 + 2 + v.length, 0);
  const total = 12 + headersLength + payload.length + 4;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, total);
  view.setUint32(4, headersLength);
  view.setUint32(8, crc32(out, 0, 8));
  let at = 12;
  for (const [k, v] of encoded) {
    out[at++] = k.length;
    out.set(k, at);
    at += k.length;
    out[at++] = 7;
    view.setUint16(at, v.length);
    at += 2;
    out.set(v, at);
    at += v.length;
  }
  out.set(payload, at);
  at += payload.length;
  view.setUint32(at, crc32(out, 0, at));
  return out;
}

function base64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]!);
  return btoa(s);
}
