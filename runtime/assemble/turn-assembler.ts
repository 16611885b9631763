/**
 * Builds one ChatResponse from what the generated readers feed it, for blocking bodies and
 * streams alike (so both paths give equal results), and queues StreamEvents as it goes.
 * Methods take `unknown`: wire data is untrusted, so each checks the type it needs.
 *
 * The parts of a turn live in units (text, thinking blocks, tool calls, usage); this facade keeps
 * the meta, the finish reason and the event queue, and is what generated code calls. Units are
 * made once per assembler and push events onto this object's queue (it is their EventSink).
 * Thinking blocks and kind-table parts are units only some wires have: the generated module
 * supplies them (`codec.uses`), and a turn without them has none of those parts.
 */
import type { Assembler, ResponsePartsOps, TextMetaOps, TextOps, ThinkingBlocksOps, TurnRules } from '../contract/assembler.js';
import type { EventSink, Placed } from '../contract/event-sink.js';
import type { AssistantMessage, ChatResponse, FinishReason, ResponsePart, StreamEvent, ThinkingPart, ToolCall, Warning } from '../contract/unified-model.js';
import { missingUse, ProviderError } from '../errors.js';
import { citationOf } from './citation.js';
import { isText } from './text-buffer.js';
import { TextPart } from './text-part.js';
import { ToolCalls } from './tool-calls.js';
import { UsageState } from './usage-state.js';
import { isArray, isString } from '../wire/read-path.js';

export class TurnAssembler implements EventSink, Assembler {
  /** Events produced since the stream layer last drained them (streams only). */
  readonly events: StreamEvent[] = [];
  /** Where each part began, in wire order (what `content` lists). */
  readonly order: Placed[] = [];
  lastSolid: Placed | undefined;

  place(p: Placed): void {
    this.order.push(p);
    if (p.aside !== true) this.lastSolid = p;
  }
  id: string | undefined;
  model: string | undefined;
  /** A terminal event or sentinel has been seen. */
  ended = false;
  /*
   * Fields the constructor always assigns are `declare`d (a bare declaration would be emitted
   * as a class field only to be overwritten). `id`, `model` and `lastSolid` stay fields: set
   * later, they keep every assembler's shape the same from the start.
   */
  declare readonly provider: string;
  readonly #rules: TurnRules;
  /** Queue StreamEvents as parts arrive (off for blocking bodies, and for streams only read to final()). */
  declare emit: boolean;
  /** The turn's text; text blocks and signatures are started and set through the functions of text-part.ts. */
  declare readonly text: TextOps;
  /** The text as the TextMeta unit, when the codec supplies it (signatures and phases). */
  declare readonly meta: TextMetaOps | undefined;
  readonly #reasoning: ThinkingBlocksOps | undefined;
  /** The turn's tool calls; calls that arrive in pieces are fed through the functions of tool-call-stream.ts. */
  declare readonly calls: ToolCalls;
  /** The turn's usage; usage that arrives in pieces is merged through `mergeUsage` (merge-usage.ts). */
  declare readonly usage: UsageState;
  /** The kind-table parts, when the codec supplies them (`parts` says when a reader needs them and they are missing). */
  declare readonly more: ResponsePartsOps | undefined;
  #rawFinish: string | null = null;
  readonly #warnings: Warning[];
  #raw: unknown;

  readonly #redact: <T>(v: T) => T;
  readonly #requestModel: string | undefined;

  constructor(
    rules: TurnRules,
    options: { streaming: boolean; warnings?: Warning[]; redact?: <T>(v: T) => T; model?: string },
  ) {
    this.provider = rules.provider;
    this.#rules = rules;
    this.emit = options.streaming;
    this.#warnings = options.warnings ?? [];
    this.#redact = options.redact ?? ((v) => v);
    this.#requestModel = options.model;
    const uses = rules.uses;
    this.meta = uses?.textMeta && new uses.textMeta(this);
    this.text = this.meta ?? new TextPart(this);
    this.#reasoning = uses?.thinking && new uses.thinking(this);
    this.calls = new ToolCalls(rules.provider, this);
    this.usage = new UsageState(rules, this);
    this.more = uses?.parts && new uses.parts(rules.provider, rules.parts, this, this.calls);
  }

  /** Reasoning blocks, for readers with thinking actions (`a.thinking.append(…)`); a hand-written codec that reads them without supplying the unit is told which. */
  get thinking(): ThinkingBlocksOps {
    return this.#reasoning ?? missingUse(this.provider, 'thinking');
  }

  /** Parts made by the kind table, for readers with part actions (`a.parts.add(…)`). */
  get parts(): ResponsePartsOps {
    return this.more ?? missingUse(this.provider, 'parts');
  }

  setMeta(id: unknown, model: unknown): void {
    // An empty id or model is none (Azure's prompt-filter chunk comes first with both blank).
    if (this.id === undefined && isText(id)) this.id = id;
    if (this.model === undefined && isText(model)) this.model = model;
  }

  appendText(delta: unknown): void {
    this.text.append(delta);
  }

  /** Citations of the open text: one wire citation object or a list of them. */
  addCitations(raw: unknown): void {
    const map = this.#rules.parts?.citation;
    for (const one of isArray(raw) ? raw : [raw]) {
      const c = citationOf(map, one);
      if (c !== undefined) this.text.addCitation(c);
    }
  }

  /** Refusal text is shown as text; the turn's finish reason can then become `refusal`. */
  appendRefusal(delta: unknown): void {
    this.text.appendRefusal(delta);
  }

  /** A whole call in one piece: arguments as a string or as an object. */
  addToolCall(id: unknown, name: unknown, args: unknown, key?: unknown, signature?: unknown): void {
    this.calls.add(id, name, args, key, signature, this.id);
  }

  setFinishReason(raw: unknown): void {
    if (isText(raw)) this.#rawFinish = raw;
  }

  /** Replace the raw usage object (a snapshot). */
  setUsage(raw: unknown): void {
    this.usage.set(raw);
  }

  /** An error object in the body or stream: raise it, keeping what arrived. */
  fail(message: unknown, type: unknown, code: unknown, body: unknown): never {
    const error = new ProviderError({
      provider: this.provider,
      // A key the provider echoes may sit in any of these.
      ...this.#redact({
        message: isString(message) ? message : 'error event without a message',
        type: isString(type) ? type : undefined,
        code: isString(code) || typeof code === 'number' ? String(code) : undefined,
        body,
      }),
      retryable: false,
    });
    error.partial = this.result();
    throw error;
  }

  end(): void {
    this.ended = true;
  }

  get hasFinishReason(): boolean {
    return this.#rawFinish !== null;
  }

  /** Nothing a turn is made of arrived: no text, reasoning, tool call or finish reason. */
  get isEmpty(): boolean {
    return this.text.empty && !this.#reasoning?.count && this.calls.count === 0 && !this.more?.count && this.#rawFinish === null;
  }

  setRaw(raw: unknown): void {
    this.#raw = raw;
  }

  /** Close every open call (end of turn) so each gets its `tool-call` event. */
  closeAll(): void {
    this.calls.closeAll();
    this.more?.closeAll();
  }

  /** The finish event from the three fields it carries: not a whole result(), which final() builds again. */
  finishEvent(): StreamEvent {
    return { type: 'finish', finishReason: this.#finishReason(), rawFinishReason: this.#rawFinish, usage: this.usage.mapped() };
  }

  #finishReason(): FinishReason | null {
    const raw = this.#rawFinish;
    return raw === null ? null : this.#rules.mapFinishReason(raw, { toolCalls: this.calls.count > 0, refusal: this.text.refusal });
  }

  /** Every part in the order it began; text, thinking and calls as fresh objects, others shared. */
  #content(thinking: ThinkingPartList, calls: ToolCall[]): ResponsePart[] {
    const out: ResponsePart[] = [];
    const text = this.text;
    for (const { unit, index } of this.order) {
      if (unit === 'text') {
        if (!text.isBlank(index)) out.push(text.part(index));
      } else if (unit === 'thinking') out.push({ type: 'thinking', ...thinking[index]! });
      else if (unit === 'call') out.push({ type: 'tool-call', call: calls[index]! });
      else for (const part of this.more!.at(index)) out.push(part);
    }
    return out;
  }

  /** The response so far; complete once the turn has ended. */
  result(): ChatResponse {
    const { provider, id, model: wireModel } = this;
    const rawFinish = this.#rawFinish;
    const text = this.text.value();
    const thinking = this.#reasoning?.parts() ?? [];
    const thinkingText = thinking.map((t) => t.text).join('');
    const toolCalls = this.calls.final();
    const message: AssistantMessage = { role: 'assistant', content: text };
    const model = this.#requestModel ?? wireModel;
    message.origin = { provider };
    if (model !== undefined) message.origin.model = model;
    if (thinking.length) message.thinking = thinking;
    const historyCalls = toolCalls.length ? this.calls.forMessage(toolCalls) : toolCalls;
    if (toolCalls.length) message.toolCalls = historyCalls;
    const content = this.#content(thinking, toolCalls);
    // The history's list: the same parts, but calls as the history copies (with their signatures).
    message.parts = historyCalls === toolCalls ? content.slice() : withCalls(content, historyCalls);
    const rawUsage = this.usage.raw;
    const response: ChatResponse = {
      id,
      model: wireModel,
      text,
      thinking: thinkingText === '' ? null : thinkingText,
      toolCalls,
      content,
      message,
      finishReason: this.#finishReason(),
      rawFinishReason: rawFinish,
      usage: this.usage.mapped(),
      warnings: this.#warnings,
      raw: this.#raw ?? { id, model: wireModel, finishReason: rawFinish, usage: rawUsage ?? null },
    };
    if (rawFinish !== null && this.#rules.continues?.includes(rawFinish)) response.paused = true;
    return response;
  }
}

type ThinkingPartList = ThinkingPart[];

const withCalls = (content: ResponsePart[], calls: ToolCall[]): ResponsePart[] => {
  let k = 0;
  return content.map((p) => (p.type === 'tool-call' ? { type: 'tool-call', call: calls[k++]! } : p));
};
