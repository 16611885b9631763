/**
 * Where the assembler's units queue StreamEvents: the TurnAssembler itself, read on every push,
 * because `emit` may be switched off after construction (a stream only read to final()). It
 * also keeps the order in which parts began, so `content` lists them in wire order.
 */
import type { StreamEvent } from './unified-model.js';

/** One part's place in the turn: which unit holds it, and its position there. */
export interface Placed {
  readonly unit: 'text' | 'thinking' | 'call' | 'part';
  readonly index: number;
  /**
   * Information beside the turn rather than a step of it (sources, grounding metadata): text
   * on either side of it is one text part.
   */
  aside?: true;
}

export interface EventSink {
  readonly emit: boolean;
  readonly events: StreamEvent[];
  readonly order: Placed[];
  /** The latest placement that is not set aside (what text continues from). */
  readonly lastSolid: Placed | undefined;
  /** Records where a part begins. */
  place(p: Placed): void;
}
