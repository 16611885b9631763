/**
 * AI SDK call options → one unified request (docs/ai-sdk.md, "From the AI SDK"). What the unified
 * request has no field for becomes a V4 warning naming where to put it instead, never a silent
 * drop; a prompt part the unified model cannot carry is an error before anything is sent.
 */
import {
  UnsupportedFunctionalityError,
  type LanguageModelV4CallOptions,
  type LanguageModelV4FilePart,
  type LanguageModelV4Message,
  type LanguageModelV4ToolResultOutput,
  type SharedV4Warning,
} from '@ai-sdk/provider';
import type { ProviderAdapter } from '../runtime/contract/adapter.js';
import type {
  AssistantMessage,
  CallOptions,
  ChatRequest,
  ContentPart,
  Message,
  ReasoningOptions,
  ResponsePart,
  ThinkingPart,
  ToolCall,
  ToolSpec,
} from '../runtime/contract/unified-model.js';
import { fieldsOf, KEY, type Origin } from './part-metadata.js';

export interface Converted {
  request: ChatRequest;
  call: CallOptions;
  warnings: SharedV4Warning[];
}

/** Call options the unified request has no field for: pass them to the wire under providerOptions.<spec id>. */
const NO_UNIFIED_FIELD = ['topK', 'seed', 'presencePenalty', 'frequencyPenalty'] as const;

/** Unified request fields `providerOptions.wireforge` may set (the AI SDK has no option for them). */
const FROM_OPTIONS = ['store', 'parallelToolCalls', 'providerOptions', 'user', 'metadata', 'previousResponseId', 'reasoning'] as const;

/** Reasoning budgets for wires that turn thinking on by a budget: a share of maxOutputTokens, at least 1,024. */
const BUDGET_SHARE = { minimal: 0.1, low: 0.25, medium: 0.5, high: 0.75, xhigh: 0.85, max: 0.9 } as const;
/** The same levels when the call sets no maxOutputTokens. */
const BUDGET_TOKENS = { minimal: 1024, low: 2048, medium: 8192, high: 16384, xhigh: 24576, max: 32000 } as const;
const EFFORTS = ['minimal', 'low', 'medium', 'high'] as const;

export function toRequest(options: LanguageModelV4CallOptions, adapter: ProviderAdapter, model: string): Converted {
  const warnings: SharedV4Warning[] = [];
  const request: ChatRequest = { model, messages: toMessages(options.prompt, warnings) };
  if (options.maxOutputTokens !== undefined) request.maxTokens = options.maxOutputTokens;
  if (options.temperature !== undefined) request.temperature = options.temperature;
  if (options.topP !== undefined) request.topP = options.topP;
  if (options.stopSequences?.length) request.stop = options.stopSequences;
  for (const name of NO_UNIFIED_FIELD) {
    if (options[name] !== undefined) {
      warnings.push({ type: 'unsupported', feature: name, details: `wireforge's unified request has no ${name}; set the wire's own field under providerOptions.${KEY}.providerOptions` });
    }
  }
  if (options.responseFormat?.type === 'json') {
    const f = options.responseFormat;
    request.responseFormat = f.schema ? { type: 'json_schema', name: f.name ?? 'response', schema: f.schema as Record<string, unknown> } : { type: 'json' };
  }
  if (options.tools?.length) request.tools = toTools(options.tools, warnings);
  // `auto` is every wire's default (the AI SDK sends it even without tools): only a real choice is passed on.
  const c = options.toolChoice;
  if (c && c.type !== 'auto' && request.tools?.length) request.toolChoice = c.type === 'tool' ? { name: c.toolName } : c.type;
  const reasoning = toReasoning(options, adapter, warnings);
  if (reasoning) request.reasoning = reasoning;
  const own = options.providerOptions?.[KEY];
  if (own && typeof own === 'object') {
    for (const k of FROM_OPTIONS) if (own[k] !== undefined) (request as unknown as Record<string, unknown>)[k] = own[k];
  }
  // The wire's own fields, under the spec id, merged into the body by the spec's rules.
  const wire = options.providerOptions?.[adapter.id];
  if (wire && typeof wire === 'object') request.providerOptions = { ...(request.providerOptions ?? {}), ...wire };

  const call: CallOptions = {};
  if (options.abortSignal) call.signal = options.abortSignal;
  if (options.headers) {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(options.headers)) if (v !== undefined) headers[k] = v;
    call.headers = headers;
  }
  return { request, call, warnings };
}

function toTools(tools: NonNullable<LanguageModelV4CallOptions['tools']>, warnings: SharedV4Warning[]): ToolSpec[] {
  const out: ToolSpec[] = [];
  for (const t of tools) {
    if (t.type === 'function') {
      out.push({ name: t.name, ...(t.description === undefined ? {} : { description: t.description }), parameters: t.inputSchema as Record<string, unknown>, ...(t.strict === undefined ? {} : { strict: t.strict }) });
    } else if (t.id.startsWith(`${KEY}.`)) {
      out.push({ type: 'provider', name: t.id.slice(KEY.length + 1), options: t.args });
    } else {
      warnings.push({ type: 'unsupported', feature: `provider tool ${t.id}`, details: `wireforge takes provider tools as { type: 'provider', id: '${KEY}.<name>' }; this one was not sent` });
    }
  }
  return out;
}

/** The AI SDK's reasoning level: a budget where the spec turns thinking on by one, else the effort. */
function toReasoning(options: LanguageModelV4CallOptions, adapter: ProviderAdapter, warnings: SharedV4Warning[]): ReasoningOptions | undefined {
  const level = options.reasoning;
  if (level === undefined || level === 'provider-default') return undefined;
  if (level === 'none') return undefined;
  const params = adapter.profile.request.params;
  const takes = (field: 'reasoning.budgetTokens' | 'reasoning.effort') => {
    const rule = params[field];
    return rule !== undefined && 'to' in rule;
  };
  if (takes('reasoning.budgetTokens')) {
    const max = options.maxOutputTokens;
    return { budgetTokens: max === undefined ? BUDGET_TOKENS[level] : Math.max(1024, Math.round(max * BUDGET_SHARE[level])) };
  }
  if (takes('reasoning.effort')) {
    const effort = (EFFORTS as readonly string[]).includes(level) ? (level as ReasoningOptions['effort']) : 'high';
    if (effort !== level) warnings.push({ type: 'compatibility', feature: 'reasoning', details: `reasoning "${level}" is sent as effort "${effort}", the highest the unified request has` });
    return { effort };
  }
  warnings.push({ type: 'unsupported', feature: 'reasoning', details: `${adapter.id} has no reasoning setting` });
  return undefined;
}

function toMessages(prompt: LanguageModelV4Message[], warnings: SharedV4Warning[]): Message[] {
  const out: Message[] = [];
  prompt.forEach((m, i) => {
    switch (m.role) {
      case 'system':
        out.push({ role: 'system', content: m.content });
        break;
      case 'user':
        out.push({ role: 'user', content: m.content.map((p, j) => (p.type === 'text' ? { type: 'text', text: p.text } : filePart(p, `prompt[${i}].content[${j}]`))) });
        break;
      case 'assistant':
        out.push(toAssistant(m.content, i, warnings));
        break;
      case 'tool':
        for (const p of m.content) {
          if (p.type === 'tool-approval-response') out.push({ role: 'approval', requestId: p.approvalId, approve: p.approved, ...(p.reason === undefined ? {} : { reason: p.reason }) });
          else out.push({ role: 'tool', toolCallId: p.toolCallId, toolName: p.toolName, ...toolOutput(p.output, `prompt[${i}]`) });
        }
        break;
    }
  });
  return out;
}

/** An image as the unified image part; any other file has no place in the unified model. */
function filePart(p: LanguageModelV4FilePart, where: string): ContentPart {
  const media = p.mediaType === 'image/*' ? undefined : p.mediaType;
  if (!p.mediaType.startsWith('image/')) {
    throw new UnsupportedFunctionalityError({ functionality: `${where}: a ${p.mediaType} file (wireforge's unified user content takes text and images)` });
  }
  const d = p.data;
  if (d.type === 'url') return { type: 'image', url: d.url.toString(), ...(media ? { mediaType: media } : {}) };
  if (d.type === 'data') return { type: 'image', data: typeof d.data === 'string' ? d.data : base64(d.data), ...(media ? { mediaType: media } : {}) };
  throw new UnsupportedFunctionalityError({ functionality: `${where}: a file given by ${d.type}` });
}

function toolOutput(o: LanguageModelV4ToolResultOutput, where: string): { content: string | ContentPart[]; isError?: boolean } {
  switch (o.type) {
    case 'text':
      return { content: o.value };
    case 'json':
      return { content: JSON.stringify(o.value) };
    case 'error-text':
      return { content: o.value, isError: true };
    case 'error-json':
      return { content: JSON.stringify(o.value), isError: true };
    case 'execution-denied':
      return { content: o.reason ? `The tool call was denied: ${o.reason}` : 'The tool call was denied.', isError: true };
    case 'content':
      return {
        content: o.value.map((v, j): ContentPart => {
          if (v.type === 'text') return { type: 'text', text: v.text };
          if (v.type === 'file') return filePart({ type: 'file', data: v.data, mediaType: v.mediaType }, `${where}.output.value[${j}]`);
          throw new UnsupportedFunctionalityError({ functionality: `${where}.output.value[${j}]: a custom tool output part` });
        }),
      };
  }
}

type AssistantContent = Extract<LanguageModelV4Message, { role: 'assistant' }>['content'];

/**
 * An assistant turn as the unified message: its parts in order, and the text, thinking and calls
 * they hold (the fields a wire without ordered parts writes from), with the origin its parts carry.
 */
function toAssistant(content: AssistantContent, i: number, warnings: SharedV4Warning[]): AssistantMessage {
  const parts: ResponsePart[] = [];
  const thinking: ThinkingPart[] = [];
  const calls: ToolCall[] = [];
  let text = '';
  let origin: Origin | undefined;
  for (const p of content) {
    const { fields, origin: from } = fieldsOf(p.providerOptions);
    origin ??= from;
    switch (p.type) {
      case 'text':
        text += p.text;
        parts.push({ ...fields, type: 'text', text: p.text } as ResponsePart);
        break;
      case 'reasoning': {
        const t = { ...fields, text: p.text } as ThinkingPart;
        thinking.push(t);
        parts.push({ type: 'thinking', ...t });
        break;
      }
      case 'tool-call':
        if (p.providerExecuted) {
          parts.push({ ...fields, type: 'provider-tool-call', id: p.toolCallId, name: p.toolName, input: p.input } as ResponsePart);
        } else {
          const call = { ...fields, id: p.toolCallId, name: p.toolName, arguments: typeof p.input === 'string' ? p.input : JSON.stringify(p.input ?? {}) } as ToolCall;
          calls.push(call);
          parts.push({ type: 'tool-call', call });
        }
        break;
      case 'tool-result': {
        const o = p.output;
        const result = o.type === 'json' || o.type === 'error-json' || o.type === 'text' || o.type === 'error-text' ? o.value : o.type === 'content' ? o.value : (o.reason ?? null);
        parts.push({ ...fields, type: 'provider-tool-result', callId: p.toolCallId, name: p.toolName, result, ...(o.type.startsWith('error') || o.type === 'execution-denied' ? { isError: true } : {}) } as ResponsePart);
        break;
      }
      case 'file':
        if (p.data.type === 'data' || p.data.type === 'url') {
          const d = p.data;
          parts.push({ ...fields, type: 'file', mediaType: p.mediaType, ...(d.type === 'url' ? { url: d.url.toString() } : { data: typeof d.data === 'string' ? d.data : base64(d.data) }) } as ResponsePart);
        }
        break;
      case 'custom':
        if ('kind' in fields || 'value' in fields) parts.push({ ...fields, type: 'opaque', kind: String(fields.kind ?? p.kind) } as ResponsePart);
        break;
      default:
        warnings.push({ type: 'unsupported', feature: `prompt[${i}] ${p.type} part`, details: 'wireforge\'s unified assistant turn has no place for it; it was not sent' });
    }
  }
  const m: AssistantMessage = { role: 'assistant', content: text === '' ? null : text, parts };
  if (thinking.length) m.thinking = thinking;
  if (calls.length) m.toolCalls = calls;
  if (origin) m.origin = origin.model === undefined ? { provider: origin.provider } : { provider: origin.provider, model: origin.model };
  return m;
}

/** Bytes as base64 without Node's Buffer (the bridge runs in browsers and Workers too). */
function base64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}
