/**
 * AI SDK call options → one unified request (docs/ai-sdk.md, "From the AI SDK"), by tables: each
 * prompt role has its builder, each assistant part type its unified part. What the unified
 * request has no field for becomes a V4 warning naming where to put it instead, never a silent
 * drop; a prompt part the unified model cannot carry is an error before anything is sent.
 */
import {
  UnsupportedFunctionalityError,
  type LanguageModelV4CallOptions as Options,
  type LanguageModelV4FilePart as FilePart,
  type LanguageModelV4Message as V4Message,
  type LanguageModelV4ToolResultOutput as ToolOutput,
  type SharedV4Warning as V4Warning,
} from '@ai-sdk/provider';
import type { ProviderAdapter } from '../runtime/contract/adapter.js';
import type { AssistantMessage, CallOptions, ChatRequest, ContentPart, Message, ReasoningOptions, ResponsePart, ThinkingPart, ToolCall, ToolMessage } from '../runtime/contract/unified-model.js';
import { fieldsOf, KEY, type Origin } from './part-metadata.js';

export interface Converted {
  request: ChatRequest;
  call: CallOptions;
  warnings: V4Warning[];
}

/** Call options the unified request has no field for: the wire's own field goes under providerOptions.<spec id>. */
const NO_FIELD = ['topK', 'seed', 'presencePenalty', 'frequencyPenalty'] as const;
/** Unified request fields `providerOptions.wireforge` may set (the AI SDK has no option for them). */
const FROM_OPTIONS = ['store', 'parallelToolCalls', 'providerOptions', 'user', 'metadata', 'previousResponseId', 'reasoning'] as const;
/** Reasoning levels for wires that turn thinking on by a budget: a share of maxOutputTokens (at least 1,024), or these tokens without one. */
const BUDGET: Record<string, [share: number, tokens: number]> = { minimal: [0.1, 1024], low: [0.25, 2048], medium: [0.5, 8192], high: [0.75, 16384], xhigh: [0.85, 24576], max: [0.9, 32000] };
const EFFORTS = ['minimal', 'low', 'medium', 'high'];

/** Every bridge warning: what was not sent, and why or where to put it instead. */
const notSent = (feature: string, why: string): V4Warning => ({ type: 'unsupported', feature, details: `not sent: ${why}` });
/** Every refused prompt part: where it is and what it is. */
const refuse = (where: string, what: string) => new UnsupportedFunctionalityError({ functionality: `${where}: ${what} (no unified form: unified user content is text and images)` });

export function toRequest(o: Options, adapter: ProviderAdapter, model: string): Converted {
  const warnings: V4Warning[] = [];
  const r: ChatRequest = {
    model,
    messages: o.prompt.flatMap((m, i) => ROLES[m.role](m as never, `prompt[${i}]`, warnings)),
    maxTokens: o.maxOutputTokens,
    temperature: o.temperature,
    topP: o.topP,
    stop: o.stopSequences?.length ? o.stopSequences : undefined,
  };
  for (const name of NO_FIELD) if (o[name] !== undefined) warnings.push(notSent(name, `no unified field; set the wire's own under providerOptions.${adapter.id}`));
  if (o.includeRawChunks) warnings.push(notSent('includeRawChunks', 'wireforge streams unified events, not wire chunks'));
  const f = o.responseFormat;
  if (f?.type === 'json') r.responseFormat = f.schema ? { type: 'json_schema', name: f.name ?? 'response', schema: f.schema as Record<string, unknown> } : { type: 'json' };
  for (const t of o.tools ?? []) {
    const tool = t.type === 'function' ? { name: t.name, description: t.description, parameters: t.inputSchema as Record<string, unknown>, strict: t.strict }
      : t.id.startsWith(`${KEY}.`) ? { type: 'provider' as const, name: t.id.slice(KEY.length + 1), options: t.args }
      : warnings.push(notSent(`tool ${t.id}`, `provider tools are ${KEY}.<name> (providerTool())`)) && undefined;
    if (tool) (r.tools ??= []).push(tool);
  }
  // `auto` is every wire's default (the AI SDK sends it even without tools): only a real choice is passed on.
  const c = o.toolChoice;
  if (c && c.type !== 'auto' && r.tools) r.toolChoice = c.type === 'tool' ? { name: c.toolName } : c.type;
  r.reasoning = toReasoning(o, adapter, warnings);
  const own = o.providerOptions?.[KEY];
  for (const k of FROM_OPTIONS) if (own?.[k] !== undefined) (r as unknown as Record<string, unknown>)[k] = own[k];
  // The wire's own fields, under the spec id, merged into the body by the spec's rules.
  const wire = o.providerOptions?.[adapter.id];
  if (wire) r.providerOptions = { ...r.providerOptions, ...wire };
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(o.headers ?? {})) if (v !== undefined) headers[k] = v;
  return { request: r, call: { signal: o.abortSignal, headers }, warnings };
}

/** The AI SDK's reasoning level: a budget where the spec turns thinking on by one, else the effort. */
function toReasoning(o: Options, adapter: ProviderAdapter, warnings: V4Warning[]): ReasoningOptions | undefined {
  const level = o.reasoning;
  const [share, tokens] = BUDGET[level ?? ''] ?? [];
  if (!tokens) return undefined; // none, provider-default, unset
  const takes = (field: 'reasoning.budgetTokens' | 'reasoning.effort') => 'to' in (adapter.profile.request.params[field] ?? {});
  if (takes('reasoning.budgetTokens')) return { budgetTokens: o.maxOutputTokens ? Math.max(1024, Math.round(o.maxOutputTokens * share!)) : tokens };
  const effort = EFFORTS.includes(level!) ? level : 'high';
  if (effort !== level || !takes('reasoning.effort')) warnings.push({ type: 'compatibility', feature: 'reasoning', details: `"${level}" sent as effort "${effort}"` });
  return { effort: effort as ReasoningOptions['effort'] };
}

type Of<U, T> = Extract<U, { type: T }>;
type Builders<U extends { type: string }, Out, More extends unknown[]> = { [T in U['type']]: (p: Of<U, T>, ...more: More) => Out };

/** Each prompt role's unified message(s); `at` is where it sits in the prompt. */
const ROLES: { [R in V4Message['role']]: (m: Extract<V4Message, { role: R }>, at: string, warnings: V4Warning[]) => Message | Message[] } = {
  system: (m) => ({ role: 'system', content: m.content }),
  user: (m, at) => ({ role: 'user', content: m.content.map((p, j) => contentPart(p, `${at}.content[${j}]`)) }),
  assistant: (m, at, warnings) => toAssistant(m.content, at, warnings),
  tool: (m, at) =>
    m.content.map((p): Message => (p.type === 'tool-approval-response' ? { role: 'approval', requestId: p.approvalId, approve: p.approved, reason: p.reason } : { role: 'tool', toolCallId: p.toolCallId, toolName: p.toolName, ...toolOutput(p.output, at) })),
};

/** A user or tool-output part: text, or an image (data or URL); any other file has no place in the unified model. */
function contentPart(p: { type: string; text?: string } | FilePart, where: string): ContentPart {
  if (p.type === 'text') return { type: 'text', text: p.text! };
  const { data: d, mediaType } = p as FilePart;
  if (p.type !== 'file' || !mediaType.startsWith('image/') || (d.type !== 'url' && d.type !== 'data')) throw refuse(where, p.type === 'file' ? `a ${mediaType} ${d.type} file` : `a ${p.type} part`);
  return { type: 'image', ...dataOf(d), mediaType: mediaType === 'image/*' ? undefined : mediaType };
}

function toolOutput(o: ToolOutput, at: string): Pick<ToolMessage, 'content' | 'isError'> {
  if (o.type === 'content') return { content: o.value.map((v, j) => contentPart(v, `${at}.output[${j}]`)) };
  const denied = o.type === 'execution-denied';
  return {
    content: o.type === 'execution-denied' ? `The tool call was denied${o.reason ? `: ${o.reason}` : '.'}` : typeof o.value === 'string' ? o.value : JSON.stringify(o.value),
    isError: denied || o.type.startsWith('error'),
  };
}

type AssistantPart = Extract<V4Message, { role: 'assistant' }>['content'][number];

/** Each assistant part type's unified part, with what its `providerOptions.wireforge` carried; undefined: no place for it. */
const TURN: Builders<AssistantPart, ResponsePart | undefined, [fields: Record<string, unknown>]> = {
  text: (p, f) => ({ ...f, type: 'text', text: p.text }),
  reasoning: (p, f) => ({ ...f, type: 'thinking', text: p.text }),
  'reasoning-file': () => undefined,
  'tool-call': (p, f) =>
    p.providerExecuted
      ? { ...f, type: 'provider-tool-call', id: p.toolCallId, name: p.toolName, input: p.input }
      : { type: 'tool-call', call: { ...f, id: p.toolCallId, name: p.toolName, arguments: typeof p.input === 'string' ? p.input : JSON.stringify(p.input ?? {}) } },
  'tool-result': ({ output: o, ...p }, f) => ({ ...f, type: 'provider-tool-result', callId: p.toolCallId, name: p.toolName, result: 'value' in o ? o.value : null, isError: o.type.startsWith('error') || undefined }),
  custom: (_, f) => ('kind' in f ? ({ ...f, type: 'opaque' } as ResponsePart) : undefined),
  file: (p, f) => (p.data.type === 'data' || p.data.type === 'url' ? { ...f, type: 'file', mediaType: p.mediaType, ...dataOf(p.data) } : undefined),
};

/**
 * An assistant turn as the unified message: its parts in order, and the text, thinking and calls
 * they hold (the fields a wire without ordered parts writes from), with the origin its parts carry.
 */
function toAssistant(content: AssistantPart[], at: string, warnings: V4Warning[]): AssistantMessage {
  const parts: ResponsePart[] = [];
  const thinking: ThinkingPart[] = [];
  const toolCalls: ToolCall[] = [];
  let text = '';
  let origin: Origin | undefined;
  for (const p of content) {
    const { fields, origin: from } = fieldsOf(p.providerOptions);
    origin ??= from;
    const part = TURN[p.type](p as never, fields);
    if (!part) warnings.push(notSent(`${at} ${p.type} part`, 'no place in a unified assistant turn'));
    else {
      parts.push(part);
      if (part.type === 'text') text += part.text;
      else if (part.type === 'tool-call') toolCalls.push(part.call);
      else if (part.type === 'thinking') {
        const { type, ...t } = part;
        thinking.push(t);
      }
    }
  }
  return { role: 'assistant', content: text || null, parts, thinking: thinking.length ? thinking : undefined, toolCalls: toolCalls.length ? toolCalls : undefined, origin };
}

/** File data as the unified part holds it: a URL, or base64 (without Node's Buffer: the bridge runs in browsers and Workers too). */
function dataOf(d: { type: 'url'; url: URL } | { type: 'data'; data: Uint8Array | string }): { url: string } | { data: string } {
  if (d.type === 'url') return { url: d.url.href };
  const bytes = d.data;
  if (typeof bytes === 'string') return { data: bytes };
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return { data: btoa(s) };
}
