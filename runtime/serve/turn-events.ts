/**
 * A scripted turn (what a mock server answers with) → the unified events a provider's stream
 * would give for it, text cut into pieces as a network would deliver them.
 */
import type { AssistantMessage, FinishReason, ResponsePart, ThinkingPart, ToolCall, Usage } from '../contract/unified-model.js';
import type { ServeEvent } from '../contract/serve-codec.js';
import type { ServedTurn } from './served-turn.js';

export interface MockTurn {
  text?: string;
  /**
   * Reasoning: its text, or blocks in order. A block with no text is one no event announces: with
   * `redacted` (Anthropic `redacted_thinking` data, Bedrock `redactedContent`, OpenRouter's
   * encrypted detail), or with only a `signature` (a Responses reasoning item's `encrypted_content`);
   * `id` is its item id (Responses `rs_…`).
   */
  thinking?: string | MockThinking | MockThinking[];
  /**
   * `kind`: a call of a client-run tool kind (Responses `shell`, `apply_patch`…), served as the
   * item the spec's kind table reads as one; `name` defaults to the kind.
   */
  toolCalls?: Array<{ id?: string; name?: string; kind?: string; arguments?: unknown }>;
  /**
   * Parts in the provider's own wire form (a server-tool call and its result, say), served as
   * they are after the reasoning and before the text; the client reads them as it reads the
   * provider's. A spec with no place for them leaves them out.
   */
  parts?: unknown[];
  /** Default: `tool_calls` when the turn has calls, else `stop`. */
  finishReason?: FinishReason;
  /** Default: 10 input and 5 output tokens. */
  usage?: Partial<Usage>;
  id?: string;
  model?: string;
}

export interface MockThinking {
  text?: string;
  signature?: string;
  redacted?: string;
  id?: string;
}

/** The turn in unified form, with its defaults filled. */
export function servedTurn(t: MockTurn, defaults: { id: string; model: string; created: number }): ServedTurn {
  const calls: ToolCall[] = (t.toolCalls ?? []).map((c, i) => ({
    id: c.id ?? `call_${i}`,
    name: c.name ?? c.kind ?? '',
    arguments: typeof c.arguments === 'string' && c.kind === undefined ? c.arguments : JSON.stringify(c.arguments ?? {}),
    ...(c.kind !== undefined ? { kind: c.kind } : {}),
  }));
  const thinking = (typeof t.thinking === 'string' ? [{ text: t.thinking }] : Array.isArray(t.thinking) ? t.thinking : t.thinking ? [t.thinking] : []).map(
    (b): ThinkingPart => ({ text: b.text ?? '', ...(b.signature === undefined ? {} : { signature: b.signature }), ...(b.redacted === undefined ? {} : { redacted: b.redacted }), ...(b.id === undefined ? {} : { id: b.id }) }),
  );
  const input = t.usage?.inputTokens ?? 10;
  const output = t.usage?.outputTokens ?? 5;
  return {
    id: t.id ?? defaults.id,
    model: t.model ?? defaults.model,
    created: defaults.created,
    message: withParts({
      role: 'assistant',
      content: t.text ?? null,
      ...(thinking.length ? { thinking } : {}),
      ...(calls.length ? { toolCalls: calls } : {}),
    }, t.parts ?? []),
    finishReason: t.finishReason ?? (calls.length ? 'tool_calls' : 'stop'),
    usage: { ...t.usage, inputTokens: input, outputTokens: output, totalTokens: t.usage?.totalTokens ?? input + output },
  };
}

/**
 * The turn's parts in order (reasoning, wire parts, text, calls) when it has wire parts: the
 * request side writes a turn with parts in their order, each wire part as it is.
 */
export function withParts(m: AssistantMessage, wire: unknown[]): AssistantMessage {
  if (!wire.length) return m;
  const parts: ResponsePart[] = [
    ...(m.thinking ?? []).map((t): ResponsePart => ({ type: 'thinking', ...t })),
    ...wire.map((w): ResponsePart => ({ type: 'opaque', kind: 'wire', value: w, wire: w })),
    ...(m.content ? [{ type: 'text' as const, text: m.content }] : []),
    ...(m.toolCalls ?? []).map((call): ResponsePart => ({ type: 'tool-call', call })),
  ];
  return { ...m, parts };
}

/** Cuts text into pieces of about `size` code points. */
export function pieces(text: string, size: number): string[] {
  const cps = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < cps.length; i += size) out.push(cps.slice(i, i + size).join(''));
  return out;
}

/** The unified events of a served turn: reasoning, then text, then each call, then the finish. */
export function turnEvents(turn: ServedTurn, size = 8): ServeEvent[] {
  const m = turn.message;
  const out: ServeEvent[] = [];
  // What a provider knows as it begins (the input), for wires whose first event says it (Anthropic).
  const u = turn.usage;
  if (u) out.push({ type: 'usage', usage: { inputTokens: u.inputTokens, outputTokens: 0, totalTokens: u.inputTokens, ...(u.cachedInputTokens === undefined ? {} : { cachedInputTokens: u.cachedInputTokens }), ...(u.cacheWriteTokens === undefined ? {} : { cacheWriteTokens: u.cacheWriteTokens }) } });
  out.push({ type: 'start', id: turn.id, model: turn.model, warnings: [] });
  // A block with no text and no signature (redacted data) has no event: a stream writer reads it from the turn.
  for (const t of m.thinking ?? []) {
    for (const d of pieces(t.text, size)) out.push({ type: 'thinking-delta', delta: d });
    if (t.signature !== undefined) out.push({ type: 'thinking-signature', signature: t.signature });
  }
  for (const p of m.parts ?? []) if (p.type === 'opaque' && p.kind === 'wire') out.push({ type: 'part', part: p });
  if (m.content) for (const d of pieces(m.content, size)) out.push({ type: 'text-delta', delta: d });
  (m.toolCalls ?? []).forEach((call, index) => {
    // A call of a client-run kind streams as its item, whole (as the provider sends such items).
    if (call.kind !== undefined && call.wire !== undefined) return void out.push({ type: 'part', part: { type: 'opaque', kind: 'wire', value: call.wire, wire: call.wire } });
    out.push({ type: 'tool-call-start', index, id: call.id, name: call.name });
    for (const d of pieces(call.arguments, size * 2)) out.push({ type: 'tool-call-delta', index, delta: d });
    out.push({ type: 'tool-call', index, call });
  });
  if (turn.usage) out.push({ type: 'usage', usage: turn.usage });
  out.push({ type: 'finish', finishReason: turn.finishReason, rawFinishReason: null, usage: turn.usage });
  return out;
}
