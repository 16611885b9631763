/** The steps of a served stream, in the order a turn passes them (docs/serving.md#stream-steps). */
export const SERVE_STEPS = [
  'start',
  'textStart',
  'textDelta',
  'textEnd',
  'thinkingStart',
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
] as const;

export type ServeStep = (typeof SERVE_STEPS)[number];
