/**
 * AI SDK call options → one unified request (docs/ai-sdk.md, "From the AI SDK"), by tables: each
 * prompt role has its builder, each assistant part type its unified part. What the unified
 * request has no field for becomes a V4 warning naming where to put it instead, never a silent
 * drop; a prompt part the unified model cannot carry is an error before anything is sent. What
 * the runtime checks itself (header values, the request's shape) is left to it.
 */
import {
  type LanguageModelV4CallOptions as Options,
  type LanguageModelV4FilePart as FilePart,
  type LanguageModelV4Message as V4Message,
  type LanguageModelV4ToolResultOutput as ToolOutput,
  type SharedV4Warning as V4Warning,
} from '@ai-sdk/provider';
import type { ProviderAdapter } from '../runtime/contract/adapter.js';
import type { AssistantMessage, CallOptions, ChatRequest, ContentPart, Message, ReasoningOptions, ResponsePart, ToolMessage, ToolSpec } from '../runtime/contract/unified-model.js';
import { quote } from '../runtime/errors.js';
import { isString, keys } from '../runtime/wire/read-path.js';
import { UnsupportedFunctionalityError } from './api-call-error.js';
import { nonEmpty } from './non-empty.js';
import { fieldsOf, KEY, type Origin } from './part-metadata.js';

export interface Converted {
  request: ChatRequest;
  call: CallOptions;
  warnings: V4Warning[];
}

/** Every bridge warning: what was not sent, and why or where to put it instead. */
type Warn = (feature: string, why: string) => void;

/** Call options the unified request has no field for: the wire's own field goes under providerOptions.<spec id>. */
const NO_FIELD = ['topK', 'seed', 'presencePenalty', 'frequencyPenalty'] as const;
/** Unified request fields `providerOptions.wireforge` may set (the AI SDK has no option for them). */
const FROM_OPTIONS = ['store', 'parallelToolCalls', 'providerOptions', 'user', 'metadata', 'previousResponseId', 'reasoning'] as const;
/**
 * Reasoning levels: the share of maxOutputTokens (at least 1,024) or the tokens without one, for
 * wires that turn thinking on by a budget; the first four are also unified efforts.
 */
const BUDGET: Record<string, [share: number, tokens: number]> = { minimal: [0.1, 1024], low: [0.25, 2048], medium: [0.5, 8192], high: [0.75, 16384], xhigh: [0.85, 24576], max: [0.9, 32000] };
const EFFORTS = keys(BUDGET).slice(0, 4);
const TOOL_PREFIX = `${KEY}.`;
/** A value as the text a unified field holds: a string as it is, anything else as JSON. */
const asText = (v: unknown): string => (isString(v) ? v : quote(v));

export function toRequest(o: Options, adapter: ProviderAdapter, model: string): Converted {
  const warnings: V4Warning[] = [];
  const warn: Warn = (feature, why) => warnings.push({ type: 'unsupported', feature, details: `not sent: ${why}` });
  const messages = o.prompt.flatMap((m, i) => ROLES[m.role](m as never, `prompt[${i}]`, warn));
  for (const name of NO_FIELD) if (o[name] !== undefined) warn(name, `no unified field; use the wire's under providerOptions.${adapter.id}`);
  if (o.includeRawChunks) warn('includeRawChunks', 'the stream carries unified events');
  const tools = nonEmpty(o.tools?.flatMap((t): ToolSpec | [] =>
    t.type === 'function' ? { name: t.name, description: t.description, parameters: t.inputSchema as Record<string, unknown>, strict: t.strict }
    : t.id.startsWith(TOOL_PREFIX) ? { type: 'provider', name: t.id.slice(TOOL_PREFIX.length), options: t.args }
    : (warn(`tool ${t.id}`, `not a ${TOOL_PREFIX}<name> tool`), []),
  ));
  const { responseFormat: f, toolChoice: c, providerOptions: given } = o;
  const request: ChatRequest = {
    model,
    messages,
    maxTokens: o.maxOutputTokens,
    temperature: o.temperature,
    topP: o.topP,
    stop: nonEmpty(o.stopSequences),
    responseFormat: f?.type !== 'json' ? undefined : f.schema ? { type: 'json_schema', name: f.name ?? 'response', schema: f.schema as Record<string, unknown> } : { type: 'json' },
    tools,
    // `auto` is every wire's default (the AI SDK sends it even without tools): only a real choice is passed on.
    toolChoice: c && c.type !== 'auto' && tools ? (c.type === 'tool' ? { name: c.toolName } : c.type) : undefined,
    reasoning: toReasoning(o, adapter, warnings),
  };
  const own = given?.[KEY];
  for (const k of FROM_OPTIONS) if (own?.[k] !== undefined) (request as unknown as Record<string, unknown>)[k] = own[k];
  // The wire's own fields, under the spec id, merged into the body by the spec's rules.
  const wire = given?.[adapter.id];
  if (wire) request.providerOptions = { ...request.providerOptions, ...wire };
  // A header the AI SDK leaves undefined is skipped by the client, as any value that is not a string.
  return { request, call: { signal: o.abortSignal, headers: o.headers as Record<string, string> | undefined }, warnings };
}

/** The AI SDK's reasoning level: a budget where the spec turns thinking on by one, else the effort. */
function toReasoning(o: Options, adapter: ProviderAdapter, warnings: V4Warning[]): ReasoningOptions | undefined {
  const level = o.reasoning!;
  const [share, tokens] = BUDGET[level] ?? [];
  if (!tokens) return undefined; // none, provider-default, unset
  const takes = (field: 'reasoning.budgetTokens' | 'reasoning.effort') => 'to' in (adapter.profile.request.params[field] ?? {});
  if (takes('reasoning.budgetTokens')) return { budgetTokens: o.maxOutputTokens ? Math.max(1024, Math.round(o.maxOutputTokens * share!)) : tokens };
  const effort = EFFORTS.includes(level) ? level : 'high';
  if (effort !== level || !takes('reasoning.effort')) warnings.push({ type: 'compatibility', feature: 'reasoning', details: `"${level}" sent as effort "${effort}"` });
  return { effort: effort as ReasoningOptions['effort'] };
}

/** Each prompt role's unified message(s); `at` is where it sits in the prompt. */
const ROLES: { [R in V4Message['role']]: (m: Extract<V4Message, { role: R }>, at: string, warn: Warn) => Message | Message[] } = {
  system: (m) => ({ role: 'system', content: m.content }),
  user: (m, at) => ({ role: 'user', content: m.content.map((p, j) => contentPart(p, `${at}.content[${j}]`)) }),
  assistant: toAssistant,
  tool: (m, at) =>
    m.content.map((p): Message => (p.type === 'tool-approval-response' ? { role: 'approval', requestId: p.approvalId, approve: p.approved, reason: p.reason } : { role: 'tool', toolCallId: p.toolCallId, toolName: p.toolName, ...toolOutput(p.output, at) })),
};

/** A user or tool-output part: text, or an image (data or URL); anything else has no place in unified user content. */
function contentPart(p: { type: string; text?: string } | FilePart, where: string): ContentPart {
  if (p.type === 'text') return { type: 'text', text: p.text! };
  const { data: d, mediaType } = p as FilePart;
  const data = p.type === 'file' && mediaType.startsWith('image/') ? dataOf(d) : undefined;
  if (!data) throw new UnsupportedFunctionalityError({ functionality: `${where}: ${p.type === 'file' ? `${mediaType} ${d.type}` : p.type} (user content is text and images)` });
  return { type: 'image', ...data, mediaType: mediaType === 'image/*' ? undefined : mediaType };
}

function toolOutput(o: ToolOutput, at: string): Pick<ToolMessage, 'content' | 'isError'> {
  if (o.type === 'content') return { content: o.value.map((v, j) => contentPart(v, `${at}.output[${j}]`)) };
  const denied = o.type === 'execution-denied';
  return {
    content: denied ? `The tool call was denied${o.reason ? `: ${o.reason}` : '.'}` : asText(o.value),
    isError: denied || o.type.startsWith('error'),
  };
}

type AssistantPart = Extract<V4Message, { role: 'assistant' }>['content'][number];

/** Each assistant part type's unified part, with what its `providerOptions.wireforge` carried; none: no place for it. */
const TURN: { [T in AssistantPart['type']]?: (p: Extract<AssistantPart, { type: T }>, f: Record<string, unknown>) => ResponsePart | undefined } = {
  text: (p, f) => ({ ...f, type: 'text', text: p.text }),
  reasoning: (p, f) => ({ ...f, type: 'thinking', text: p.text }),
  'tool-call': (p, f) =>
    p.providerExecuted
      ? { ...f, type: 'provider-tool-call', id: p.toolCallId, name: p.toolName, input: p.input }
      : { type: 'tool-call', call: { ...f, id: p.toolCallId, name: p.toolName, arguments: asText(p.input ?? {}) } },
  'tool-result': ({ output: o, ...p }, f) => ({ ...f, type: 'provider-tool-result', callId: p.toolCallId, name: p.toolName, result: 'value' in o ? o.value : null, isError: o.type.startsWith('error') || undefined }),
  custom: (_, f) => ('kind' in f ? ({ ...f, type: 'opaque' } as ResponsePart) : undefined),
  file: (p, f) => {
    const data = dataOf(p.data);
    return data && { ...f, type: 'file', mediaType: p.mediaType, ...data };
  },
};

/**
 * An assistant turn as the unified message: its parts in order, and the text, thinking and calls
 * they hold (the fields a wire without ordered parts writes from), with the origin its parts carry.
 */
function toAssistant({ content }: { content: AssistantPart[] }, at: string, warn: Warn): AssistantMessage {
  const parts: ResponsePart[] = [];
  let origin: Origin | undefined;
  for (const p of content) {
    const [fields, from] = fieldsOf(p.providerOptions);
    origin ??= from;
    const part = TURN[p.type]?.(p as never, fields);
    if (part) parts.push(part);
    else warn(`${at} ${p.type} part`, 'no unified form');
  }
  /** The parts of one type, each as `view` gives it; undefined when there are none. */
  const of = <T extends ResponsePart['type'], V>(type: T, view: (p: Extract<ResponsePart, { type: T }>) => V): V[] | undefined => {
    return nonEmpty(parts.flatMap((p) => (p.type === type ? [view(p as never)] : [])));
  };
  return { role: 'assistant', content: of('text', (p) => p.text)?.join('') || null, parts, thinking: of('thinking', ({ type, ...t }) => t), toolCalls: of('tool-call', (p) => p.call), origin };
}

/**
 * File data as the unified part holds it: a URL, or base64 (without Node's Buffer: the bridge runs
 * in browsers and Workers too); none for data the unified parts have no form for (a provider reference, inline text).
 */
function dataOf(d: FilePart['data']): { url: string } | { data: string } | undefined {
  if (d.type === 'url') return { url: d.url.href };
  if (d.type !== 'data') return undefined;
  const bytes = d.data;
  if (isString(bytes)) return { data: bytes };
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return { data: btoa(s) };
}
