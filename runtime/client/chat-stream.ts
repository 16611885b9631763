/**
 * What `client.stream()` returns: an AsyncIterable of events with `final()`. Events come from the
 * source in batches (one per network chunk) and are handed out one by one without another
 * generator layer; `final()` alone reads the stream without making event objects at all.
 */
import { StreamError } from '../errors.js';
import type { ChatResponse, StreamEvent } from '../types.js';

export type StreamSource = (emitEvents: boolean) => AsyncGenerator<StreamEvent[], void, undefined>;

export class ChatStream implements AsyncIterable<StreamEvent> {
  private readonly source: StreamSource;
  private readonly result: () => ChatResponse;
  private readonly provider: string;
  private consumed = false;
  private readonly settled: Promise<ChatResponse>;
  private settle!: { resolve: (r: ChatResponse) => void; reject: (e: unknown) => void };

  constructor(provider: string, source: StreamSource, result: () => ChatResponse) {
    this.provider = provider;
    this.source = source;
    this.result = result;
    this.settled = new Promise<ChatResponse>((resolve, reject) => {
      this.settle = { resolve, reject };
    });
    // final() may never be awaited; that must not surface as an unhandled rejection.
    this.settled.catch(() => undefined);
  }

  [Symbol.asyncIterator](): AsyncIterator<StreamEvent> {
    return this.iterate(true);
  }

  /** The complete ChatResponse: reads the stream to its end if nobody iterates it. */
  async final(): Promise<ChatResponse> {
    if (!this.consumed) {
      const it = this.iterate(false);
      while (!(await it.next()).done);
    }
    return this.settled;
  }

  private iterate(emitEvents: boolean): AsyncIterator<StreamEvent> {
    if (this.consumed) throw new StreamError({ provider: this.provider, reason: 'a stream can be iterated only once' });
    this.consumed = true;
    const gen = this.source(emitEvents);
    let batch: StreamEvent[] = [];
    let i = 0;
    let finished = false;
    const fail = (error: unknown) => {
      finished = true;
      this.settle.reject(error);
    };
    return {
      next: async (): Promise<IteratorResult<StreamEvent>> => {
        while (i >= batch.length) {
          if (finished) return { done: true, value: undefined };
          let r: IteratorResult<StreamEvent[]>;
          try {
            r = await gen.next();
          } catch (error) {
            fail(error);
            throw error;
          }
          if (r.done) {
            finished = true;
            this.settle.resolve(this.result());
            return { done: true, value: undefined };
          }
          batch = r.value;
          i = 0;
        }
        return { done: false, value: batch[i++]! };
      },
      // `break` out of for-await: the body is cancelled and final() says the stream was left.
      return: async (): Promise<IteratorResult<StreamEvent>> => {
        if (!finished) {
          finished = true;
          await gen.return(undefined);
          const error = new StreamError({ provider: this.provider, reason: 'the stream was left before its end' });
          error.partial = this.result();
          this.settle.reject(error);
        }
        return { done: true, value: undefined };
      },
    };
  }
}
