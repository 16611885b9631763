/**
 * Continuity state (signatures, redacted reasoning, item ids) goes back only where it is valid:
 * to the provider (or model) that produced it, and under the conditions its spec declares.
 * Everything removed here is reported, except what a rule says the wire must not get.
 *
 * This file cleans turns from elsewhere: the `foreignTurns` unit, which generated modules supply
 * when their templates can carry another provider's state (reasoning, signatures, wire parts); a
 * wire whose templates carry none of it needs no cleaning, and what it has no place for is warned
 * about as it is written (message-context.ts, build-request.ts). A spec's rules and carried
 * state, and reasoning from elsewhere sent back as text (`foreignThinking: text`), are applied by
 * `continuityRules` (continuity-rules.ts, `codec.uses.continuity`), which cleans turns too.
 */
import type { ContinuityUnit } from '../contract/codec.js';
import type { Continuity } from '../contract/profile.js';
import type { ContinuityResult } from '../contract/request.js';
import type { AssistantMessage, ChatRequest, Message, ThinkingPart } from '../contract/unified-model.js';
import { describePart } from './message-context.js';
import type { Warnings } from './warnings.js';

/** The history with every turn from another provider (or model) cleaned of what is not valid here. */
export function applyContinuity(messages: Message[], origins: number[], req: ChatRequest, c: Continuity, w: Warnings): ContinuityResult {
  return { messages: cleanForeign(messages, origins, req, c, w), request: req };
}

/**
 * Sends a turn's reasoning from elsewhere as text (into `out`, the turn being cleaned); false when
 * it does not (the spec drops it, or there is no text to send).
 */
export type ReasoningAsText = (out: AssistantMessage, thinking: ThinkingPart[], from: string, c: Continuity, where: string, w: Warnings) => boolean;

/** The same list when no turn came from elsewhere (the common case). */
export function cleanForeign(messages: Message[], origins: number[], req: ChatRequest, c: Continuity, w: Warnings, asText?: ReasoningAsText): Message[] {
  if (!messages.some((m) => m.role === 'assistant' && isForeign(m, req, c))) return messages;
  return messages.map((m, i) => (m.role === 'assistant' && isForeign(m, req, c) ? fromElsewhere(m, c, `messages[${origins[i]}]`, w, asText) : m));
}

export function isForeign(m: AssistantMessage, req: ChatRequest, c: Continuity): boolean {
  if (!m.origin) return false;
  if (m.origin.provider !== c.provider) return true;
  return c.scope === 'model' && m.origin.model !== undefined && req.model !== undefined && m.origin.model !== req.model;
}

export /** A turn from another provider or model: its opaque state is dropped, its reasoning dropped or made text. */
function fromElsewhere(m: AssistantMessage, c: Continuity, where: string, w: Warnings, asText?: ReasoningAsText): AssistantMessage {
  const from = m.origin!.model ? `${m.origin!.provider} (${m.origin!.model})` : m.origin!.provider;
  const out: AssistantMessage = { ...m };
  if (m.parts) {
    // What only its origin understands is not sent; text, reasoning and calls go by the fields above.
    m.parts.forEach((p, j) => {
      if ('wire' in p && p.wire !== undefined) w.drop(`${where}.parts[${j}]`, `${describePart(p)} from ${from} cannot go to ${c.provider}; it was not sent`);
      else if (p.type === 'text' && p.id !== undefined) w.drop(`${where}.parts[${j}].id`, `the item id from ${from} is not valid for ${c.provider}; the text was sent without it`);
    });
    out.parts = undefined;
  }
  const calls = m.toolCalls;
  if (calls?.some((t) => t.signature !== undefined || t.wire !== undefined)) {
    out.toolCalls = calls.map(({ signature: _s, wire: _w, ...t }) => t);
    if (calls.some((t) => t.signature !== undefined)) w.drop(`${where}.toolCalls`, `tool-call signatures from ${from} are not valid for ${c.provider}; they were not sent`);
    // The items the calls came as (with their ids); the calls go by their fields.
    if (calls.some((t) => t.wire !== undefined)) w.drop(`${where}.toolCalls`, `the items these calls came as (with their ids) from ${from} are not valid for ${c.provider}; the calls were sent without them`);
  }
  if (m.thinking?.length) {
    out.thinking = undefined;
    if (!asText?.(out, m.thinking, from, c, where, w)) w.drop(`${where}.thinking`, `reasoning from ${from} is not valid for ${c.provider}; it was not sent`);
  }
  return out;
}

applyContinuity satisfies ContinuityUnit;
