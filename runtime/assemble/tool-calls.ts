/**
 * The turn's tool calls, whether the wire sends them in fragments (by key, or by id and order)
 * or whole. Arguments are kept as raw text and joined once, when a call closes or is read.
 */
import { StreamError } from '../errors.js';
import type { ToolCall } from '../types.js';
import type { EventSink } from './event-sink.js';
import { TextBuffer } from './text-buffer.js';

interface OpenCall {
  index: number;
  key: unknown;
  id: string;
  name: string;
  /** Argument fragments, joined once when the call closes. */
  parts: TextBuffer;
  /** Set when the wire gave the arguments whole (object or final string). */
  full: string | undefined;
  /** `full` is JSON.stringify of an object the wire sent: valid by construction. */
  fromObject: boolean;
  /** Arguments the opening event already carried whole; used only if no fragments follow. */
  initial: string | undefined;
  signature: string | undefined;
  closed: boolean;
}

/**
 * `responseId` is the turn's id as known when a call opens: calls without a wire id get one
 * made from it.
 */
export class ToolCalls {
  private readonly calls: OpenCall[] = [];
  private readonly byKey = new Map<unknown, OpenCall>();
  private readonly provider: string;
  private readonly sink: EventSink;

  constructor(provider: string, sink: EventSink) {
    this.provider = provider;
    this.sink = sink;
  }

  /**
   * Opens a call; `key` (the wire's index or item id) tells calls of one turn apart. `initial`:
   * arguments the opening event carries as an object (Anthropic `input`, empty when fragments
   * follow, whole for calls made from code execution), used when no fragment arrives.
   */
  open(key: unknown, id: unknown, name: unknown, responseId: string | undefined, initial?: unknown): void {
    if (key !== undefined && key !== null) {
      const existing = this.byKey.get(key);
      if (existing) {
        if (typeof id === 'string' && id !== existing.id) this.inconsistent(key, id, existing);
        return;
      }
    }
    const call = this.create(key, id, name, responseId);
    if (typeof initial === 'object' && initial !== null) call.initial = JSON.stringify(initial);
  }

  /**
   * The OpenAI-style fragment: the first fragment for a key opens the call (it carries id and
   * name); later ones append. Without a key, a new id starts a new call and no id continues the
   * last one.
   */
  delta(key: unknown, id: unknown, name: unknown, fragment: unknown, responseId: string | undefined): void {
    let call: OpenCall | undefined;
    if (key !== undefined && key !== null) {
      call = this.byKey.get(key);
      if (call && typeof id === 'string' && id !== '' && id !== call.id) this.inconsistent(key, id, call);
    } else {
      const last = this.calls[this.calls.length - 1];
      call = typeof id === 'string' && id !== '' && id !== last?.id ? undefined : last;
    }
    if (!call) {
      if ((typeof id !== 'string' || id === '') && (typeof name !== 'string' || name === '')) {
        throw new StreamError({
          provider: this.provider,
          reason: `tool-call fragment for ${key === undefined ? 'a call' : `index ${String(key)}`} that was never opened`,
          excerpt: typeof fragment === 'string' ? fragment.slice(0, 80) : undefined,
        });
      }
      call = this.create(key, id, name, responseId);
    } else if (call.name === '' && typeof name === 'string') {
      call.name = name;
    }
    this.appendArgs(call, fragment);
  }

  append(key: unknown, fragment: unknown): void {
    const call = this.byKey.get(key) ?? this.neverOpened(key, fragment);
    this.appendArgs(call, fragment);
  }

  /** Complete argument text that supersedes the fragments (e.g. a `.done` event). */
  set(key: unknown, full: unknown): void {
    if (typeof full !== 'string') return;
    const call = this.byKey.get(key) ?? this.neverOpened(key, full);
    call.full = full;
    call.fromObject = false;
  }

  setObject(key: unknown, args: unknown): void {
    if (args === undefined || args === null) return;
    const call = this.byKey.get(key) ?? this.neverOpened(key, undefined);
    call.full = JSON.stringify(args);
    call.fromObject = true;
  }

  /** A whole call in one piece: arguments as a string or as an object. */
  add(id: unknown, name: unknown, args: unknown, key: unknown, signature: unknown, responseId: string | undefined): void {
    // Rules for whole calls run on every event; an event without a call has no name and no id.
    if (typeof name !== 'string' && typeof id !== 'string') return;
    const call = this.create(key, id, name, responseId);
    if (typeof signature === 'string' && signature !== '') call.signature = signature;
    if (typeof args === 'string') this.appendArgs(call, args);
    else if (args !== undefined && args !== null) {
      call.full = JSON.stringify(args);
      call.fromObject = true;
    }
    this.closeCall(call);
  }

  setSignature(key: unknown, signature: unknown): void {
    const call = this.byKey.get(key);
    if (call && typeof signature === 'string' && signature !== '') call.signature = signature;
  }

  close(key: unknown): void {
    const call = this.byKey.get(key);
    if (call) this.closeCall(call);
  }

  /** Close every open call (end of turn) so each gets its `tool-call` event. */
  closeAll(): void {
    for (const call of this.calls) if (!call.closed) this.closeCall(call);
  }

  get count(): number {
    return this.calls.length;
  }

  has(key: unknown): boolean {
    return this.byKey.has(key);
  }

  /** A block of another kind opened at a call's key: the stream is inconsistent. */
  clash(key: unknown): never {
    throw new StreamError({ provider: this.provider, reason: `a tool call and another block share index ${String(key)}` });
  }

  /** The calls as `ChatResponse.toolCalls` has them: no signatures. */
  final(): ToolCall[] {
    return this.calls.map(finalCall);
  }

  /** Copies of `final` (from final()) for the history message, with their signatures. */
  forMessage(final: ToolCall[]): ToolCall[] {
    return this.calls.map((call, i) =>
      call.signature === undefined ? { ...final[i]! } : { ...final[i]!, signature: call.signature },
    );
  }

  private create(key: unknown, id: unknown, name: unknown, responseId: string | undefined): OpenCall {
    const index = this.calls.length;
    const call: OpenCall = {
      index,
      key,
      // Some wires (Gemini) give no id: make one, unique within the turn and, through the
      // response id, across the conversation (other providers reject repeated ids).
      id: typeof id === 'string' && id !== '' ? id : responseId === undefined ? `call_${index}` : `call_${responseId}_${index}`,
      name: typeof name === 'string' ? name : '',
      parts: new TextBuffer(),
      full: undefined,
      fromObject: false,
      initial: undefined,
      signature: undefined,
      closed: false,
    };
    this.calls.push(call);
    this.sink.place({ unit: 'call', index });
    if (key !== undefined && key !== null) this.byKey.set(key, call);
    const sink = this.sink;
    if (sink.emit) sink.events.push({ type: 'tool-call-start', index, id: call.id, name: call.name });
    return call;
  }

  private appendArgs(call: OpenCall, fragment: unknown): void {
    if (typeof fragment !== 'string' || fragment === '') return;
    call.parts.push(fragment);
    const sink = this.sink;
    if (sink.emit) sink.events.push({ type: 'tool-call-delta', index: call.index, delta: fragment });
  }

  private closeCall(call: OpenCall): void {
    call.closed = true;
    const sink = this.sink;
    if (sink.emit) sink.events.push({ type: 'tool-call', index: call.index, call: finalCall(call) });
  }

  private neverOpened(key: unknown, fragment: unknown): never {
    throw new StreamError({
      provider: this.provider,
      reason: `tool-call fragment for index ${String(key)} that was never opened`,
      excerpt: typeof fragment === 'string' ? fragment.slice(0, 80) : undefined,
    });
  }

  private inconsistent(key: unknown, id: string, call: OpenCall): never {
    throw new StreamError({
      provider: this.provider,
      reason: `two tool calls share index ${String(key)} (ids ${JSON.stringify(call.id)} and ${JSON.stringify(id)})`,
    });
  }
}

function finalCall(call: OpenCall): ToolCall {
  const joined = call.full ?? (call.parts.empty && call.initial !== undefined ? call.initial : call.parts.toString());
  // A call with no argument text at all has no arguments: "{}" (docs/unified-model.md#tool-call-arguments).
  const args = joined === '' ? '{}' : joined;
  const out: ToolCall = { id: call.id, name: call.name, arguments: args };
  // Text from the wire (fragments, or a final string that replaces them) may be invalid; an object never is.
  if (!call.fromObject && !(call.full === undefined && call.parts.empty)) {
    try {
      JSON.parse(args);
    } catch (e) {
      out.argumentsError = `not valid JSON: ${e instanceof Error ? e.message.slice(0, 120) : String(e)}`;
    }
  }
  return out;
}
