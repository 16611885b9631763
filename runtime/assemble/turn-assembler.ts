/**
 * Builds one ChatResponse from what the generated readers feed it, for blocking bodies and
 * streams alike (so both paths give equal results), and queues StreamEvents as it goes.
 * Methods take `unknown`: wire data is untrusted, so each checks the type it needs.
 */
import { ProviderError, StreamError } from '../errors.js';
import type {
  AssistantMessage,
  ChatResponse,
  FinishReason,
  StreamEvent,
  ThinkingPart,
  ToolCall,
  Usage,
  Warning,
} from '../types.js';
import { TextBuffer } from './text-buffer.js';
import { mergeUsage } from './merge-usage.js';

/** What the assembler needs from a provider's spec. */
export interface TurnRules {
  provider: string;
  mapFinishReason(raw: string, facts: { toolCalls: boolean; refusal: boolean }): FinishReason;
  mapUsage(raw: Record<string, unknown>): Usage;
}

interface OpenCall {
  index: number;
  key: unknown;
  id: string;
  name: string;
  /** Argument fragments, joined once when the call closes. */
  parts: TextBuffer;
  /** Set when the wire gave the arguments whole (object or final string). */
  full: string | undefined;
  signature: string | undefined;
  closed: boolean;
}

export class TurnAssembler {
  /** Events produced since the stream layer last drained them (streams only). */
  readonly events: StreamEvent[] = [];
  id: string | undefined;
  model: string | undefined;
  /** A terminal event or sentinel has been seen. */
  ended = false;
  private readonly rules: TurnRules;
  /** Queue StreamEvents as parts arrive (off for blocking bodies, and for streams only read to final()). */
  emit: boolean;
  private readonly text = new TextBuffer();
  private refusal = false;
  private readonly thinking: ThinkingPart[] = [];
  /** The text of each thinking block, by position in `thinking`; set on the parts when read. */
  private readonly thinkingText: TextBuffer[] = [];
  private openThinking: ThinkingPart | undefined;
  private openThinkingText: TextBuffer | undefined;
  /** Separator owed before the next thinking text, if the open block already has text. */
  private thinkingBreak: string | undefined;
  private readonly calls: OpenCall[] = [];
  private readonly callsByKey = new Map<unknown, OpenCall>();
  private rawFinish: string | null = null;
  private rawUsage: Record<string, unknown> | undefined;
  private readonly warnings: Warning[];
  private raw: unknown;

  private readonly redact: <T>(v: T) => T;
  private readonly requestModel: string | undefined;
  /** Thinking blocks the wire addresses by a key (OpenRouter `reasoning_details[].index`), by position in `thinking`. */
  private readonly thinkingByKey = new Map<unknown, number>();

  constructor(
    rules: TurnRules,
    options: { streaming: boolean; warnings?: Warning[]; redact?: <T>(v: T) => T; model?: string },
  ) {
    this.rules = rules;
    this.emit = options.streaming;
    this.warnings = options.warnings ?? [];
    this.redact = options.redact ?? identity;
    this.requestModel = options.model;
  }

  setMeta(id: unknown, model: unknown): void {
    if (this.id === undefined && typeof id === 'string') this.id = id;
    if (this.model === undefined && typeof model === 'string') this.model = model;
  }

  appendText(delta: unknown): void {
    if (typeof delta !== 'string' || delta === '') return;
    this.text.push(delta);
    if (this.emit) this.events.push({ type: 'text-delta', delta });
  }

  /** Refusal text is shown as text; the turn's finish reason can then become `refusal`. */
  appendRefusal(delta: unknown): void {
    if (typeof delta !== 'string' || delta === '') return;
    this.refusal = true;
    this.appendText(delta);
  }

  setThinkingId(id: unknown): void {
    if (typeof id !== 'string' || id === '') return;
    (this.openThinking ?? (this.startThinking(), this.openThinking!)).id = id;
  }

  startThinking(id?: unknown): void {
    const part: ThinkingPart = { text: '' };
    if (typeof id === 'string') part.id = id;
    this.thinking.push(part);
    this.thinkingText.push((this.openThinkingText = new TextBuffer()));
    this.openThinking = part;
    this.thinkingBreak = undefined;
  }

  /** Makes the block with this key the open one, creating it the first time the key is seen. */
  selectThinking(key: unknown): void {
    if (key === undefined || key === null) return;
    const at = this.thinkingByKey.get(key);
    if (at !== undefined) {
      this.openThinking = this.thinking[at];
      this.openThinkingText = this.thinkingText[at];
      this.thinkingBreak = undefined;
    } else {
      this.startThinking();
      this.thinkingByKey.set(key, this.thinking.length - 1);
    }
  }

  /** Summary text: appended like thinking text, and the block is marked as a summary. */
  appendThinkingSummary(delta: unknown): void {
    if (typeof delta !== 'string') return;
    (this.openThinking ?? (this.startThinking(), this.openThinking!)).summary = true;
    this.appendThinking(delta);
  }

  setThinkingFormat(format: unknown): void {
    if (typeof format !== 'string' || format === '') return;
    (this.openThinking ?? (this.startThinking(), this.openThinking!)).format = format;
  }

  /** A paragraph break in the open thinking block (e.g. a new summary part). */
  breakThinking(separator: string): void {
    this.thinkingBreak = separator;
  }

  appendThinking(delta: unknown): void {
    if (typeof delta !== 'string' || delta === '') return;
    if (this.openThinking === undefined) this.startThinking();
    const buffer = this.openThinkingText!;
    const text = this.thinkingBreak !== undefined && !buffer.empty ? this.thinkingBreak + delta : delta;
    this.thinkingBreak = undefined;
    buffer.push(text);
    if (this.emit) this.events.push({ type: 'thinking-delta', delta: text });
  }

  /** Signatures are opaque and replace any earlier value (a later event carries the final one). */
  setThinkingSignature(signature: unknown): void {
    if (typeof signature !== 'string' || signature === '') return;
    (this.openThinking ?? (this.startThinking(), this.openThinking!)).signature = signature;
  }

  setThinkingRedacted(data: unknown): void {
    if (typeof data !== 'string') return;
    (this.openThinking ?? (this.startThinking(), this.openThinking!)).redacted = data;
  }

  /** Opens a call; `key` (the wire's index or item id) tells calls of one turn apart. */
  openToolCall(key: unknown, id: unknown, name: unknown): void {
    if (key !== undefined && key !== null) {
      const existing = this.callsByKey.get(key);
      if (existing) {
        if (typeof id === 'string' && id !== existing.id) this.inconsistent(key, id, existing);
        return;
      }
    }
    this.open(key, id, name);
  }

  /**
   * The OpenAI-style fragment: the first fragment for a key opens the call (it carries id and
   * name); later ones append. Without a key, a new id starts a new call and no id continues the
   * last one.
   */
  toolCallDelta(key: unknown, id: unknown, name: unknown, fragment: unknown): void {
    let call: OpenCall | undefined;
    if (key !== undefined && key !== null) {
      call = this.callsByKey.get(key);
      if (call && typeof id === 'string' && id !== '' && id !== call.id) this.inconsistent(key, id, call);
    } else {
      const last = this.calls[this.calls.length - 1];
      call = typeof id === 'string' && id !== '' && id !== last?.id ? undefined : last;
    }
    if (!call) {
      if ((typeof id !== 'string' || id === '') && (typeof name !== 'string' || name === '')) {
        throw new StreamError({
          provider: this.rules.provider,
          reason: `tool-call fragment for ${key === undefined ? 'a call' : `index ${String(key)}`} that was never opened`,
          excerpt: typeof fragment === 'string' ? fragment.slice(0, 80) : undefined,
        });
      }
      call = this.open(key, id, name);
    } else if (call.name === '' && typeof name === 'string') {
      call.name = name;
    }
    this.appendArgs(call, fragment);
  }

  appendToolArguments(key: unknown, fragment: unknown): void {
    const call = this.callsByKey.get(key) ?? this.neverOpened(key, fragment);
    this.appendArgs(call, fragment);
  }

  /** Complete argument text that supersedes the fragments (e.g. a `.done` event). */
  setToolArguments(key: unknown, full: unknown): void {
    if (typeof full !== 'string') return;
    const call = this.callsByKey.get(key) ?? this.neverOpened(key, full);
    call.full = full;
  }

  /** A whole call in one piece: arguments as a string or as an object. */
  addToolCall(id: unknown, name: unknown, args: unknown, key?: unknown, signature?: unknown): void {
    // Rules for whole calls run on every event; an event without a call has no name and no id.
    if (typeof name !== 'string' && typeof id !== 'string') return;
    const call = this.open(key, id, name);
    if (typeof signature === 'string' && signature !== '') call.signature = signature;
    if (typeof args === 'string') this.appendArgs(call, args);
    else if (args !== undefined && args !== null) call.full = JSON.stringify(args);
    this.closeCall(call);
  }

  setToolArgumentsObject(key: unknown, args: unknown): void {
    if (args === undefined || args === null) return;
    const call = this.callsByKey.get(key) ?? this.neverOpened(key, undefined);
    call.full = JSON.stringify(args);
  }

  setToolSignature(key: unknown, signature: unknown): void {
    const call = this.callsByKey.get(key);
    if (call && typeof signature === 'string' && signature !== '') call.signature = signature;
  }

  closeToolCall(key: unknown): void {
    const call = this.callsByKey.get(key);
    if (call) this.closeCall(call);
  }

  setFinishReason(raw: unknown): void {
    if (typeof raw === 'string' && raw !== '') this.rawFinish = raw;
  }

  /** Replace the raw usage object (a snapshot). */
  setUsage(raw: unknown): void {
    if (!isObject(raw)) return;
    this.rawUsage = raw;
    if (this.emit) this.events.push({ type: 'usage', usage: this.rules.mapUsage(raw) });
  }

  /** Overwrite only the usage fields present (usage that arrives in pieces). */
  mergeUsage(raw: unknown): void {
    if (!isObject(raw)) return;
    this.rawUsage = this.rawUsage ? mergeUsage(this.rawUsage, raw) : raw;
    if (this.emit) this.events.push({ type: 'usage', usage: this.rules.mapUsage(this.rawUsage) });
  }

  /** An error object in the body or stream: raise it, keeping what arrived. */
  fail(message: unknown, type: unknown, code: unknown, body: unknown): never {
    const error = new ProviderError({
      provider: this.rules.provider,
      message: this.redact(typeof message === 'string' ? message : 'error event without a message'),
      type: typeof type === 'string' ? type : undefined,
      code: typeof code === 'string' || typeof code === 'number' ? String(code) : undefined,
      body: this.redact(body),
      retryable: false,
    });
    error.partial = this.result();
    throw error;
  }

  end(): void {
    this.ended = true;
  }

  get hasFinishReason(): boolean {
    return this.rawFinish !== null;
  }

  /** Nothing a turn is made of arrived: no text, reasoning, tool call or finish reason. */
  get isEmpty(): boolean {
    return this.text.empty && this.thinking.length === 0 && this.calls.length === 0 && this.rawFinish === null;
  }

  setRaw(raw: unknown): void {
    this.raw = raw;
  }

  /** Close every open call (end of turn) so each gets its `tool-call` event. */
  closeAll(): void {
    for (const call of this.calls) if (!call.closed) this.closeCall(call);
  }

  finishEvent(): StreamEvent {
    const r = this.result();
    return { type: 'finish', finishReason: r.finishReason, rawFinishReason: r.rawFinishReason, usage: r.usage };
  }

  /** The response so far; complete once the turn has ended. */
  result(): ChatResponse {
    const joined = this.text.toString();
    const text = joined === '' ? null : joined;
    const thinking = this.thinking.map((t, i) => ({ ...t, text: this.thinkingText[i]!.toString() }));
    const thinkingText = thinking.map((t) => t.text).join('');
    const toolCalls = this.calls.map(finalCall);
    const message: AssistantMessage = { role: 'assistant', content: text };
    const model = this.requestModel ?? this.model;
    message.origin = model === undefined ? { provider: this.rules.provider } : { provider: this.rules.provider, model };
    if (thinking.length) message.thinking = thinking;
    if (toolCalls.length) {
      message.toolCalls = this.calls.map((call, i) =>
        call.signature === undefined ? { ...toolCalls[i]! } : { ...toolCalls[i]!, signature: call.signature },
      );
    }
    const facts = { toolCalls: toolCalls.length > 0, refusal: this.refusal };
    return {
      id: this.id,
      model: this.model,
      text,
      thinking: thinkingText === '' ? null : thinkingText,
      toolCalls,
      message,
      finishReason: this.rawFinish === null ? null : this.rules.mapFinishReason(this.rawFinish, facts),
      rawFinishReason: this.rawFinish,
      usage: this.rawUsage ? this.rules.mapUsage(this.rawUsage) : null,
      warnings: this.warnings,
      raw:
        this.raw ??
        { id: this.id, model: this.model, finishReason: this.rawFinish, usage: this.rawUsage ?? null },
    };
  }

  private open(key: unknown, id: unknown, name: unknown): OpenCall {
    const index = this.calls.length;
    const call: OpenCall = {
      index,
      key,
      // Some wires (Gemini) give no id: make one, unique within the turn and, through the
      // response id, across the conversation (other providers reject repeated ids).
      id: typeof id === 'string' && id !== '' ? id : this.id === undefined ? `call_${index}` : `call_${this.id}_${index}`,
      name: typeof name === 'string' ? name : '',
      parts: new TextBuffer(),
      full: undefined,
      signature: undefined,
      closed: false,
    };
    this.calls.push(call);
    if (key !== undefined && key !== null) this.callsByKey.set(key, call);
    if (this.emit) this.events.push({ type: 'tool-call-start', index, id: call.id, name: call.name });
    return call;
  }

  private appendArgs(call: OpenCall, fragment: unknown): void {
    if (typeof fragment !== 'string' || fragment === '') return;
    call.parts.push(fragment);
    if (this.emit) this.events.push({ type: 'tool-call-delta', index: call.index, delta: fragment });
  }

  private closeCall(call: OpenCall): void {
    call.closed = true;
    if (this.emit) this.events.push({ type: 'tool-call', index: call.index, call: finalCall(call) });
  }

  private neverOpened(key: unknown, fragment: unknown): never {
    throw new StreamError({
      provider: this.rules.provider,
      reason: `tool-call fragment for index ${String(key)} that was never opened`,
      excerpt: typeof fragment === 'string' ? fragment.slice(0, 80) : undefined,
    });
  }

  private inconsistent(key: unknown, id: string, call: OpenCall): never {
    throw new StreamError({
      provider: this.rules.provider,
      reason: `two tool calls share index ${String(key)} (ids ${JSON.stringify(call.id)} and ${JSON.stringify(id)})`,
    });
  }
}

function finalCall(call: OpenCall): ToolCall {
  const joined = call.full ?? call.parts.toString();
  // A call with no argument text at all has no arguments: "{}" (DESIGN §2).
  const args = joined === '' ? '{}' : joined;
  const out: ToolCall = { id: call.id, name: call.name, arguments: args };
  if (call.full === undefined) {
    try {
      JSON.parse(args);
    } catch (e) {
      out.argumentsError = `not valid JSON: ${e instanceof Error ? e.message.slice(0, 120) : String(e)}`;
    }
  }
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function identity<T>(v: T): T {
  return v;
}
