/** One framed event, before JSON parsing: SSE `event:`/`data:` or one NDJSON line. */
export interface Frame {
  /** SSE event name; undefined when the event had no `event:` line (and for NDJSON). */
  event: string | undefined;
  data: string;
  /** Character offset in the decoded stream where the event began. */
  offset: number;
}

export interface FrameDecoder {
  /** Feed decoded text; complete frames are appended to `out`. */
  push(text: string, out: Frame[]): void;
  /** End of input: a trailing frame without its terminator is appended and reported. */
  end(out: Frame[]): { unterminated: boolean };
}
