/**
 * Builds one ChatResponse from what the generated readers feed it, for blocking bodies and
 * streams alike (so both paths give equal results), and queues StreamEvents as it goes.
 * Methods take `unknown`: wire data is untrusted, so each checks the type it needs.
 *
 * The parts of a turn live in units (text, thinking blocks, tool calls, usage); this facade keeps
 * the meta, the finish reason and the event queue, and is what generated code calls. Units are
 * made once per assembler and push events onto this object's queue (it is their EventSink).
 */
import { ProviderError } from '../errors.js';
import type { AssistantMessage, ChatResponse, FinishReason, StreamEvent, Usage, Warning } from '../types.js';
import type { EventSink } from './event-sink.js';
import { TextPart } from './text-part.js';
import { ThinkingBlocks } from './thinking-blocks.js';
import { ToolCalls } from './tool-calls.js';
import { UsageState } from './usage-state.js';

/** What the assembler needs from a provider's spec. */
export interface TurnRules {
  provider: string;
  mapFinishReason(raw: string, facts: { toolCalls: boolean; refusal: boolean }): FinishReason;
  mapUsage(raw: Record<string, unknown>): Usage;
}

export class TurnAssembler implements EventSink {
  /** Events produced since the stream layer last drained them (streams only). */
  readonly events: StreamEvent[] = [];
  id: string | undefined;
  model: string | undefined;
  /** A terminal event or sentinel has been seen. */
  ended = false;
  private readonly rules: TurnRules;
  /** Queue StreamEvents as parts arrive (off for blocking bodies, and for streams only read to final()). */
  emit: boolean;
  private readonly text: TextPart;
  private readonly thinking: ThinkingBlocks;
  private readonly calls: ToolCalls;
  private readonly usage: UsageState;
  private rawFinish: string | null = null;
  private readonly warnings: Warning[];
  private raw: unknown;

  private readonly redact: <T>(v: T) => T;
  private readonly requestModel: string | undefined;

  constructor(
    rules: TurnRules,
    options: { streaming: boolean; warnings?: Warning[]; redact?: <T>(v: T) => T; model?: string },
  ) {
    this.rules = rules;
    this.emit = options.streaming;
    this.warnings = options.warnings ?? [];
    this.redact = options.redact ?? identity;
    this.requestModel = options.model;
    this.text = new TextPart(this);
    this.thinking = new ThinkingBlocks(this);
    this.calls = new ToolCalls(rules.provider, this);
    this.usage = new UsageState(rules, this);
  }

  setMeta(id: unknown, model: unknown): void {
    if (this.id === undefined && typeof id === 'string') this.id = id;
    if (this.model === undefined && typeof model === 'string') this.model = model;
  }

  appendText(delta: unknown): void {
    this.text.append(delta);
  }

  /** Refusal text is shown as text; the turn's finish reason can then become `refusal`. */
  appendRefusal(delta: unknown): void {
    this.text.appendRefusal(delta);
  }

  setThinkingId(id: unknown): void {
    this.thinking.setId(id);
  }

  startThinking(id?: unknown): void {
    this.thinking.start(id);
  }

  /** Makes the block with this key the open one, creating it the first time the key is seen. */
  selectThinking(key: unknown): void {
    this.thinking.select(key);
  }

  /** Summary text: appended like thinking text, and the block is marked as a summary. */
  appendThinkingSummary(delta: unknown): void {
    this.thinking.appendSummary(delta);
  }

  setThinkingFormat(format: unknown): void {
    this.thinking.setFormat(format);
  }

  /** A paragraph break in the open thinking block (e.g. a new summary part). */
  breakThinking(separator: string): void {
    this.thinking.breakText(separator);
  }

  appendThinking(delta: unknown): void {
    this.thinking.append(delta);
  }

  /** Signatures are opaque and replace any earlier value (a later event carries the final one). */
  setThinkingSignature(signature: unknown): void {
    this.thinking.setSignature(signature);
  }

  setThinkingRedacted(data: unknown): void {
    this.thinking.setRedacted(data);
  }

  /** Opens a call; `key` (the wire's index or item id) tells calls of one turn apart. */
  openToolCall(key: unknown, id: unknown, name: unknown): void {
    this.calls.open(key, id, name, this.id);
  }

  /** The OpenAI-style fragment (see ToolCalls.delta). */
  toolCallDelta(key: unknown, id: unknown, name: unknown, fragment: unknown): void {
    this.calls.delta(key, id, name, fragment, this.id);
  }

  appendToolArguments(key: unknown, fragment: unknown): void {
    this.calls.append(key, fragment);
  }

  /** Complete argument text that supersedes the fragments (e.g. a `.done` event). */
  setToolArguments(key: unknown, full: unknown): void {
    this.calls.set(key, full);
  }

  /** A whole call in one piece: arguments as a string or as an object. */
  addToolCall(id: unknown, name: unknown, args: unknown, key?: unknown, signature?: unknown): void {
    this.calls.add(id, name, args, key, signature, this.id);
  }

  setToolArgumentsObject(key: unknown, args: unknown): void {
    this.calls.setObject(key, args);
  }

  setToolSignature(key: unknown, signature: unknown): void {
    this.calls.setSignature(key, signature);
  }

  closeToolCall(key: unknown): void {
    this.calls.close(key);
  }

  setFinishReason(raw: unknown): void {
    if (typeof raw === 'string' && raw !== '') this.rawFinish = raw;
  }

  /** Replace the raw usage object (a snapshot). */
  setUsage(raw: unknown): void {
    this.usage.set(raw);
  }

  /** Overwrite only the usage fields present (usage that arrives in pieces). */
  mergeUsage(raw: unknown): void {
    this.usage.merge(raw);
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
    return this.text.empty && this.thinking.count === 0 && this.calls.count === 0 && this.rawFinish === null;
  }

  setRaw(raw: unknown): void {
    this.raw = raw;
  }

  /** Close every open call (end of turn) so each gets its `tool-call` event. */
  closeAll(): void {
    this.calls.closeAll();
  }

  finishEvent(): StreamEvent {
    const r = this.result();
    return { type: 'finish', finishReason: r.finishReason, rawFinishReason: r.rawFinishReason, usage: r.usage };
  }

  /** The response so far; complete once the turn has ended. */
  result(): ChatResponse {
    const text = this.text.value();
    const thinking = this.thinking.parts();
    const thinkingText = thinking.map((t) => t.text).join('');
    const toolCalls = this.calls.final();
    const message: AssistantMessage = { role: 'assistant', content: text };
    const model = this.requestModel ?? this.model;
    message.origin = model === undefined ? { provider: this.rules.provider } : { provider: this.rules.provider, model };
    if (thinking.length) message.thinking = thinking;
    if (toolCalls.length) message.toolCalls = this.calls.forMessage(toolCalls);
    const facts = { toolCalls: toolCalls.length > 0, refusal: this.text.refusal };
    const rawUsage = this.usage.raw;
    return {
      id: this.id,
      model: this.model,
      text,
      thinking: thinkingText === '' ? null : thinkingText,
      toolCalls,
      message,
      finishReason: this.rawFinish === null ? null : this.rules.mapFinishReason(this.rawFinish, facts),
      rawFinishReason: this.rawFinish,
      usage: this.usage.mapped(),
      warnings: this.warnings,
      raw: this.raw ?? { id: this.id, model: this.model, finishReason: this.rawFinish, usage: rawUsage ?? null },
    };
  }
}

function identity<T>(v: T): T {
  return v;
}
