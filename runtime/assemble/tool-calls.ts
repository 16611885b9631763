/**
 * The turn's tool calls. Arguments are kept as raw text and joined once, when a call closes or
 * is read. Calls that arrive whole are added here; calls the wire sends in fragments (by key, or
 * by id and order) are fed by the functions of tool-call-stream.ts, which readers of such wires
 * call (a bundle of wires that send calls whole leaves them out).
 */
import { StreamError } from '../errors.js';
import type { ToolCall } from '../contract/unified-model.js';
import type { EventSink } from '../contract/event-sink.js';
import { isText, TextBuffer } from './text-buffer.js';
import { isString } from '../wire/read-path.js';

export interface OpenCall {
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
  /** What only the history copy carries: the signature, the wire item (ToolCall.signature, .wire). */
  keep: Pick<ToolCall, 'signature' | 'wire'> | undefined;
  closed: boolean;
  /** Set only for calls of a client-run tool kind (the kind table makes them); see ToolCall.kind. */
  kind?: string;
  /** Why the arguments cannot be trusted, when their reader knows (argument-pieces.ts). */
  error?: string | undefined;
  /** A call whose arguments arrive as JSON-path pieces (argument-pieces.ts). */
  pieces?: ArgumentPieces;
}

/** What a call assembled from pieces keeps while it is open. */
export interface ArgumentPieces {
  /** The arguments so far (objects without a prototype: a key is only ever data). */
  readonly root: Record<string, unknown>;
  /** Paths whose string value is to continue in a later piece. */
  readonly continuing: Set<string>;
  /** The path of the last piece and whether its string was left open (the text ends inside it). */
  last: string | undefined;
  lastOpen: boolean;
  /** The argument text streamed so far: a prefix of the final text while pieces come in order. */
  emitted: string;
  inOrder: boolean;
}

/**
 * `responseId` is the turn's id as known when a call opens: calls without a wire id get one
 * made from it.
 */
export class ToolCalls {
  readonly calls: OpenCall[] = [];
  /** Calls by their wire key (index or item id); tool-call-stream.ts feeds them. */
  readonly byKey = new Map<unknown, OpenCall>();
  /** Declared: the constructor assigns it (a bare declaration would be emitted as a field). */
  declare readonly provider: string;
  readonly #sink: EventSink;

  constructor(provider: string, sink: EventSink) {
    this.provider = provider;
    this.#sink = sink;
  }

  /** A whole call in one piece: arguments as a string or as an object. */
  add(id: unknown, name: unknown, args: unknown, key: unknown, signature: unknown, responseId: string | undefined): void {
    // Rules for whole calls run on every event; an event without a call has no name and no id.
    if (!isString(name) && !isString(id)) return;
    const call = this.create(key, id, name, responseId);
    if (isText(signature)) call.keep = { signature };
    if (isString(args)) this.appendArgs(call, args);
    else if (args !== undefined && args !== null) {
      call.full = JSON.stringify(args);
      call.fromObject = true;
    }
    this.closeCall(call);
  }

  /** Close every open call (end of turn) so each gets its `tool-call` event. */
  closeAll(): void {
    for (const call of this.calls) if (!call.closed) this.closeCall(call);
  }

  get count(): number {
    return this.calls.length;
  }

  /** The calls as `ChatResponse.toolCalls` has them: no signatures. */
  final(): ToolCall[] {
    return this.calls.map(finalCall);
  }

  /** Copies of `final` (from final()) for the history message, with their signatures. */
  forMessage(final: ToolCall[]): ToolCall[] {
    return this.calls.map((call, i) => ({ ...final[i]!, ...call.keep }));
  }

  create(key: unknown, id: unknown, name: unknown, responseId: string | undefined): OpenCall {
    const calls = this.calls;
    const index = calls.length;
    const sink = this.#sink;
    const call: OpenCall = {
      index,
      key,
      // Some wires (Gemini) give no id: make one, unique within the turn and, through the
      // response id, across the conversation (other providers reject repeated ids).
      id: isText(id) ? id : responseId === undefined ? `call_${index}` : `call_${responseId}_${index}`,
      name: isString(name) ? name : '',
      parts: new TextBuffer(),
      full: undefined,
      fromObject: false,
      initial: undefined,
      keep: undefined,
      closed: false,
    };
    calls.push(call);
    sink.place({ unit: 'call', index });
    if (key !== undefined && key !== null) this.byKey.set(key, call);
    if (sink.emit) sink.events.push({ type: 'tool-call-start', index, id: call.id, name: call.name });
    return call;
  }

  appendArgs(call: OpenCall, fragment: unknown): void {
    if (!isText(fragment)) return;
    call.parts.push(fragment);
    const sink = this.#sink;
    if (sink.emit) sink.events.push({ type: 'tool-call-delta', index: call.index, delta: fragment });
  }

  closeCall(call: OpenCall): void {
    call.closed = true;
    const sink = this.#sink;
    if (sink.emit) sink.events.push({ type: 'tool-call', index: call.index, call: finalCall(call) });
  }
}

/** A block of another kind opened at a call's key: the stream is inconsistent. */
export const keyClash: (calls: { readonly provider: string }, key: unknown) => never = (calls, key) => {
  throw new StreamError({ provider: calls.provider, reason: `a tool call and another block share index ${String(key)}` });
};

const finalCall = (call: OpenCall): ToolCall => {
  const joined = call.full ?? (call.parts.empty && call.initial !== undefined ? call.initial : call.parts.toString());
  // A call with no argument text at all has no arguments: "{}" (docs/unified-model.md#tool-call-arguments).
  const args = joined === '' ? '{}' : joined;
  const out: ToolCall = { id: call.id, name: call.name, arguments: args };
  if (call.kind) out.kind = call.kind;
  // Text from the wire (fragments, or a final string that replaces them) may be invalid; an object never is.
  if (!call.fromObject && !(call.full === undefined && call.parts.empty)) {
    try {
      JSON.parse(args);
    } catch (e) {
      // JSON.parse of a string throws only a SyntaxError.
      out.argumentsError = `not valid JSON: ${(e as SyntaxError).message.slice(0, 120)}`;
    }
  }
  if (call.error) out.argumentsError = call.error;
  return out;
};
