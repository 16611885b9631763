/**
 * What `client.stream()` returns: an AsyncIterable of events with `final()`. Events come from the
 * source in batches (one per network chunk) and are handed out one by one without another
 * generator layer; `final()` alone reads the stream without making event objects at all.
 */
import { StreamError } from '../errors.js';
import { abortError } from '../transport/abort.js';
import type { ChatResponse, StreamEvent, StreamEventOf } from '../contract/unified-model.js';

export type StreamSource = (emitEvents: boolean) => AsyncGenerator<StreamEvent[], void, undefined>;

/** `R`: the response `final()` gives (with a typed `object`, and typed `object-delta` events, when a response schema was asked for). */
export class ChatStream<R extends ChatResponse = ChatResponse> implements AsyncIterable<StreamEventOf<R>> {
  readonly #source: StreamSource;
  readonly #result: () => ChatResponse;
  readonly #provider: string;
  #consumed = false;
  readonly #settled: Promise<ChatResponse>;
  #resolve!: (r: ChatResponse) => void;
  #reject!: (e: unknown) => void;

  readonly #stop: (reason: unknown) => void;
  /** Set by abort(), with its reason: no event goes out after it, buffered ones included. */
  #aborted?: { reason: unknown };

  constructor(provider: string, source: StreamSource, result: () => ChatResponse, stop: (reason: unknown) => void = () => undefined) {
    this.#provider = provider;
    this.#source = source;
    this.#result = result;
    this.#stop = stop;
    this.#settled = new Promise<ChatResponse>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    // final() may never be awaited; that must not surface as an unhandled rejection.
    this.#settled.catch(() => undefined);
  }

  [Symbol.asyncIterator](): AsyncIterator<StreamEventOf<R>> {
    return this.#iterate(true) as AsyncIterator<StreamEventOf<R>>;
  }

  /**
   * The complete ChatResponse, whenever it is asked for: after or during an iteration it waits
   * for that iteration; asked for first, it reads the stream to its end itself, unless an
   * iteration starts right away (in the same tick: `const done = s.final(); for await (…)`).
   */
  async final(): Promise<R> {
    if (!this.#consumed) await Promise.resolve();
    if (!this.#consumed) {
      const it = this.#iterate(false);
      while (!(await it.next()).done);
    }
    return this.#settled as Promise<R>;
  }

  /**
   * The response as assembled from what has been read so far: what final() gives once the stream
   * has ended (a bridge reads it at block boundaries for the fields no event carries).
   */
  snapshot(): ChatResponse {
    return this.#result();
  }

  /** The text as it arrives (the `text-delta` events), for the simplest consumers. Reads the stream. */
  get textStream(): AsyncIterable<string> {
    const events = this;
    return {
      async *[Symbol.asyncIterator]() {
        for await (const e of events) if (e.type === 'text-delta') yield e.delta;
      },
    };
  }

  /**
   * The events as a Web stream of newline-delimited JSON (one event per line), to hand to a
   * `Response` (`new Response(stream.toReadableStream())`). Cancelling it cancels the request.
   */
  toReadableStream(): ReadableStream<Uint8Array> {
    const it = this.#iterate(true);
    const stop = this.#stop;
    const encoder = new TextEncoder();
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        const r = await it.next();
        if (r.done) controller.close();
        else controller.enqueue(encoder.encode(`${JSON.stringify(r.value)}\n`));
      },
      // Stop the request first: a read may be waiting on the network, and return() waits behind it.
      cancel: async (reason) => {
        stop(reason ?? abortError('The stream was cancelled'));
        await it.return?.();
      },
    });
  }

  /** Stops the request: the connection is released, iteration and final() reject with the reason. */
  abort(reason: unknown = abortError('The stream was aborted')): void {
    if (!this.#aborted) {
      this.#aborted = { reason };
      // final() rejects even if nothing reads on (a stream already finished keeps its result).
      this.#reject(reason);
    }
    this.#stop(reason);
  }

  #iterate(emitEvents: boolean): AsyncIterator<StreamEvent> {
    if (this.#consumed) throw this.#error('a stream can be iterated only once');
    this.#consumed = true;
    const gen = this.#source(emitEvents);
    let batch: StreamEvent[] = [];
    let i = 0;
    let finished = false;
    const pull = async (): Promise<IteratorResult<StreamEvent>> => {
      // After abort() the events left are dropped, the source is closed and the reason thrown.
      while (i >= batch.length || this.#aborted) {
        if (finished) return done();
        if (this.#aborted) {
          finished = true;
          await gen.return(undefined);
          throw this.#aborted.reason;
        }
        let r: IteratorResult<StreamEvent[]>;
        try {
          r = await gen.next();
        } catch (error) {
          finished = true;
          this.#reject(error);
          throw error;
        }
        if (r.done) {
          finished = true;
          this.#resolve(this.#result());
          return done();
        }
        batch = r.value;
        i = 0;
      }
      return { done: false, value: batch[i++]! };
    };
    return {
      // An event already read goes out without an async frame of its own (one per event adds up on
      // small events); after abort() every call goes to pull(), which stops.
      next: () => (i < batch.length && !this.#aborted ? Promise.resolve({ done: false, value: batch[i++]! }) : pull()),
      // `break` out of for-await: the body is cancelled and final() says the stream was left.
      return: async (): Promise<IteratorResult<StreamEvent>> => {
        if (!finished) {
          finished = true;
          await gen.return(undefined);
          const error = this.#error('the stream was left before its end');
          error.partial = this.#result();
          this.#reject(error);
        }
        return done();
      },
    };
  }

  #error(reason: string): StreamError {
    return new StreamError({ provider: this.#provider, reason });
  }
}

/** The end of an iteration (a fresh object each time: callers may keep or change it). */
const done = (): IteratorResult<StreamEvent> => {
  return { done: true, value: undefined };
};
