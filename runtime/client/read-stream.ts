/**
 * The stream path: bytes → text (decoded once, UTF-8 split safe) → frames → JSON → the
 * generated readEvent → assembler events. Everything that arrived is kept: every error after
 * the first event carries `partial`.
 */
import type { ProviderAdapter } from '../contract/adapter.js';
import type { TurnAssembler } from '../assemble/turn-assembler.js';
import { excerptOf, StreamError, TimeoutError, WireforgeError } from '../errors.js';
import { SseDecoder } from '../framing/decode-sse.js';
import type { FrameSink } from '../contract/frame.js';
import type { StreamEvent, Warning } from '../contract/unified-model.js';
import { abortReason } from '../transport/abort.js';
import type { Redact } from '../contract/transport.js';
import { messageOf } from '../transport/redact.js';
import type { Sent } from '../transport/send-request.js';

/** For TextDecoder.decode of a chunk: a character split across chunks waits for the next. */
const STREAMING = { stream: true };

const INSIDE_AN_EVENT = 'the stream ended inside an event';

/** Why a body the spec's readers found nothing in is not a turn (`what`: the response, the stream). */
export const nothingRead = (what: string): string => `${what} has none of the fields this spec reads (no content, no finish reason)`;

export interface StreamContext {
  adapter: ProviderAdapter;
  sent: Sent;
  assembler: TurnAssembler;
  warnings: Warning[];
  idleTimeoutMs: number;
  signal: AbortSignal | undefined;
  redact: Redact;
}

/** Yields the events of each network chunk as one batch (nothing per event but the events themselves). */
export async function* readStream(c: StreamContext): AsyncGenerator<StreamEvent[], void, undefined> {
  const { adapter, assembler: a, signal } = c;
  const broken = (reason: string) => new StreamError({ provider: adapter.id, reason });
  const body = c.sent.response.body;
  if (!body) throw broken('the response has no body');
  const onFrame = frameHandler(c);
  // NDJSON comes with the adapters that stream it (defineAdapter checks it is there).
  const framer = framerFor(c, onFrame);
  let started = false;
  let finished = false;
  let drained = false;
  const watch = watchIdle(body, c);
  /** The events since the last batch, led by `start` when they are the first (or `last` is), and closed by the usage if any came. */
  const queued = (last?: boolean): StreamEvent[] => {
    // Nothing more is delivered once the caller has aborted.
    if (signal?.aborted) throw abortReason(signal);
    if (!a.emit) return [];
    const out = a.events.splice(0);
    a.usage.flush(out);
    if (!started && (last || out.length || a.id !== undefined)) {
      started = true;
      out.unshift({ type: 'start', id: a.id, model: a.model, warnings: c.warnings });
    }
    return out;
  };
  try {
    let sawBytes = false;
    while (!a.ended) {
      const chunk = await watch.read();
      if (chunk.done) {
        drained = true;
        break;
      }
      sawBytes ||= chunk.value.byteLength > 0;
      framer.push(chunk.value);
      const batch = queued();
      if (batch.length) yield batch;
    }
    if (!a.ended) {
      const { unterminated } = framer.end();
      const batch = queued();
      if (batch.length) yield batch;
      if (!sawBytes) throw broken('the stream ended without sending any event');
      const complete = a.ended || (adapter.stream.endsOnClose && a.hasFinishReason);
      if (!complete) throw broken(unterminated ? INSIDE_AN_EVENT : 'the stream ended before its terminal event');
    }
    if (a.isEmpty) throw broken(nothingRead('the stream'));
    a.closeAll();
    const last = queued(true);
    finished = true;
    if (a.emit) last.push(a.finishEvent());
    if (last.length) yield last;
  } catch (error) {
    // What the same read gave before the error (text, then an error event) is handed out first.
    const rest = queued();
    if (rest.length) yield rest;
    throw withPartial(error, c);
  } finally {
    watch.stop();
    c.sent.dispose();
    // Stopping early (break, abort, error) cancels the body, and so does a terminal event the
    // server has not closed after: the connection is released now, and nothing outlives the turn.
    if (!finished || !drained) await watch.cancel();
  }
}

/** Bytes in, framed events out: text framings decode UTF-8 once (split-safe); event-stream frames are binary. */
const framerFor = (c: StreamContext, onFrame: FrameSink): { push(bytes: Uint8Array): void; end(): { unterminated: boolean } } => {
  const { adapter } = c;
  const { framing } = adapter.stream;
  if (framing === 'event-stream') return adapter.codec.uses!.eventStream!.forStream(onFrame, adapter, c.redact);
  const text = new TextDecoder();
  const framer = framing === 'sse' ? new SseDecoder(onFrame) : new adapter.codec.uses!.ndjson!(onFrame);
  return {
    push: (bytes) => framer.push(text.decode(bytes, STREAMING)),
    end: () => {
      framer.push(text.decode());
      return framer.end();
    },
  };
};

/** Each framed event: the done sentinel, or JSON into the generated readEvent. */
const frameHandler = (c: StreamContext): FrameSink => {
  const { adapter, assembler: a } = c;
  const sentinel = adapter.stream.doneSentinel;
  return (event, data, offset, unterminated) => {
    if (a.ended) return;
    if (data === sentinel) {
      a.end();
      return;
    }
    let payload: unknown;
    try {
      payload = JSON.parse(data);
    } catch {
      throw new StreamError({
        provider: adapter.id,
        reason: unterminated ? INSIDE_AN_EVENT : 'malformed JSON in an event',
        event,
        offset,
        excerpt: c.redact(excerptOf(data)),
        // No `cause`: JSON.parse's message quotes the payload, which may echo the key.
      });
    }
    adapter.readEvent(a, payload as never, event);
  };
};

/** A whole body as text, each read bounded by the idle timeout (a stalled blocking body fails too). */
export const readBodyText = async (c: Pick<StreamContext, 'adapter' | 'sent' | 'idleTimeoutMs'>): Promise<string> => {
  const body = c.sent.response.body;
  if (!body) return '';
  const text = new TextDecoder();
  let out = '';
  let done = false;
  const watch = watchIdle(body, c);
  try {
    for (;;) {
      const chunk = await watch.read();
      if (chunk.done) break;
      out += text.decode(chunk.value, STREAMING);
    }
    out += text.decode();
    done = true;
    return out;
  } finally {
    watch.stop();
    if (!done) await watch.cancel();
  }
};

/**
 * A body's reader under the idle timeout, kept by one timer per body rather than one per read:
 * each chunk only notes the time, and the timer re-arms itself for what is left until silence
 * lasts too long.
 */
interface IdleWatch {
  /** One read, bounded by the idle timeout. */
  read(): Promise<ReadableStreamReadResult<Uint8Array>>;
  /** Stop the timer (the body is done with: its end, an early exit, an error). */
  stop(): void;
  /** Cancel the body (released early); a failure to is nothing to report. */
  cancel(reason?: unknown): Promise<void>;
}

const watchIdle = (body: ReadableStream<Uint8Array>, c: Pick<StreamContext, 'adapter' | 'sent' | 'idleTimeoutMs'>): IdleWatch => {
  const reader = body.getReader();
  const cancel = (reason?: unknown) => reader.cancel(reason).catch(() => undefined);
  const ms = c.idleTimeoutMs;
  let last = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** Set once silence lasted too long. */
  let timedOut: TimeoutError | undefined;
  const arm = (wait: number): void => {
    timer = setTimeout(() => {
      const left = ms - (Date.now() - last);
      if (left > 0) return arm(left);
      const error = (timedOut = new TimeoutError(c.adapter.id, 'idle', ms));
      c.sent.abort(error);
      // Also end a pending read when the transport ignores the abort (injected fetches).
      void cancel(error);
    }, wait);
  };
  const stop = () => clearTimeout(timer);
  arm(ms);
  return {
    stop,
    cancel,
    async read() {
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        result = await reader.read();
      } catch (error) {
        stop();
        throw timedOut ?? error;
      }
      if (timedOut) throw timedOut;
      if (result.done) stop();
      else last = Date.now();
      return result;
    },
  };
};

const withPartial = (error: unknown, c: StreamContext): unknown => {
  if (c.signal?.aborted) return abortReason(c.signal);
  // The transport's own text may quote anything, a key included.
  const e =
    error instanceof WireforgeError
      ? error
      : new StreamError({ provider: c.adapter.id, reason: `reading the stream failed: ${c.redact(messageOf(error))}`, cause: error });
  if (e.partial === undefined) e.partial = c.assembler.result();
  return e;
};
