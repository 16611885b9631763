/**
 * Wire events → bytes in the spec's framing: SSE (with `event:` lines where the wire names its
 * events, and the done sentinel last), or NDJSON. AWS event-stream is not served yet.
 */
import type { ProviderAdapter } from '../adapter.js';
import { WireforgeError } from '../errors.js';
import type { WireEvent } from './stream-writer.js';

export interface EventEncoder {
  readonly contentType: string;
  encode(e: WireEvent): string;
  /** What follows the last event (`data: [DONE]`), or ''. */
  end(): string;
}

export function eventEncoder(adapter: ProviderAdapter): EventEncoder {
  const { framing, doneSentinel } = adapter.profile.stream;
  if (framing === 'ndjson') return { contentType: 'application/x-ndjson', encode: (e) => `${JSON.stringify(e.data)}\n`, end: () => '' };
  if (framing === 'sse') {
    return {
      contentType: 'text/event-stream',
      encode: (e) => `${e.event === undefined ? '' : `event: ${e.event}\n`}data: ${JSON.stringify(e.data)}\n\n`,
      end: () => (doneSentinel === undefined ? '' : `data: ${doneSentinel}\n\n`),
    };
  }
  throw new WireforgeError(`spec "${adapter.id}" streams ${framing} frames, which the serve runtime does not write yet (docs/serving.md)`, { provider: adapter.id });
}
