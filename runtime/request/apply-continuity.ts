/**
 * Continuity state (signatures, redacted reasoning, item ids) goes back only where it is valid:
 * to the provider (or model) that produced it, and under the conditions its spec declares.
 * Everything removed here is reported, except what a rule says the wire must not get.
 */
import type { AssistantMessage, ChatRequest, Message, ThinkingPart } from '../types.js';
import type { Warnings } from './warnings.js';

export interface Continuity {
  provider: string;
  scope: 'provider' | 'model';
  foreignThinking: 'drop' | 'text';
  rules: ReadonlyArray<{
    when: { store?: boolean; model?: string; notModel?: string; reasoning?: boolean; toolTurnWithoutThinking?: boolean };
    require: readonly string[];
    omit: readonly string[];
    ensure: readonly string[];
    dropFields?: readonly string[];
    body?: Record<string, unknown>;
  }>;
}

export interface ContinuityResult {
  messages: Message[];
  /** Fields the applicable rules add to the body. */
  body: Record<string, unknown>;
  /** The request, less any field a rule says cannot go with this conversation. */
  request: ChatRequest;
}

export function applyContinuity(messages: Message[], origins: number[], req: ChatRequest, c: Continuity, w: Warnings): ContinuityResult {
  // The common case, a conversation with no state from elsewhere and a spec without rules.
  if (c.rules.length === 0 && !messages.some((m) => m.role === 'assistant' && m.origin !== undefined && isForeign(m, req, c))) {
    return { messages, body: {}, request: req };
  }
  const rules = c.rules.filter((r) => applies(r.when, req) && r.when.toolTurnWithoutThinking === undefined);
  const body = Object.assign({}, ...rules.map((r) => r.body ?? {})) as Record<string, unknown>;
  const requireSignature = rules.some((r) => r.require.includes('thinking.signature'));
  const requireId = rules.some((r) => r.require.includes('thinking.id'));
  const omit = rules.some((r) => r.omit.includes('thinking'));
  const ensure = rules.some((r) => r.ensure.includes('thinking'));

  const out = messages.map((m, i) => {
    if (m.role !== 'assistant') return m;
    const where = `messages[${origins[i]}]`;
    let msg: AssistantMessage = m;
    if (isForeign(m, req, c)) msg = fromElsewhere(m, c, where, w);
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
    return msg;
  });
  // Rules about the conversation as it will be sent (after the clean-up above).
  let request = req;
  for (const r of c.rules) {
    if (r.when.toolTurnWithoutThinking === undefined || !applies(r.when, req)) continue;
    if (toolTurnWithoutThinking(out) !== r.when.toolTurnWithoutThinking) continue;
    for (const field of r.dropFields ?? []) request = dropField(request, field, c, w);
  }
  return { messages: out, body, request };
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

function dropField(req: ChatRequest, field: string, c: Continuity, w: Warnings): ChatRequest {
  const [head, tail] = field.split('.') as [keyof ChatRequest, string | undefined];
  const value = req[head];
  if (value === undefined) return req;
  if (tail === undefined) {
    w.drop(field, `${c.provider} cannot take this while continuing a tool turn that has no reasoning (it came from elsewhere)`);
    return { ...req, [head]: undefined };
  }
  if (typeof value !== 'object' || value === null || (value as Record<string, unknown>)[tail] === undefined) return req;
  w.drop(field, `${c.provider} cannot take this while continuing a tool turn that has no reasoning (it came from elsewhere)`);
  return { ...req, [head]: { ...(value as object), [tail]: undefined } };
}

function applies(when: Continuity['rules'][number]['when'], req: ChatRequest): boolean {
  const reasoning = req.reasoning?.budgetTokens !== undefined || req.reasoning?.effort !== undefined;
  if (when.reasoning !== undefined && reasoning !== when.reasoning) return false;
  if (when.store !== undefined && (req.store === false) !== (when.store === false)) return false;
  if (when.model !== undefined && !pattern(when.model).test(req.model ?? '')) return false;
  if (when.notModel !== undefined && pattern(when.notModel).test(req.model ?? '')) return false;
  return true;
}

/** Model patterns come from specs (a few per provider): compiled once. */
const patterns = new Map<string, RegExp>();
function pattern(source: string): RegExp {
  let re = patterns.get(source);
  if (re === undefined) patterns.set(source, (re = new RegExp(source)));
  return re;
}

function isForeign(m: AssistantMessage, req: ChatRequest, c: Continuity): boolean {
  if (!m.origin) return false;
  if (m.origin.provider !== c.provider) return true;
  return c.scope === 'model' && m.origin.model !== undefined && req.model !== undefined && m.origin.model !== req.model;
}

/** A turn from another provider or model: its opaque state is dropped, its reasoning dropped or made text. */
function fromElsewhere(m: AssistantMessage, c: Continuity, where: string, w: Warnings): AssistantMessage {
  const from = m.origin!.model ? `${m.origin!.provider} (${m.origin!.model})` : m.origin!.provider;
  const out: AssistantMessage = { ...m };
  if (m.toolCalls?.some((t) => t.signature !== undefined)) {
    out.toolCalls = m.toolCalls.map(({ signature: _s, ...t }) => t);
    w.drop(`${where}.toolCalls`, `tool-call signatures from ${from} are not valid for ${c.provider}; they were not sent`);
  }
  const thinking = (m.thinking ?? []).filter((t: ThinkingPart) => t.redacted === undefined && t.text !== '');
  if (m.thinking?.length) {
    out.thinking = undefined;
    if (c.foreignThinking === 'text' && thinking.length) {
      const text = thinking.map((t) => t.text).join('\n\n');
      out.content = m.content ? `${text}\n\n${m.content}` : text;
      w.drop(`${where}.thinking`, `reasoning from ${from} cannot go back to ${c.provider} as reasoning; it was sent as text`);
    } else {
      w.drop(`${where}.thinking`, `reasoning from ${from} is not valid for ${c.provider}; it was not sent`);
    }
  }
  return out;
}
