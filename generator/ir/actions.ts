/**
 * The one list of reader actions and the arguments each takes (the spec-language reference is
 * generated from the schema; this is what the loader and the IR builder go by).
 */
export const ACTIONS = ['meta', 'text', 'refusal', 'part', 'thinking', 'toolCall', 'finish', 'usage', 'error', 'end'] as const;
export type ActionKey = (typeof ACTIONS)[number];

/** Argument keys of actions written as objects; the others take a path (or `true`) directly. */
export const ACTION_ARGS: Record<ActionKey, readonly string[]> = {
  meta: ['id', 'model'],
  text: ['start', 'text', 'citations', 'signature', 'phase', 'id'],
  refusal: [],
  part: ['kind', 'kindAt', 'at', 'open', 'delta'],
  thinking: ['start', 'break', 'index', 'text', 'summary', 'signature', 'redacted', 'id', 'format'],
  toolCall: ['start', 'complete', 'end', 'index', 'id', 'name', 'arguments', 'argumentsFull', 'argumentsObject', 'signature', 'continues', 'pieces', 'wire'],
  finish: [],
  usage: ['at', 'merge'],
  error: ['at', 'message', 'type', 'code'],
  end: [],
};

export const RULE_KEYS = ['when', 'each', 'before', 'switch', 'cases', 'rules'] as const;

export function isAction(k: string): k is ActionKey {
  return (ACTIONS as readonly string[]).includes(k);
}
