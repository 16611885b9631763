/** The turn's usage, kept raw (as the wire sent it) and mapped by the spec when read or emitted. */
import type { Usage } from '../contract/unified-model.js';
import { isObject } from '../wire/read-path.js';
import type { EventSink } from '../contract/event-sink.js';

export class UsageState {
  raw: Record<string, unknown> | undefined;
  /** Kept whole so mapUsage is called as a method of the rules, as before the split. */
  readonly #rules: { mapUsage(raw: Record<string, unknown>): Usage };
  readonly #sink: EventSink;

  constructor(rules: { mapUsage(raw: Record<string, unknown>): Usage }, sink: EventSink) {
    this.#rules = rules;
    this.#sink = sink;
  }

  /** Replace the raw usage object (a snapshot). */
  set(raw: unknown): void {
    if (!isObject(raw)) return;
    this.raw = raw;
    const sink = this.#sink;
    if (sink.emit) sink.events.push({ type: 'usage', usage: this.#rules.mapUsage(raw) });
  }

  mapped(): Usage | null {
    return this.raw ? this.#rules.mapUsage(this.raw) : null;
  }
}
