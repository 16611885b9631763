/**
 * What the gateway's handler reads of a request. A web `Request` has all of it; node's listener
 * (node/listen.ts) gives the gateway a lighter object over node:http's own request instead: no
 * body stream, no second abort signal, no copied headers (building a `Request` on Node costs
 * tens of microseconds per request, most of it before the first byte; docs/serving.md#upstream-transport).
 */
export interface ServedRequest {
  readonly method: string;
  /** Absolute: the handler reads its path and query. */
  readonly url: string;
  readonly headers: { get(name: string): string | null; has(name: string): boolean };
  /** Aborts when the caller goes away. */
  readonly signal: AbortSignal;
  readonly body: ReadableStream<Uint8Array> | null;
  text(): Promise<string>;
  /** The listener writes a streamed answer's body source itself (node's: body-source.ts); a web Request has no such member. */
  readonly direct?: boolean;
}
