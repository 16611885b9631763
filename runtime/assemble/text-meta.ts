/**
 * Text with what some wires send beside it: a signature the provider needs back (Gemini
 * `thoughtSignature` on a text part) and the phase of the item it belongs to (Responses message
 * `phase`). A unit: the generated module of a spec whose text rules read either supplies it
 * (`codec.uses.textMeta`), so other bundles leave it out.
 */
import type { TextMetaUnit } from '../contract/assembler.js';
import type { EventSink } from '../contract/event-sink.js';
import type { ResponsePart } from '../contract/unified-model.js';
import { isText } from './text-buffer.js';
import { TextPart, type Segment } from './text-part.js';

export class TextMeta extends TextPart {
  /** The label of the item the text belongs to, for each of its blocks. */
  #phase: string | undefined;
  /** The part an item id opened, while it has no text: the item's first block of text fills it. */
  #item: Segment | undefined;
  readonly #events: EventSink;

  constructor(sink: EventSink) {
    super(sink);
    this.#events = sink;
  }

  /**
   * A new item with this id (Responses message `msg_…`): its part is placed now, so an item
   * without text (an empty message after reasoning) is still a part of the turn and goes back.
   */
  setItem(id: unknown): void {
    if (!isText(id)) return;
    this.startPending = true;
    const seg = this.current();
    seg.id = id;
    this.#item = seg;
  }

  /** A block of the item whose part is still empty fills that part rather than opening another. */
  override start(): void {
    const item = this.#item;
    if (item !== undefined && item.buffer.empty && this.#events.lastSolid === item.placed) return;
    super.start();
  }

  /** An item's part stays in `content` without text: it is what goes back with the id. */
  override isBlank(i: number): boolean {
    return super.isBlank(i) && this.segments[i]!.id === undefined;
  }

  /** The item the next text blocks belong to (`startText(a, phase)`): a label, or none for null. */
  setPhase(phase: unknown): void {
    this.#phase = typeof phase === 'string' && phase !== '' ? phase : undefined;
  }

  /** Opaque data the provider needs back with this text (`setTextSignature(a, …)`). */
  setSignature(signature: string): void {
    // A signature on an empty part right after the text belongs to that text; after another part,
    // or where that text is signed already (each signed wire part goes back as it came), a part of its own.
    let seg = this.current();
    if (seg.signature !== undefined) {
      this.startPending = true;
      seg = this.current();
    }
    seg.signature = signature;
  }

  override part(i: number): Extract<ResponsePart, { type: 'text' }> {
    const out = super.part(i);
    const s = this.segments[i]!;
    if (s.signature !== undefined) out.signature = s.signature;
    if (s.phase !== undefined) out.phase = s.phase;
    if (s.id !== undefined) out.id = s.id;
    return out;
  }

  protected override current(): Segment {
    const made = this.segments.length;
    const seg = super.current();
    // A new segment takes the phase of its item.
    if (this.segments.length > made && this.#phase !== undefined) seg.phase = this.#phase;
    return seg;
  }
}

TextMeta satisfies TextMetaUnit;
