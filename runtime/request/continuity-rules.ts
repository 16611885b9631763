/**
 * A spec's continuity rules (what reasoning must carry to go back, what a request cannot send
 * with it, fields added to the body) and the state a turn carries into the next request (a
 * container id), and reasoning from elsewhere sent back as text (`foreignThinking: text`).
 * Generated modules whose spec has any supply this as `codec.uses.continuity`; it cleans turns
 * from elsewhere first (as `foreignTurns` does for wires without rules).
 */
import type { ContinuityUnit } from '../contract/codec.js';
import type { Condition } from '../contract/profile.js';
import type { AssistantMessage, ChatRequest, Message, ResponsePart, ThinkingPart } from '../contract/unified-model.js';
import { readPath } from '../wire/read-path.js';
import type { Continuity, ContinuityFact } from '../contract/profile.js';
import type { ContinuityResult } from '../contract/request.js';
import { cleanForeign, fromElsewhere, isForeign, type ReasoningAsText } from './apply-continuity.js';
import { holds } from './conditions.js';
import { setPath } from './set-path.js';
import type { Warnings } from './warnings.js';

export function continuityRules(messages: Message[], origins: number[], req: ChatRequest, c: Continuity, w: Warnings): ContinuityResult {
  const carried = c.carry?.length ? carry(messages, req, c) : undefined;
  const all = c.rules ?? [];
  if (all.length === 0) return { messages: cleanForeign(messages, origins, req, c, w, reasoningAsText), request: req, carried };
  const rules = all.filter((r) => !('toolTurnWithoutThinking' in r.when) && applies(r.when, req));
  const body = Object.assign({}, ...rules.map((r) => r.body ?? {})) as Record<string, unknown>;
  const requireSignature = rules.some((r) => r.require?.includes('thinking.signature'));
  const requireId = rules.some((r) => r.require?.includes('thinking.id'));
  const omit = rules.some((r) => r.drop?.includes('thinking'));
  const ensure = rules.some((r) => r.ensure?.includes('thinking'));

  const out = messages.map((m, i) => {
    if (m.role !== 'assistant') return m;
    const where = `messages[${origins[i]}]`;
    let msg: AssistantMessage = m;
    if (isForeign(m, req, c)) msg = fromElsewhere(m, c, where, w, reasoningAsText);
    const before = msg.thinking;
    if (omit) {
      if (msg.thinking) msg = { ...msg, thinking: undefined };
    } else if (msg.thinking?.length && (requireSignature || requireId)) {
      const kept = msg.thinking.filter((t) => (!requireSignature || t.signature !== undefined) && (!requireId || t.id !== undefined));
      if (kept.length < msg.thinking.length) {
        w.drop(`${where}.thinking`, `${c.provider} needs ${requireSignature ? 'a signature (encrypted content)' : 'an id'} on reasoning it is sent back, under this request's settings; reasoning without one was not sent`);
        msg = { ...msg, thinking: kept };
      }
    }
    if (ensure && !omit && !msg.thinking?.length) msg = { ...msg, thinking: [{ text: '' }] };
    return msg.parts && msg.thinking !== before ? syncThinking(msg, before, where, w) : msg;
  });
  let request = req;
  for (const r of rules) for (const field of r.drop ?? []) if (field !== 'thinking') request = dropField(request, field, c, 'under this request\'s settings', w);
  // Rules about the conversation as it will be sent (after the clean-up above).
  const continues = toolTurnWithoutThinking(out);
  for (const r of all) {
    if (!('toolTurnWithoutThinking' in r.when) || !applies(r.when, req, continues)) continue;
    for (const field of r.drop ?? []) if (field !== 'thinking') request = dropField(request, field, c, 'while continuing a tool turn that has no reasoning (it came from elsewhere)', w);
  }
  return { messages: out, body, request, carried };
}

/** Reasoning from elsewhere as text before the turn's own, for `foreignThinking: text` (redacted and empty blocks have none). */
const reasoningAsText: ReasoningAsText = (out, thinking, from, c, where, w) => {
  const texts = thinking.filter((t) => t.redacted === undefined && t.text !== '');
  if (c.foreignThinking !== 'text' || !texts.length) return false;
  const text = texts.map((t) => t.text).join('\n\n');
  out.content = out.content ? `${text}\n\n${out.content}` : text;
  w.drop(`${where}.thinking`, `reasoning from ${from} cannot go back to ${c.provider} as reasoning; it was sent as text`);
  return true;
};

/**
 * The thinking parts of `parts` made to match `thinking` after the rules above changed it: the
 * k-th thinking part is the k-th block of `before`, kept when the block was kept (filters keep
 * the objects); an added empty block goes first.
 */
function syncThinking(m: AssistantMessage, before: ThinkingPart[] | undefined, where: string, w: Warnings): AssistantMessage {
  const after = new Set(m.thinking ?? []);
  const parts: ResponsePart[] = [];
  let k = 0;
  // Items that followed reasoning which is not sent go with it (an item that names the reasoning
  // it came from is rejected without it); text and calls stay, written by their templates.
  let orphaned = false;
  let c = 0;
  let calls = m.toolCalls;
  m.parts!.forEach((p, j) => {
    if (p.type === 'thinking') {
      orphaned = !(before?.[k] !== undefined && after.has(before[k]!));
      k++;
      if (!orphaned) parts.push(p);
    } else if (orphaned && 'wire' in p && p.wire !== undefined) {
      w.drop(`${where}.parts[${j}]`, 'it followed reasoning that is not sent, and cannot go without it; it was not sent');
    } else if (p.type === 'text' || p.type === 'tool-call') {
      // The text or call goes, but not as the item it was (its id names the reasoning left out):
      // through the templates, without the item id.
      if (orphaned && p.type === 'text' && p.id !== undefined) {
        const { id: _id, ...rest } = p;
        parts.push(rest);
      } else parts.push(p);
      if (p.type === 'tool-call') {
        if (orphaned && calls?.[c]?.wire !== undefined) {
          calls = calls.slice();
          const { wire: _wire, ...call } = calls[c]!;
          calls[c] = call;
        }
        c++;
      }
      orphaned = false;
    } else parts.push(p);
  });
  const added = (m.thinking ?? []).filter((t) => !before?.includes(t));
  if (added.length) parts.unshift(...added.map((t): ResponsePart => ({ type: 'thinking', ...t })));
  return calls === m.toolCalls ? { ...m, parts } : { ...m, parts, toolCalls: calls };
}

/** Carried fields: from the latest assistant turn of this provider that has a part of each kind. */
function carry(messages: Message[], req: ChatRequest, c: Continuity): Record<string, unknown> | undefined {
  let out: Record<string, unknown> | undefined;
  for (const rule of c.carry ?? []) {
    for (let i = messages.length - 1; i >= 0; i--) {
      const m = messages[i]!;
      if (m.role !== 'assistant' || !m.parts || (m.origin && isForeign(m, req, c))) continue;
      const part = m.parts.find((p) => p.type === 'opaque' && p.kind === rule.kind);
      if (part === undefined || part.type !== 'opaque') continue;
      const v = readPath(part.value, rule.from);
      if (v !== undefined && v !== null) setPath((out ??= {}), rule.to, v);
      break;
    }
  }
  return out;
}

/** The conversation continues a tool turn (only tool results follow it) that has no thinking. */
function toolTurnWithoutThinking(messages: Message[]): boolean {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === 'tool') continue;
    return m.role === 'assistant' && (m.toolCalls?.length ?? 0) > 0 && !m.thinking?.length;
  }
  return false;
}

function dropField(req: ChatRequest, field: string, c: Continuity, why: string, w: Warnings): ChatRequest {
  const [head, tail] = field.split('.') as [keyof ChatRequest, string | undefined];
  const value = req[head];
  if (value === undefined) return req;
  if (tail === undefined) {
    w.drop(field, `${c.provider} cannot take this ${why}`);
    return { ...req, [head]: undefined };
  }
  if (typeof value !== 'object' || value === null || (value as Record<string, unknown>)[tail] === undefined) return req;
  w.drop(field, `${c.provider} cannot take this ${why}`);
  return { ...req, [head]: { ...(value as object), [tail]: undefined } };
}

function applies(when: Condition, req: ChatRequest, continues = false): boolean {
  return holds(when, (fact) => {
    switch (fact as ContinuityFact) {
      case 'store':
        return req.store;
      case 'model':
        return req.model ?? '';
      case 'reasoning':
        return req.reasoning?.budgetTokens !== undefined || req.reasoning?.effort !== undefined;
      case 'toolTurnWithoutThinking':
        return continues;
      default:
        return undefined;
    }
  });
}

continuityRules satisfies ContinuityUnit;
