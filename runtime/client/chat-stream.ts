/** What `client.stream()` returns: an AsyncIterable of events with `final()`. */
import { StreamError } from '../errors.js';
import type { ChatResponse, StreamEvent } from '../types.js';

export class ChatStream implements AsyncIterable<StreamEvent> {
  private readonly source: () => AsyncGenerator<StreamEvent, void, undefined>;
  private readonly result: () => ChatResponse;
  private readonly provider: string;
  private consumed = false;
  private done = false;
  private settled: Promise<ChatResponse>;
  private settle!: { resolve: (r: ChatResponse) => void; reject: (e: unknown) => void };

  constructor(provider: string, source: () => AsyncGenerator<StreamEvent, void, undefined>, result: () => ChatResponse) {
    this.provider = provider;
    this.source = source;
    this.result = result;
    this.settled = new Promise<ChatResponse>((resolve, reject) => {
      this.settle = { resolve, reject };
    });
    // final() may never be awaited; that must not surface as an unhandled rejection.
    this.settled.catch(() => undefined);
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<StreamEvent, void, undefined> {
    if (this.consumed) throw new StreamError({ provider: this.provider, reason: 'a stream can be iterated only once' });
    this.consumed = true;
    try {
      for await (const event of this.source()) yield event;
      this.done = true;
      this.settle.resolve(this.result());
    } catch (error) {
      this.settle.reject(error);
      throw error;
    } finally {
      if (!this.done) {
        const error = new StreamError({ provider: this.provider, reason: 'the stream was left before its end' });
        error.partial = this.result();
        this.settle.reject(error);
      }
    }
  }

  /** The complete ChatResponse: consumes the stream if nobody iterates it. */
  async final(): Promise<ChatResponse> {
    if (!this.consumed) for await (const _ of this) void _;
    return this.settled;
  }
}
