/**
 * A stream written as SSE, framed the way an event-stream spec receives it: each SSE event an
 * AWS event-stream message encoded by the AWS SDK's codec (named by its `event:` line, or for
 * specs that unwrap, a `chunk` whose payload carries the event as base64 with Bedrock's padding
 * field). Lets the fixtures and scripted turns of a wire serve its event-stream deployments.
 */
import type { ProviderAdapter } from '../../runtime/index.js';
import { concat, encodeEvent } from './event-stream-encoder.js';

export function sseEvents(text: string): Array<{ event: string | undefined; data: string }> {
  const out: Array<{ event: string | undefined; data: string }> = [];
  for (const block of text.replace(/\r\n/g, '\n').split(/\n\n+/)) {
    let event: string | undefined;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    if (data.length) out.push({ event, data: data.join('\n') });
  }
  return out;
}

export function asEventStream(sse: string, unwrap: string | undefined): Uint8Array {
  return concat(
    sseEvents(sse)
      .filter((e) => e.data !== '[DONE]')
      .map((e, i) =>
        unwrap
          ? encodeEvent('chunk', { [unwrap]: Buffer.from(e.data, 'utf8').toString('base64'), p: 'abcdefghij'.slice(0, 1 + (i % 10)) })
          : encodeEvent(e.event ?? 'event', JSON.parse(e.data)),
      ),
  );
}

/** The stream body and content type a spec's client gets for a stream written as SSE (or NDJSON). */
export function streamBodyFor(adapter: ProviderAdapter, text: string): { body: Uint8Array; contentType: string } {
  if (adapter.stream.framing === 'event-stream') return { body: asEventStream(text, adapter.stream.unwrap), contentType: 'application/vnd.amazon.eventstream' };
  return { body: new TextEncoder().encode(text), contentType: adapter.stream.framing === 'ndjson' ? 'application/x-ndjson' : 'text/event-stream' };
}
