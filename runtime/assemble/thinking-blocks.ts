/**
 * The turn's reasoning, as blocks. Fields that arrive with no block open start one, so a wire
 * that sends a signature or id before any text still keeps it.
 */
import type { ThinkingBlocksUnit } from '../contract/assembler.js';
import type { ThinkingPart } from '../contract/unified-model.js';
import type { EventSink } from '../contract/event-sink.js';
import { TextBuffer } from './text-buffer.js';

export class ThinkingBlocks {
  readonly #blocks: ThinkingPart[] = [];
  /** The text of each block, by position in `blocks`; set on the parts when read. */
  readonly #texts: TextBuffer[] = [];
  #open: ThinkingPart | undefined;
  #openText: TextBuffer | undefined;
  /** Separator owed before the next text, if the open block already has text. */
  #pendingBreak: string | undefined;
  /** Blocks the wire addresses by a key (OpenRouter `reasoning_details[].index`), by position in `blocks`. */
  readonly #byKey = new Map<unknown, number>();
  readonly #sink: EventSink;

  constructor(sink: EventSink) {
    this.#sink = sink;
  }

  start(id?: unknown): ThinkingPart {
    const part: ThinkingPart = { text: '' };
    if (typeof id === 'string') part.id = id;
    this.#sink.place({ unit: 'thinking', index: this.#blocks.length });
    this.#blocks.push(part);
    this.#texts.push((this.#openText = new TextBuffer()));
    this.#open = part;
    this.#pendingBreak = undefined;
    return part;
  }

  /** Makes the block with this key the open one, creating it the first time the key is seen. */
  select(key: unknown): void {
    if (key === undefined || key === null) return;
    const at = this.#byKey.get(key);
    if (at !== undefined) {
      this.#open = this.#blocks[at];
      this.#openText = this.#texts[at];
      this.#pendingBreak = undefined;
    } else {
      this.start();
      this.#byKey.set(key, this.#blocks.length - 1);
    }
  }

  setId(id: unknown): void {
    if (typeof id !== 'string' || id === '') return;
    (this.#open ?? this.start()).id = id;
  }

  /** Summary text: appended like thinking text, and the block is marked as a summary. */
  appendSummary(delta: unknown): void {
    if (typeof delta !== 'string') return;
    (this.#open ?? this.start()).summary = true;
    this.append(delta);
  }

  setFormat(format: unknown): void {
    if (typeof format !== 'string' || format === '') return;
    (this.#open ?? this.start()).format = format;
  }

  /** A paragraph break in the open block (e.g. a new summary part). */
  breakText(separator: string): void {
    this.#pendingBreak = separator;
  }

  append(delta: unknown): void {
    if (typeof delta !== 'string' || delta === '') return;
    if (this.#open === undefined) this.start();
    const buffer = this.#openText!;
    const text = this.#pendingBreak !== undefined && !buffer.empty ? this.#pendingBreak + delta : delta;
    this.#pendingBreak = undefined;
    buffer.push(text);
    const sink = this.#sink;
    if (sink.emit) sink.events.push({ type: 'thinking-delta', delta: text });
  }

  /** Signatures are opaque and replace any earlier value (a later event carries the final one). */
  setSignature(signature: unknown): void {
    if (typeof signature !== 'string' || signature === '') return;
    (this.#open ?? this.start()).signature = signature;
    const sink = this.#sink;
    if (sink.emit) sink.events.push({ type: 'thinking-signature', signature });
  }

  setRedacted(data: unknown): void {
    if (typeof data !== 'string') return;
    (this.#open ?? this.start()).redacted = data;
  }

  get count(): number {
    return this.#blocks.length;
  }

  /** The blocks with their text joined, as copies: a result never shares the parts still being filled. */
  parts(): ThinkingPart[] {
    return this.#blocks.map((t, i) => ({ ...t, text: this.#texts[i]!.toString() }));
  }
}

ThinkingBlocks satisfies ThinkingBlocksUnit;
