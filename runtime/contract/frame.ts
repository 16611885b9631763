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

/** A message the service sent instead of an event (AWS event-stream exceptions). */
export type ExceptionSink = (type: string, message: string | undefined, payload: string) => void;

export interface EventStreamOptions {
  provider: string;
  /**
   * A payload that wraps the event as base64 in this JSON field (Bedrock InvokeModel streaming:
   * `{"bytes":"eyJ0eXBlIjoi…"}`): the decoded text is the event, named by the spec's eventKey.
   */
  unwrap?: string | undefined;
}

/** A decoder of binary frames (the AWS event stream): bytes in, events to its sink. */
export interface BinaryFrameDecoder {
  push(bytes: Uint8Array): void;
  end(): { unterminated: boolean };
}
