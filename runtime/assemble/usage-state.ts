/**
 * The turn's usage, kept raw (as the wire sent it) and mapped by the spec when read or handed
 * out. A stream hands out one `usage` event per batch of events (what one read of the body
 * gave), not one per chunk: wires that repeat a running snapshot on every chunk (Gemini) would
 * otherwise map it and make an event for each, doubling the events of a text stream.
 */
import type { StreamEvent, Usage } from '../contract/unified-model.js';
import { isObject } from '../wire/read-path.js';
import type { EventSink } from '../contract/event-sink.js';

export class UsageState {
  raw: Record<string, unknown> | undefined;
  /** Usage arrived since the last batch was handed out (streams that make events only). */
  #fresh: boolean | undefined;
  /** Kept whole so mapUsage is called as a method of the rules, as before the split. */
  readonly #rules: { mapUsage(raw: Record<string, unknown>): Usage };
  readonly #sink: EventSink;

  constructor(rules: { mapUsage(raw: Record<string, unknown>): Usage }, sink: EventSink) {
    this.#rules = rules;
    this.#sink = sink;
  }

  /** Replace the raw usage object (a snapshot); mapped later, once per batch. */
  set(raw: unknown): void {
    if (!isObject(raw)) return;
    this.raw = raw;
    this.#fresh = this.#sink.emit;
  }

  /** The batch's `usage` event, last in it: the latest usage, mapped once, when any arrived since the last. */
  flush(batch: StreamEvent[]): void {
    if (!this.#fresh) return;
    this.#fresh = false;
    batch.push({ type: 'usage', usage: this.mapped()! });
  }

  mapped(): Usage | null {
    return this.raw ? this.#rules.mapUsage(this.raw) : null;
  }
}
