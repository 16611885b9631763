/** The turn's text. Refusal text is shown as text; it only marks the turn as a refusal. */
import type { EventSink } from './event-sink.js';
import { TextBuffer } from './text-buffer.js';

export class TextPart {
  private readonly text = new TextBuffer();
  /** Some of the text was a refusal: the finish reason can then become `refusal`. */
  refusal = false;
  private readonly sink: EventSink;

  constructor(sink: EventSink) {
    this.sink = sink;
  }

  append(delta: unknown): void {
    if (typeof delta !== 'string' || delta === '') return;
    this.text.push(delta);
    const sink = this.sink;
    if (sink.emit) sink.events.push({ type: 'text-delta', delta });
  }

  appendRefusal(delta: unknown): void {
    if (typeof delta !== 'string' || delta === '') return;
    this.refusal = true;
    this.append(delta);
  }

  get empty(): boolean {
    return this.text.empty;
  }

  /** The text so far; null when there is none. */
  value(): string | null {
    const joined = this.text.toString();
    return joined === '' ? null : joined;
  }
}
