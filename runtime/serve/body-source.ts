/**
 * A streamed answer's body as the gateway makes it, chunk by chunk. Where the request came as a
 * web `Request` (Workers, Deno, Bun, a listener of your own) it is the Response's web stream;
 * node's listener, whose requests say `direct`, writes it to the socket itself, without a web
 * stream in between (made and read per request, that costs the first byte on Node:
 * docs/serving.md#upstream-transport).
 */
export interface BodySource {
  /** Hands over the next chunk(s) with `enqueue`, or ends the body with `close`. */
  pull(controller: { enqueue(chunk: Uint8Array): void; close(): void }): Promise<void>;
  /** The caller went away. */
  cancel(): void;
}

const sources = new WeakMap<Response, BodySource>();

/** A Response with this body: a web stream over it, or (`direct`) none, the source kept for the listener. */
export function sourcedResponse(source: BodySource, init: ResponseInit, direct: boolean): Response {
  if (!direct) return new Response(new ReadableStream<Uint8Array>(source), init);
  const res = new Response(null, init);
  sources.set(res, source);
  return res;
}

/** The body the listener writes itself, when the Response was made so. */
export function bodySource(res: Response): BodySource | undefined {
  return sources.get(res);
}

/** A copy of a Response (other headers) that keeps its body source. */
export function withSource(from: Response, to: Response): Response {
  const source = sources.get(from);
  if (source) sources.set(to, source);
  return to;
}
