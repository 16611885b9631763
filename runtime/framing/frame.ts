/** What a framing decoder hands on for each event, before JSON parsing. */

/**
 * Called once per framed event (an SSE event with data, or one NDJSON line). `event` is the SSE
 * event name (undefined without an `event:` line, and for NDJSON); `offset` is where the event
 * began in the decoded text; `unterminated` marks a last event the stream cut before its end.
 * Handing events to a callback, rather than collecting objects, keeps the hot path allocation-free.
 */
export type FrameSink = (event: string | undefined, data: string, offset: number, unterminated: boolean) => void;

export interface FrameDecoder {
  /** Feed decoded text; each complete event goes to the sink. */
  push(text: string): void;
  /** End of input: a trailing event without its terminator goes to the sink, flagged. */
  end(): { unterminated: boolean };
}
