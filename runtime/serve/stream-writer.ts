/**
 * Unified stream events → the wire's events, through the spec's serve steps. The writer keeps
 * the turn as it grows: blocks open when their first delta arrives and close when another kind
 * begins or the turn finishes, so a wire with block boundaries (Anthropic, Responses) gets them
 * whatever produced the events (a scripted turn, another provider upstream).
 */
import type { ProviderAdapter } from '../contract/adapter.js';
import type { AssistantMessage, FinishReason, ResponsePart, ThinkingPart, ToolCall, Usage, Warning } from '../contract/unified-model.js';
import type { ServeCodec, ServeEvent, ServeSlots, ServeStep } from '../contract/serve-codec.js';
import { turnFields, turnMessage, type ServedTurn } from './served-turn.js';
import { withParts } from './turn-events.js';
import { hasKind, kindItem } from './kind-items.js';
import { errorBody, type ServedError } from './error-body.js';

/** The id a block's item gets when its source has none: by the block's kind and index (default `<response id>_<index>`). */
export type MadeItemId = (kind: 'text' | 'thinking' | 'call', index: number, responseId: string) => string;

/** One wire event: its payload (JSON), and for SSE wires that name events, the name. */
export interface WireEvent {
  data: unknown;
  event?: string;
  /** An error the framing sends as its own kind of message (AWS event-stream `exception`), by type. */
  exception?: string;
}

/**
 * The turn as it stands, for what no event carries (docs/serving.md#reasoning-without-events):
 * a block with no text (Anthropic `redacted_thinking`, Bedrock `redactedContent`, OpenRouter's
 * encrypted detail), a block's fields (a format, the summary flag) and, on a wire whose items
 * have ids (`serve.itemId`), the upstream's id of each item (reasoning, message, call). Read at
 * block boundaries only, never per delta.
 */
export interface TurnSource {
  /** The turn so far: the upstream stream's `snapshot()` (`content`: its parts in wire order), the mock's scripted turn. */
  snapshot(): { message: AssistantMessage; content?: ResponsePart[] };
  /**
   * Whose reasoning it is to the caller: unset, the same protocol's (as it is); `mark`, a signing
   * dialect's (its data marked `<spec id>:`, dialects.ts); `foreign`, another protocol's (a block
   * with no text is left out, with a warning; ids and formats are not passed on).
   */
  reasoning?: { mark: string } | { foreign: string };
  /** The turn is whole from the start (the mock's scripted one): no part of it grows later. */
  whole?: boolean;
}

// `itemId` is made once per block (from its index), not once per delta.
type Block = (
  // `end`: the length its item's text has in the source, when the item is complete there (another part follows it).
  | { kind: 'text'; index: number; text: string; end?: number }
  // `part`: its position in the source's reasoning parts; `check`: a delta after the signature may begin the next block.
  | { kind: 'thinking'; index: number; text: string; signature?: string; part?: number; check?: boolean }
  // `at`: the call's unified index (its place in the source's calls).
  | { kind: 'call'; index: number; callIndex: number; at: number; id: string; name: string; text: string; waiting?: boolean; done?: ToolCall; first?: boolean }
) & { itemId?: string };
type CallBlock = Extract<Block, { kind: 'call' }>;

export class StreamWriter {
  private seq = 0;
  private blocks = 0;
  private calls = 0;
  /** Text and call blocks begun: the first one carries `$first` (Chat Completions' role chunk goes with it). */
  private shown = 0;
  private open: Block | undefined;
  /** Unified call index → the call, for deltas and the complete call. */
  private readonly byIndex = new Map<number, Extract<Block, { kind: 'call' }>>();
  private readonly text: string[] = [];
  private readonly thinking: ThinkingPart[] = [];
  private readonly toolCalls: ToolCall[] = [];
  /** Calls that began while another was open on a wire that writes one call block at a time. */
  private readonly waiting: CallBlock[] = [];
  /** Calls of a client-run kind (by unified index), written whole as their item when complete. */
  private readonly kindCalls = new Set<number>();
  /** Parts written in the provider's own form, for the turn the finish step describes. */
  private readonly wireParts: unknown[] = [];
  private usage: Usage | null = null;
  private finished = false;
  private started = false;
  /** What the wire could not carry (parts it has no step for, what the finished turn's form leaves out). */
  readonly #warnings: Warning[] = [];
  /** The finished turn's `$message`, when no step has read it yet: written when the warnings are asked for. */
  #pendingMessage: (() => unknown) | undefined;
  private readonly createdAt: string;
  /** How many of the source's reasoning parts are accounted for (written, or matched to a block). */
  #parts = 0;
  /** How many of the source's runs of text are matched to a text block (or passed over). */
  #texts = 0;
  /** Blocks begun other than reasoning (text, calls, whole items) and parts left out: a silent part after one not met yet waits for it. */
  #others = 0;
  /** Each block's part and item id, by block index: a wire with item ids writes the finished turn in block order, each item named as it streamed. */
  readonly #blockParts: ResponsePart[] = [];
  /** A call block's item id, by block index (its part does not say it). */
  readonly #callIds: string[] = [];

  constructor(
    private readonly adapter: ProviderAdapter,
    private readonly serve: ServeCodec,
    private readonly turn: { id: string; model: string; created: number; request?: unknown },
    private readonly source?: TurnSource,
    private readonly madeId: MadeItemId = (_kind, index, id) => `${id}_${index}`,
  ) {
    this.createdAt = new Date(turn.created * 1000).toISOString();
  }

  write(e: ServeEvent): WireEvent[] {
    const out: WireEvent[] = [];
    if (!this.started) {
      // Usage known before the turn begins (the input) goes into the start event (Anthropic's message_start).
      if (e.type === 'usage') {
        this.usage = e.usage;
        return out;
      }
      if (e.type !== 'start') this.start(out, {});
    }
    switch (e.type) {
      case 'start':
        if (!this.started) this.start(out, e);
        break;
      case 'text-delta': {
        let b = this.opened(out, 'text', e.delta);
        // The block's item is complete in the source (the turn read ahead): the delta begins the next one.
        if (b.end !== undefined && b.text.length >= b.end) {
          this.close(out);
          b = this.opened(out, 'text', e.delta);
        }
        b.text += e.delta;
        this.emit(out, 'textDelta', this.blockSlots(b, { delta: e.delta }));
        break;
      }
      case 'thinking-delta': {
        let b = this.opened(out, 'thinking');
        // Once per block, after its signature: a delta of the next reasoning block (no other event between) begins that block.
        if (b.check && ((b.check = false), this.nextBlock(b))) {
          this.close(out);
          b = this.opened(out, 'thinking');
        }
        // Its first text (a block may begin with its signature, or have none: Responses' summary part opens here).
        if (b.text === '' && this.serve.stream.thinkingText) this.emit(out, 'thinkingText', this.blockSlots(b, {}));
        b.text += e.delta;
        this.emit(out, 'thinkingDelta', this.blockSlots(b, { delta: e.delta }));
        break;
      }
      case 'thinking-signature': {
        // Another protocol's signature (or encrypted reasoning) is valid only there: not passed on, as no other reasoning state is.
        if (this.crosses()) {
          this.foreignSignature();
          break;
        }
        let b = this.opened(out, 'thinking');
        // A block already signed, and a signature not its own: the next reasoning part's (Responses
        // sends each item's encrypted content when it is added), which begins with it.
        if (b.signature !== undefined && e.signature !== b.signature && this.signedLater(b)) {
          this.close(out);
          b = this.opened(out, 'thinking');
        }
        b.signature = e.signature;
        if (this.source) b.check = true;
        this.emit(out, 'thinkingSignature', this.blockSlots(b, {}));
        break;
      }
      case 'tool-call-start':
        // A call of a client-run kind this wire has goes out whole as its item, when it is complete.
        if (e.kind !== undefined && this.serve.stream.part && hasKind(this.adapter, e.kind)) this.kindCalls.add(e.index);
        else this.startCall(out, e.index, e.id, e.name);
        break;
      case 'tool-call-delta': {
        if (this.kindCalls.has(e.index)) break;
        const b = this.byIndex.get(e.index) ?? this.startCall(out, e.index, '', '');
        b.text += e.delta;
        if (!this.serve.stream.toolCall && !b.waiting) this.emit(out, 'toolCallDelta', this.blockSlots(b, { delta: e.delta }));
        break;
      }
      case 'tool-call': {
        // A client-run kind's item: the upstream's own (same protocol), else one made from the call.
        const item = this.kindCalls.has(e.index) || (e.call.kind !== undefined && this.serve.stream.part && !this.byIndex.has(e.index)) ? (this.sourceCall(e.index, e.call.id)?.wire ?? kindItem(this.adapter, e.call, `${this.turn.id}_call${e.index}`)) : undefined;
        if (item !== undefined) {
          this.wholeItem(out, item);
          break;
        }
        const b = this.byIndex.get(e.index) ?? this.startCall(out, e.index, e.call.id, e.call.name);
        if (b.waiting) {
          b.done = e.call;
          break;
        }
        // Arguments that did not stream (a wire that sends calls whole upstream) go out as one delta.
        const rest = e.call.arguments.startsWith(b.text) ? e.call.arguments.slice(b.text.length) : '';
        b.text = e.call.arguments;
        if (rest && !this.serve.stream.toolCall) this.emit(out, 'toolCallDelta', this.blockSlots(b, { delta: rest }));
        this.endCall(out, b, e.call);
        break;
      }
      case 'part': {
        const wire = 'wire' in e.part ? e.part.wire : undefined;
        if (wire === undefined || !this.serve.stream.part) {
          // Left out, but passed in the turn's order: a silent part after it may go now.
          this.#others++;
          this.#warnings.push({ type: 'dropped', field: `content.${e.part.type}`, message: `${this.adapter.profile.name} has no place here for a ${e.part.type} part in another provider's form; it was left out` });
          break;
        }
        this.wholeItem(out, wire);
        break;
      }
      case 'usage':
        this.usage = e.usage;
        break;
      case 'finish':
        this.finish(out, e.finishReason, e.usage ?? this.usage);
        break;
    }
    return out;
  }

  /** What the wire could not carry of the turn (complete once the turn finished). */
  get warnings(): Warning[] {
    this.#pendingMessage?.();
    return this.#warnings;
  }

  /** A part in the provider's own form (a hosted-tool item, a client-run call's item), whole. */
  private wholeItem(out: WireEvent[], wire: unknown): void {
    this.close(out);
    this.silentParts(out);
    const index = this.blocks++;
    this.#others++;
    this.wireParts.push(wire);
    this.#blockParts[index] = { type: 'opaque', kind: 'wire', value: wire, wire };
    this.emit(out, 'part', { id: this.turn.id, model: this.turn.model, created: this.turn.created, createdAt: this.createdAt, index, itemId: `${this.turn.id}_${index}`, wire });
  }

  /** An error in the middle of the stream, as the wire sends one (its error body as an event). */
  errorEvent(e: ServedError): WireEvent[] {
    const slots = { status: e.status, message: e.message, type: e.type, code: e.code } as Partial<ServeSlots>;
    if (this.serve.stream.error) {
      const out: WireEvent[] = [];
      this.emit(out, 'error', slots);
      return out;
    }
    const data = errorBody(this.adapter, this.serve, e);
    if (this.adapter.profile.stream.framing === 'event-stream') return [{ data, exception: e.type ?? 'internalServerException' }];
    const event = this.serve.eventName ? readName(data, this.serve.eventName) : undefined;
    return [event === undefined ? { data } : { data, event }];
  }

  /** The events after the last one: the finish (if none came) and the end. */
  end(): WireEvent[] {
    const out: WireEvent[] = [];
    if (!this.started) this.start(out, {});
    if (!this.finished) this.finish(out, null, this.usage);
    return out;
  }

  private start(out: WireEvent[], e: { id?: string | undefined; model?: string | undefined }): void {
    this.started = true;
    if (e.id) this.turn.id = e.id;
    if (e.model) this.turn.model = e.model;
    // The turn so far is written (two request builds) only for a wire whose stream has a start step.
    if (!this.serve.stream.start) return;
    // The start may describe the response as it begins (Responses' response.created): the body so far.
    this.emit(out, 'start', withResponse(this.turnSlots(null), this.serve));
  }

  /** The open block if it is of this kind, else a new one (the open one closed first); `first`: a text block's first text (its item is found by it in the source). */
  private opened<K extends 'text' | 'thinking'>(out: WireEvent[], kind: K, first?: string): Extract<Block, { kind: K }> {
    if (this.open?.kind === kind) return this.open as Extract<Block, { kind: K }>;
    this.close(out);
    const part = this.silentParts(out, kind === 'thinking');
    const b = { kind, index: this.blocks++, text: '' } as Extract<Block, { kind: K }>;
    this.open = b;
    if (kind === 'text') {
      this.#others++;
      const item = first === undefined ? undefined : this.sourceText(first);
      if (item?.id !== undefined) (b as Block).itemId = item.id;
      if (item?.end !== undefined) (b as Extract<Block, { kind: 'text' }>).end = item.end;
      this.emit(out, 'textStart', this.blockSlots(b, { first: this.shown++ === 0 }));
    } else {
      const t = b as Extract<Block, { kind: 'thinking' }>;
      if (part) {
        t.part = this.#parts - 1;
        if (part.id !== undefined && !this.crosses()) t.itemId = part.id;
      }
      this.emit(out, 'thinkingStart', this.thinkingSlots(t, part));
    }
    return b;
  }

  private startCall(out: WireEvent[], index: number, id: string, name: string): CallBlock {
    this.close(out);
    if (!this.open) this.silentParts(out);
    // A wire whose calls are blocks with a start and an end (Anthropic, Responses) cannot interleave
    // them: a call that begins while another is open waits, its deltas kept, until that one ends.
    if (this.serve.stream.toolCallEnd && this.open?.kind === 'call') {
      const b: CallBlock = { kind: 'call', index: -1, callIndex: this.calls++, id, name, text: '', waiting: true, at: index };
      this.byIndex.set(index, b);
      this.waiting.push(b);
      return b;
    }
    const b: CallBlock = { kind: 'call', index: this.blocks++, callIndex: this.calls++, id, name, text: '', first: this.shown++ === 0, at: index };
    this.#others++;
    this.byIndex.set(index, b);
    this.open = b;
    this.callItemId(b);
    if (!this.serve.stream.toolCall) this.emit(out, 'toolCallStart', this.blockSlots(b, { first: b.first }));
    return b;
  }

  private endCall(out: WireEvent[], b: Extract<Block, { kind: 'call' }>, call: ToolCall): void {
    this.toolCalls.push(call);
    this.#blockParts[b.index] = { type: 'tool-call', call };
    const whole = this.serve.stream.toolCall !== undefined;
    this.emit(out, whole ? 'toolCall' : 'toolCallEnd', this.blockSlots(b, whole ? { signature: call.signature, first: b.first } : { signature: call.signature }, true));
    this.#callIds[b.index] = b.itemId!;
    if (this.open === b) this.open = undefined;
    this.startWaiting(out);
  }

  /** The calls that waited, in order: each starts with what arrived of it; a complete one ends too. */
  private startWaiting(out: WireEvent[]): void {
    while (this.waiting.length && !this.open) {
      const b = this.waiting.shift()!;
      b.waiting = false;
      b.index = this.blocks++;
      this.#others++;
      b.itemId = undefined;
      b.first = this.shown++ === 0;
      this.open = b;
      this.callItemId(b);
      this.emit(out, 'toolCallStart', this.blockSlots(b, { first: b.first }));
      if (b.text) this.emit(out, 'toolCallDelta', this.blockSlots(b, { delta: b.text }));
      if (b.done) this.endCall(out, b, b.done);
    }
  }

  /** At the finish: calls that never got their complete event end with the arguments that arrived. */
  private settleCalls(out: WireEvent[]): void {
    for (let b = this.open; b?.kind === 'call'; b = this.open) this.endCall(out, b, { id: b.id, name: b.name, arguments: b.text });
  }

  /** Closes the open text or reasoning block (a call closes with its complete event). */
  private close(out: WireEvent[]): void {
    const b = this.open;
    // A call stays open until its complete event.
    if (!b || b.kind === 'call') return;
    this.open = undefined;
    if (b.kind === 'text') {
      this.text.push(b.text);
      this.emit(out, 'textEnd', this.blockSlots(b, {}));
      // The block's part with its item's id (the id the stream gave it), for the finished turn.
      this.#blockParts[b.index] = { type: 'text', text: b.text, id: b.itemId! };
    } else if (b.kind === 'thinking') {
      // The part's fields as they are now (a format or summary flag may come after the block began).
      const part = b.part === undefined ? undefined : this.reasoningParts()[b.part];
      this.endThinking(out, b, part);
    }
  }

  private endThinking(out: WireEvent[], b: Extract<Block, { kind: 'thinking' }>, part: ThinkingPart | undefined): void {
    const slots = this.thinkingSlots(b, part);
    const s = slots as { redacted?: string; format?: string; summary?: boolean };
    const t: ThinkingPart = {
      text: b.text,
      id: b.itemId!,
      ...(b.signature === undefined ? {} : { signature: b.signature }),
      ...(s.redacted === undefined ? {} : { redacted: s.redacted }),
      ...(s.format === undefined ? {} : { format: s.format }),
      ...(s.summary ? { summary: true as const } : {}),
    };
    this.thinking.push(t);
    this.#blockParts[b.index] = { type: 'thinking', ...t };
    this.emit(out, 'thinkingEnd', slots);
  }

  #signatureDropped = false;

  private foreignSignature(): void {
    if (this.#signatureDropped) return;
    this.#signatureDropped = true;
    const from = (this.source!.reasoning as { foreign: string }).foreign;
    this.#warnings.push({ type: 'dropped', field: 'thinking.signature', message: `reasoning signatures from ${from} are not valid for ${this.adapter.id}; they were left out` });
  }

  /** The reasoning crosses to another protocol or dialect: the upstream's ids and formats stay behind (a signing dialect keeps them, as markReasoning does). */
  private crosses(): boolean {
    return this.source?.reasoning !== undefined && 'foreign' in this.source.reasoning;
  }

  /**
   * Reasoning blocks no event announced (no text, no signature: redacted or encrypted data), from
   * the source, written whole in their place: before the block about to open, and at the finish.
   * Opening a reasoning block, the part it is (the next one with text or a signature), counted.
   */
  private silentParts(out: WireEvent[], thinking = false, final = false): ThinkingPart | undefined {
    if (!this.source) return undefined;
    const turn = this.source.snapshot();
    const parts = turn?.message?.thinking ?? [];
    const order = turn?.content ?? turn?.message?.parts;
    for (let p = parts[this.#parts]; p !== undefined && p.text === '' && p.signature === undefined; p = parts[this.#parts]) {
      // In its place: a part that comes after a block not begun yet (the turn read ahead of the
      // events) waits for that block's end. A reasoning block opening comes after it anyway.
      if (!thinking && !final && othersBefore(order, this.#parts) > this.#others) break;
      if (p.redacted === undefined) {
        // Nothing but an id (a Responses item stored by the provider, no summary): complete once a
        // later part began (the last one may still get its text; a turn with an order or a whole
        // one says where it stands). Written whole on a wire whose items have ids, the same
        // protocol's (OpenAI wants it before the item it produced); elsewhere passed over.
        if (this.#parts === parts.length - 1 && !final && !order && !this.source.whole) break;
        this.#parts++;
        if (this.serve.itemId === undefined || p.id === undefined || this.crosses()) continue;
      } else this.#parts++;
      if (this.crosses()) {
        this.#warnings.push({ type: 'dropped', field: 'thinking', message: `redacted reasoning from ${(this.source.reasoning as { foreign: string }).foreign} is not valid for ${this.adapter.id}; it was left out` });
        continue;
      }
      const b: Extract<Block, { kind: 'thinking' }> = { kind: 'thinking', index: this.blocks++, text: '' };
      if (p.id !== undefined) b.itemId = p.id;
      this.emit(out, 'thinkingStart', this.thinkingSlots(b, p));
      this.endThinking(out, b, p);
    }
    if (!thinking || parts[this.#parts] === undefined) return undefined;
    return parts[this.#parts++];
  }

  /** The source's reasoning parts as they stand (none from a stream that cannot say yet: a traced client's answers only at its end). */
  private reasoningParts(): ThinkingPart[] {
    return this.source?.snapshot()?.message?.thinking ?? [];
  }

  /** Whether a reasoning part after the block's own has a signature (read on a second signature only). */
  private signedLater(b: Extract<Block, { kind: 'thinking' }>): boolean {
    if (b.part === undefined) return false;
    const parts = this.reasoningParts();
    for (let i = b.part + 1; i < parts.length; i++) if (parts[i]!.signature !== undefined) return true;
    return false;
  }

  /** Whether a delta after the open block's signature is the next block's: the source's part for this block has no more text than arrived. */
  private nextBlock(b: Extract<Block, { kind: 'thinking' }>): boolean {
    if (b.part === undefined) return false;
    const part = this.reasoningParts()[b.part];
    return part !== undefined && part.text.length <= b.text.length;
  }

  /** A reasoning block's slots, with the fields of its part in the source (a signing dialect's data marked). */
  private thinkingSlots(b: Extract<Block, { kind: 'thinking' }>, part: ThinkingPart | undefined): Partial<ServeSlots> {
    const slots = this.blockSlots(b, {}) as { -readonly [K in keyof ServeSlots]?: ServeSlots[K] };
    if (!part) return slots;
    if (part.summary) slots.summary = true;
    if (this.crosses()) return slots;
    const from = this.source?.reasoning;
    if (part.redacted !== undefined) slots.redacted = from && 'mark' in from ? `${from.mark}:${part.redacted}` : part.redacted;
    if (part.format !== undefined) slots.format = part.format;
    return slots;
  }

  private finish(out: WireEvent[], reason: FinishReason | null, usage: Usage | null): void {
    this.close(out);
    this.startWaiting(out);
    this.settleCalls(out);
    this.silentParts(out, false, true);
    this.finished = true;
    this.usage = usage;
    const slots = this.turnSlots(reason);
    this.emit(out, 'finish', withResponse(slots, this.serve));
    this.emit(out, 'end', slots);
  }

  /**
   * The turn so far, as a served turn. On a wire whose items have ids, its parts in block order and
   * each item's id as the stream gave it (`itemIds`, by position), so the finished body names the
   * items as the events did.
   */
  served(reason: FinishReason | null): ServedTurn {
    const text = this.text.join('');
    const message: AssistantMessage = {
      role: 'assistant',
      content: text || null,
      ...(this.thinking.length ? { thinking: this.thinking } : {}),
      ...(this.toolCalls.length ? { toolCalls: this.toolCalls } : {}),
    };
    const turn: ServedTurn = { ...this.turn, message: withParts(message, this.wireParts), finishReason: reason, usage: this.usage };
    if (this.serve.itemId === undefined || !this.#blockParts.length) return turn;
    // Blocks still open (a call at the start) are not in the turn yet.
    const parts: ResponsePart[] = [];
    const ids: string[] = [];
    this.#blockParts.forEach((p, i) => {
      parts.push(p);
      ids.push(p.type === 'text' || p.type === 'thinking' ? p.id! : p.type === 'tool-call' ? this.#callIds[i]! : `${this.turn.id}_${i}`);
    });
    return { ...turn, message: { ...message, parts }, itemIds: ids };
  }

  /** The source's turn as it stands, for a wire whose items have ids, the same protocol's: none otherwise. */
  private sourceMessage(): AssistantMessage | undefined {
    if (this.serve.itemId === undefined || !this.source || this.crosses()) return undefined;
    return this.source.snapshot()?.message;
  }

  /**
   * The upstream's call at this unified index, when it is the call the block is (same id): its
   * item (`wire`) names it. Read at the call's start and end only.
   */
  private sourceCall(index: number, id: string): ToolCall | undefined {
    const call = this.sourceMessage()?.toolCalls?.[index];
    return call?.id === id && typeof call.wire === 'object' && call.wire !== null ? call : undefined;
  }

  /** A call block's item id: the upstream item's own (its `wire`'s id field), else one made when its first step is written. */
  private callItemId(b: CallBlock): void {
    const wire = this.sourceCall(b.at, b.id)?.wire as Record<string, unknown> | undefined;
    const id = wire?.[this.serve.itemId!];
    if (typeof id === 'string' && id !== '') b.itemId = id;
  }

  /**
   * A text block's item: the source's next run of text (a message item: text parts from one with an
   * id, or after another part, up to the next such) that begins with the block's first text. Runs
   * with no text (an empty message item) and runs that do not begin so (text an earlier block took
   * in) are passed over. Its id, and where its text ends in the block (`end`) when another part
   * follows it (the item is complete: a delta past it is the next item's).
   */
  private sourceText(first: string): { id: string | undefined; end: number | undefined } | undefined {
    const parts = this.sourceMessage()?.parts;
    if (!parts) return undefined;
    // A text after a call or other part begins with the separator the client puts before it.
    const lead = first.replace(/^\n\n/, '');
    let run = 0;
    for (const { id, text, next } of textRuns(parts)) {
      if (text === '' || run++ < this.#texts) continue;
      const whole = text.startsWith(first);
      if (!whole && !text.startsWith(lead)) continue;
      this.#texts = run;
      // The block's text has the separator the run's does not.
      return { id, end: next < parts.length ? text.length + (whole ? 0 : first.length - lead.length) : undefined };
    }
    return undefined;
  }

  /**
   * The turn's slots. `$message` (the turn in the wire's request form: a request build) is written
   * when a step reads it (Anthropic's and Responses' do, Chat Completions' stream does not), once;
   * at the finish its warnings join the writer's then, or when they are asked for.
   */
  private turnSlots(reason: FinishReason | null): Partial<ServeSlots> {
    const turn = this.served(reason);
    const keep = reason !== null || this.finished;
    let written: { message: unknown; warnings: Warning[] } | undefined;
    const message = (): unknown => {
      if (!written) {
        written = turnMessage(this.adapter, this.serve, turn);
        if (keep) this.#warnings.push(...written.warnings);
        if (this.#pendingMessage === message) this.#pendingMessage = undefined;
      }
      return written.message;
    };
    if (keep) this.#pendingMessage = message;
    return Object.defineProperty(turnFields(this.adapter, this.serve, turn), 'message', { get: message, enumerable: true, configurable: true }) as Partial<ServeSlots>;
  }

  /** The slots of a block's step; a call's parsed arguments only where its call is complete (they are parsed once). */
  private blockSlots(b: Block, extra: Partial<ServeSlots>, complete = false): Partial<ServeSlots> {
    // One object per step (a delta's hot path): the block's own fields added to it, not spread into copies.
    const slots: { -readonly [K in keyof ServeSlots]?: ServeSlots[K] } = { id: this.turn.id, model: this.turn.model, created: this.turn.created, createdAt: this.createdAt, index: b.index, itemId: (b.itemId ??= this.madeId(b.kind, b.index, this.turn.id)), text: b.text, arguments: b.text };
    if (b.kind === 'call') {
      slots.callId = b.id;
      slots.name = b.name;
      slots.callIndex = b.callIndex;
      if (complete) slots.argumentsObject = parseObject(b.text);
    } else if (b.kind === 'thinking') slots.signature = b.signature;
    return Object.assign(slots, extra);
  }

  private emit(out: WireEvent[], step: ServeStep, slots: Partial<ServeSlots>): void {
    const events = this.serve.stream[step];
    if (!events) return;
    const name = this.serve.eventName;
    const s = slots as { seq: number; envelope?: unknown };
    const { envelope, chunk } = this.serve;
    for (const template of events) {
      s.seq = this.seq++;
      if (envelope) s.envelope = envelope(s as unknown as ServeSlots);
      let written: unknown;
      if (typeof template === 'function') written = template(s as unknown as ServeSlots);
      else {
        // A chunk step writes its own part; the codec's chunk template places it (`$body`).
        if (!chunk) throw new TypeError(`serve.stream.${step}: a chunk event needs the codec's serve.chunk template`);
        const body = template.chunk(s as unknown as ServeSlots);
        written = body === undefined ? undefined : chunk(s as unknown as ServeSlots, body);
      }
      if (written === undefined) continue;
      // `$event` names the event where the payload does not (AWS event-stream's `:event-type`);
      // only such a payload is copied (without it).
      const $event = (written as Record<string, unknown>).$event;
      if (typeof $event === 'string') {
        const { $event: _named, ...data } = written as Record<string, unknown>;
        out.push({ data, event: $event });
        continue;
      }
      const event = name ? readName(written, name) : undefined;
      out.push(event === undefined ? { data: written } : { data: written, event });
    }
  }
}

/**
 * The slots with `response`, the whole response body, made when a step reads it (Responses' events
 * do; Chat Completions' do not), once. Added in place: a copy would read the lazy `message`.
 */
function withResponse(slots: Partial<ServeSlots>, serve: ServeCodec): Partial<ServeSlots> {
  let response: unknown;
  let made = false;
  return Object.defineProperty(slots, 'response', {
    get() {
      if (!made) {
        made = true;
        response = serve.response?.(slots as ServeSlots);
      }
      return response;
    },
    enumerable: true,
    configurable: true,
  });
}

/**
 * How many blocks other than reasoning come before reasoning part `k` in the turn's order: each
 * run of text (text parts from one with an id, or after another part) with text, each other part
 * (each comes as an event of its own). None without an order (the part is written where it is met).
 */
function othersBefore(order: readonly ResponsePart[] | undefined, k: number): number {
  if (!order) return 0;
  const runs = new Map([...textRuns(order)].map((r) => [r.start, r]));
  let n = 0;
  let seen = 0;
  for (let i = 0; i < order.length; i++) {
    const run = runs.get(i);
    if (run) {
      // An empty message item is no block.
      if (run.text !== '') n++;
      i = run.next - 1;
    } else if (order[i]!.type !== 'thinking') n++;
    else if (seen++ === k) return n;
  }
  return n;
}

/**
 * The turn's message items as runs of text: text parts from one with an id (an item of its own)
 * or after another part, up to the next such; `start` and `next`, where the run begins and what
 * follows it.
 */
function* textRuns(parts: readonly ResponsePart[]): Generator<{ start: number; next: number; id: string | undefined; text: string }> {
  for (let i = 0; i < parts.length; ) {
    const p = parts[i]!;
    if (p.type !== 'text') {
      i++;
      continue;
    }
    const start = i;
    let text = p.text;
    for (i++; i < parts.length; i++) {
      const t = parts[i]!;
      if (t.type !== 'text' || t.id !== undefined) break;
      text += t.text;
    }
    yield { start, next: i, id: p.id, text };
  }
}

function parseObject(text: string): unknown {
  try {
    const v: unknown = JSON.parse(text || '{}');
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

function readName(data: unknown, path: readonly (string | number)[]): string | undefined {
  let v = data;
  for (const k of path) v = typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[k as string] : undefined;
  return typeof v === 'string' ? v : undefined;
}
