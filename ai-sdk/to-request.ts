/**
 * AI SDK call options → one unified request (docs/ai-sdk.md, "From the AI SDK"). What the unified
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
import type { AssistantMessage, CallOptions, ChatRequest, ContentPart, Message, ReasoningOptions, ResponsePart, ThinkingPart, ToolCall, ToolSpec } from '../runtime/contract/unified-model.js';
import { fieldsOf, KEY, type Origin } from './part-metadata.js';

export interface Converted {
  request: ChatRequest;
  call: CallOptions;
  warnings: V4Warning[];
}

/** Call options the unified request has no field for: the wire's own field goes under providerOptions.<spec id>. */
const NO_FIELD = ['topK', 'seed', 'presencePenalty', 'frequencyPenalty'] as const;
/** Unified request fields `providerOptions.wireforge` may set (the AI SDK has no option for them). */
const FROM_OPTIONS = ['store', 'parallelToolCalls', 'providerOptions', 'user', 'metadata', 'previousResponseId', 'reasoning'];
/** Reasoning levels for wires that turn thinking on by a budget: a share of maxOutputTokens (at least 1,024), or these tokens without one. */
const BUDGET: Record<string, [share: number, tokens: number]> = { minimal: [0.1, 1024], low: [0.25, 2048], medium: [0.5, 8192], high: [0.75, 16384], xhigh: [0.85, 24576], max: [0.9, 32000] };
const EFFORTS = ['minimal', 'low', 'medium', 'high'];

export function toRequest(o: Options, adapter: ProviderAdapter, model: string): Converted {
  const warnings: V4Warning[] = [];
  const r: ChatRequest = {
    model,
    messages: toMessages(o.prompt, warnings),
    maxTokens: o.maxOutputTokens,
    temperature: o.temperature,
    topP: o.topP,
    stop: o.stopSequences?.length ? o.stopSequences : undefined,
  };
  for (const name of NO_FIELD) if (o[name] !== undefined) warnings.push({ type: 'unsupported', feature: name, details: `no unified field: set the wire's own under providerOptions.${adapter.id}` });
  const f = o.responseFormat;
  if (f?.type === 'json') r.responseFormat = f.schema ? { type: 'json_schema', name: f.name ?? 'response', schema: f.schema as Record<string, unknown> } : { type: 'json' };
  if (o.tools?.length) r.tools = toTools(o.tools, warnings);
  // `auto` is every wire's default (the AI SDK sends it even without tools): only a real choice is passed on.
  const c = o.toolChoice;
  if (c && c.type !== 'auto' && r.tools?.length) r.toolChoice = c.type === 'tool' ? { name: c.toolName } : c.type;
  r.reasoning = toReasoning(o, adapter, warnings);
  const own = o.providerOptions?.[KEY] as Record<string, unknown> | undefined;
  for (const k of FROM_OPTIONS) if (own?.[k] !== undefined) (r as unknown as Record<string, unknown>)[k] = own[k];
  // The wire's own fields, under the spec id, merged into the body by the spec's rules.
  const wire = o.providerOptions?.[adapter.id];
  if (wire) r.providerOptions = { ...r.providerOptions, ...wire };
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(o.headers ?? {})) if (v !== undefined) headers[k] = v;
  return { request: r, call: { signal: o.abortSignal, headers }, warnings };
}

function toTools(tools: NonNullable<Options['tools']>, warnings: V4Warning[]): ToolSpec[] {
  const out: ToolSpec[] = [];
  for (const t of tools) {
    if (t.type === 'function') out.push({ name: t.name, description: t.description, parameters: t.inputSchema as Record<string, unknown>, strict: t.strict });
    else if (t.id.startsWith(`${KEY}.`)) out.push({ type: 'provider', name: t.id.slice(KEY.length + 1), options: t.args });
    else warnings.push({ type: 'unsupported', feature: `tool ${t.id}`, details: `not sent: provider tools are ${KEY}.<name> (providerTool())` });
  }
  return out;
}

/** The AI SDK's reasoning level: a budget where the spec turns thinking on by one, else the effort. */
function toReasoning(o: Options, adapter: ProviderAdapter, warnings: V4Warning[]): ReasoningOptions | undefined {
  const level = o.reasoning;
  if (level === undefined || level === 'provider-default' || level === 'none') return undefined;
  const takes = (field: 'reasoning.budgetTokens' | 'reasoning.effort') => 'to' in (adapter.profile.request.params[field] ?? {});
  const [share, tokens] = BUDGET[level]!;
  if (takes('reasoning.budgetTokens')) return { budgetTokens: o.maxOutputTokens ? Math.max(1024, Math.round(o.maxOutputTokens * share)) : tokens };
  const effort = EFFORTS.includes(level) ? level : 'high';
  if (effort !== level || !takes('reasoning.effort')) warnings.push({ type: 'compatibility', feature: 'reasoning', details: `"${level}" sent as effort "${effort}"` });
  return { effort: effort as ReasoningOptions['effort'] };
}

function toMessages(prompt: V4Message[], warnings: V4Warning[]): Message[] {
  const out: Message[] = [];
  prompt.forEach((m, i) => {
    if (m.role === 'system') out.push({ role: 'system', content: m.content });
    else if (m.role === 'user') out.push({ role: 'user', content: m.content.map((p, j) => (p.type === 'text' ? { type: 'text', text: p.text } : image(p, `prompt[${i}].content[${j}]`))) });
    else if (m.role === 'assistant') out.push(toAssistant(m.content, i, warnings));
    else {
      for (const p of m.content) {
        out.push(p.type === 'tool-approval-response' ? { role: 'approval', requestId: p.approvalId, approve: p.approved, reason: p.reason } : { role: 'tool', toolCallId: p.toolCallId, toolName: p.toolName, ...toolOutput(p.output, `prompt[${i}]`) });
      }
    }
  });
  return out;
}

/** An image as the unified image part; any other file has no place in the unified model. */
function image(p: Pick<FilePart, 'data' | 'mediaType'>, where: string): ContentPart {
  const d = p.data;
  if (!p.mediaType.startsWith('image/') || (d.type !== 'url' && d.type !== 'data')) {
    throw new UnsupportedFunctionalityError({ functionality: `${where}: a ${p.mediaType} ${d.type} file (unified user content is text and images)` });
  }
  const mediaType = p.mediaType === 'image/*' ? undefined : p.mediaType;
  return d.type === 'url' ? { type: 'image', url: d.url.href, mediaType } : { type: 'image', data: base64(d.data), mediaType };
}

function toolOutput(o: ToolOutput, where: string): { content: string | ContentPart[]; isError?: boolean } {
  const isError = o.type.startsWith('error') || o.type === 'execution-denied';
  if (o.type === 'execution-denied') return { content: `The tool call was denied${o.reason ? `: ${o.reason}` : '.'}`, isError };
  if (o.type === 'content') {
    return {
      content: o.value.map((v, j) => {
        if (v.type === 'text') return { type: 'text', text: v.text };
        if (v.type === 'file') return image(v, `${where}.output[${j}]`);
        throw new UnsupportedFunctionalityError({ functionality: `${where}.output[${j}]: a custom tool output part` });
      }),
    };
  }
  return { content: typeof o.value === 'string' ? o.value : JSON.stringify(o.value), isError };
}

type AssistantContent = Extract<V4Message, { role: 'assistant' }>['content'];

/**
 * An assistant turn as the unified message: its parts in order, and the text, thinking and calls
 * they hold (the fields a wire without ordered parts writes from), with the origin its parts carry.
 */
function toAssistant(content: AssistantContent, i: number, warnings: V4Warning[]): AssistantMessage {
  const parts: ResponsePart[] = [];
  const thinking: ThinkingPart[] = [];
  const toolCalls: ToolCall[] = [];
  let text = '';
  let origin: Origin | undefined;
  for (const p of content) {
    const { fields, origin: from } = fieldsOf(p.providerOptions);
    origin ??= from;
    let part: Record<string, unknown> | undefined;
    if (p.type === 'text') {
      text += p.text;
      part = { ...fields, type: 'text', text: p.text };
    } else if (p.type === 'reasoning') {
      thinking.push({ ...fields, text: p.text });
      part = { type: 'thinking', ...fields, text: p.text };
    } else if (p.type === 'tool-call' && p.providerExecuted) {
      part = { ...fields, type: 'provider-tool-call', id: p.toolCallId, name: p.toolName, input: p.input };
    } else if (p.type === 'tool-call') {
      const call = { ...fields, id: p.toolCallId, name: p.toolName, arguments: typeof p.input === 'string' ? p.input : JSON.stringify(p.input ?? {}) };
      toolCalls.push(call);
      part = { type: 'tool-call', call };
    } else if (p.type === 'tool-result') {
      const o = p.output;
      part = { ...fields, type: 'provider-tool-result', callId: p.toolCallId, name: p.toolName, result: 'value' in o ? o.value : null, isError: o.type.startsWith('error') || undefined };
    } else if (p.type === 'custom' && 'kind' in fields) {
      part = { ...fields, type: 'opaque' };
    } else if (p.type === 'file' && (p.data.type === 'data' || p.data.type === 'url')) {
      part = { ...fields, type: 'file', mediaType: p.mediaType, ...(p.data.type === 'url' ? { url: p.data.url.href } : { data: base64(p.data.data) }) };
    } else {
      warnings.push({ type: 'unsupported', feature: `prompt[${i}] ${p.type} part`, details: 'not sent: no place in a unified assistant turn' });
    }
    if (part) parts.push(part as unknown as ResponsePart);
  }
  return { role: 'assistant', content: text || null, parts, thinking: thinking.length ? thinking : undefined, toolCalls: toolCalls.length ? toolCalls : undefined, origin };
}

/** Bytes as base64 without Node's Buffer (the bridge runs in browsers and Workers too); a string is base64 already. */
function base64(bytes: Uint8Array | string): string {
  if (typeof bytes === 'string') return bytes;
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}
