/**
 * The turn's text, as the segments the wire sent (a text block, a run of text deltas). Text
 * that resumes after a tool call or another non-text part is a new segment, joined to the
 * earlier text with a blank line; segments next to each other (Anthropic splits cited spans
 * into blocks) are joined as they are. Refusal text is shown as text; it only marks the turn
 * as a refusal.
 *
 * Readers whose wire starts text blocks, or sends signatures and phases with its text, call
 * `startText` and `setTextSignature` (kit functions, below) with their assembler; a bundle of
 * wires that do neither leaves them out.
 */
import type { TextMetaOps, TextOps } from '../contract/assembler.js';
import type { Citation, ResponsePart } from '../contract/unified-model.js';
import { missingUse } from '../errors.js';
import type { EventSink, Placed } from '../contract/event-sink.js';
import { isText, TextBuffer } from './text-buffer.js';

const BREAK = '\n\n';

/** What the text functions below read of the assembler (TurnAssembler's text, and its TextMeta unit if supplied). */
interface TextHolder {
  readonly provider: string;
  readonly text: TextOps;
  readonly meta: TextMetaOps | undefined;
}

export interface Segment {
  readonly buffer: TextBuffer;
  readonly placed: Placed;
  /** Put before this segment's text in the joined view (decided at its first text). */
  separator: string | undefined;
  citations?: Citation[];
  signature?: string;
  phase?: string;
  /** The wire item's id, on its first part (Responses message `msg_…`). */
  id?: string;
}

export class TextPart implements TextOps {
  protected readonly segments: Segment[] = [];
  #open: Segment | undefined;
  /** The next text starts a new segment even if nothing came between (a new wire block). */
  protected startPending = false;
  /** Some of the text was a refusal: the finish reason can then become `refusal`. */
  refusal = false;
  readonly #sink: EventSink;

  constructor(sink: EventSink) {
    this.#sink = sink;
  }

  /** A new wire text block begins (its text is a part of its own). */
  start(): void {
    this.startPending = true;
  }

  append(delta: unknown): void {
    if (!isText(delta)) return;
    const seg = this.current();
    let shown = delta;
    if (seg.separator === undefined) {
      seg.separator = this.#separatorFor(seg);
      shown = seg.separator + delta; // the separator is often '' (the turn's first text)
    }
    seg.buffer.push(delta);
    const sink = this.#sink;
    if (sink.emit) sink.events.push({ type: 'text-delta', delta: shown });
  }

  appendRefusal(delta: unknown): void {
    if (!isText(delta)) return;
    this.refusal = true;
    this.append(delta);
  }

  addCitation(c: Citation): void {
    (this.current().citations ??= []).push(c);
  }

  get empty(): boolean {
    return this.segments.every((s) => s.buffer.empty);
  }

  /** The text so far, segments joined; null when there is none. */
  value(): string | null {
    let out = '';
    for (const s of this.segments) if (!s.buffer.empty) out += (s.separator ?? '') + s.buffer.toString();
    return out === '' ? null : out;
  }

  /** Segment `i` as a part (its own text, without the separator). */
  part(i: number): Extract<ResponsePart, { type: 'text' }> {
    const s = this.segments[i]!;
    const out: Extract<ResponsePart, { type: 'text' }> = { type: 'text', text: s.buffer.toString() };
    if (s.citations) out.citations = s.citations.slice();
    return out;
  }

  /** Segments that hold nothing (a block start with no text) are left out of `content`. */
  isBlank(i: number): boolean {
    const s = this.segments[i]!;
    return s.buffer.empty && s.citations === undefined && s.signature === undefined;
  }

  /**
   * The open segment, or a new one when a block starts or another part came since (the open one
   * is kept while nothing but information set aside came after it).
   */
  protected current(): Segment {
    const open = this.#open;
    const sink = this.#sink;
    if (open !== undefined && !this.startPending && sink.lastSolid === open.placed) return open;
    this.startPending = false;
    const segments = this.segments;
    const placed: Placed = { unit: 'text', index: segments.length };
    const seg: Segment = { buffer: new TextBuffer(), placed, separator: undefined };
    segments.push(seg);
    sink.place(placed);
    return (this.#open = seg);
  }

  /** A blank line when earlier text exists and a call or another part came after it. */
  #separatorFor(seg: Segment): string {
    const order = this.#sink.order;
    let between = false;
    for (let i = order.indexOf(seg.placed) - 1; i >= 0; i--) {
      const p = order[i]!;
      if (p.unit === 'text') {
        if (!this.segments[p.index]!.buffer.empty) return between ? BREAK : '';
      } else if (p.unit !== 'thinking' && p.aside !== true) between = true;
    }
    return '';
  }
}

/**
 * A new wire text block begins (its text is a part of its own). With `phase` (a string, or null
 * for none), a new item with that label for its role in the turn (commentary, final answer): the
 * TextMeta unit's; without, a block of the same item. With `id`, the item's id (TextMeta.setItem).
 */
export const startText = (a: TextHolder, phase?: unknown, id?: unknown): void => {
  if (phase !== undefined) metaOf(a).setPhase(phase);
  if (id !== undefined) metaOf(a).setItem(id);
  a.text.start();
};

/** Opaque data the provider needs back with the text (Gemini `thoughtSignature`): the TextMeta unit keeps it. */
export const setTextSignature = (a: TextHolder, signature: unknown): void => {
  if (isText(signature)) metaOf(a).setSignature(signature);
};

const metaOf = (a: TextHolder): TextMetaOps => {
  return a.meta ?? missingUse(a.provider, 'textMeta');
};
