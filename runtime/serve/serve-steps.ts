/** The steps of a served stream, in the order a turn passes them (docs/serving.md#stream-steps). */
import type { ServeStep } from '../contract/serve-codec.js';

export const SERVE_STEPS = [
  'start',
  'textStart',
  'textDelta',
  'textEnd',
  'thinkingStart',
  'thinkingText',
  'thinkingDelta',
  'thinkingSignature',
  'thinkingEnd',
  'part',
  'toolCallStart',
  'toolCallDelta',
  'toolCallEnd',
  'toolCall',
  'finish',
  'end',
  // Not a step of a turn: what an error in the middle of the stream writes.
  'error',
] as const satisfies readonly ServeStep[];

// Every step of the contract is listed here: one added there alone fails to compile.
true satisfies [Exclude<ServeStep, (typeof SERVE_STEPS)[number]>] extends [never] ? true : never;
