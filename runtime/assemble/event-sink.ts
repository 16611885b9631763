/**
 * Where the assembler's units queue StreamEvents: the TurnAssembler itself, read on every push,
 * because `emit` may be switched off after construction (a stream only read to final()).
 */
import type { StreamEvent } from '../types.js';

export interface EventSink {
  readonly emit: boolean;
  readonly events: StreamEvent[];
}
