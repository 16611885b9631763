/**
 * wireforge stream events → AI SDK V4 stream parts, in V4's order and with its ids. Events carry
 * deltas; V4 wants blocks with a start and an end, and the end carries what arrived last (a
 * signature, encrypted reasoning, an item id). So a block opens on its first delta and closes when
 * another kind begins (or a signature ends a reasoning block), and its end's metadata is read from
 * the stream's snapshot at that moment: the assembled part, exactly what final() will hold.
 */
import type { LanguageModelV4StreamPart, SharedV4ProviderMetadata, SharedV4Warning } from '@ai-sdk/provider';
import type { ChatResponse, ResponsePart, StreamEvent, ThinkingPart, ToolCall, Usage } from '../runtime/contract/unified-model.js';
import { metadataOf, type Origin } from './part-metadata.js';
import { citationsOf, contentOf, finishOf, usageOf, warningsOf } from './to-content.js';

type Emit = (part: LanguageModelV4StreamPart) => void;

interface Open {
  kind: 'text' | 'reasoning';
  id: string;
  length: number;
}

export class StreamParts {
  #open: Open | undefined;
  #next = 0;
  /** Tool calls by the stream's index → the V4 id their input parts carry. */
  readonly #calls = new Map<number, string>();
  /** How far the V4 blocks have used the snapshot's text and thinking parts (part index, characters into it). */
  #text = { at: 0, offset: 0 };
  #thinking = { at: 0, offset: 0 };
  #usage: Usage | null = null;
  /** The snapshot's calls by id (see #historyCall). */
  #history: Map<string, ToolCall> | undefined;
  readonly #origin: Origin;
  readonly #snapshot: () => ChatResponse;
  readonly #emit: Emit;
  /** The bridge's own warnings (options the unified request has no field for), first in stream-start. */
  readonly #warnings: SharedV4Warning[];
  readonly #ids = () => `${this.#next++}`;

  constructor(origin: Origin, snapshot: () => ChatResponse, emit: Emit, warnings: SharedV4Warning[] = []) {
    this.#warnings = warnings;
    this.#origin = origin;
    this.#snapshot = snapshot;
    this.#emit = emit;
  }

  event(e: StreamEvent): void {
    const emit = this.#emit;
    switch (e.type) {
      case 'start':
        emit({ type: 'stream-start', warnings: [...this.#warnings, ...warningsOf(e.warnings)] });
        emit({ type: 'response-metadata', ...(e.id === undefined ? {} : { id: e.id }), ...(e.model === undefined ? {} : { modelId: e.model }) });
        break;
      case 'text-delta':
        emit({ type: 'text-delta', id: this.#block('text', e.delta.length), delta: e.delta });
        break;
      case 'thinking-delta':
        emit({ type: 'reasoning-delta', id: this.#block('reasoning', e.delta.length), delta: e.delta });
        break;
      case 'thinking-signature':
        // A signature is the last thing a reasoning block gets: the block ends here.
        if (this.#open?.kind === 'reasoning') this.#close();
        break;
      case 'tool-call-start': {
        this.#close();
        const id = e.id || this.#ids();
        this.#calls.set(e.index, id);
        emit({ type: 'tool-input-start', id, toolName: e.name });
        break;
      }
      case 'tool-call-delta': {
        const id = this.#calls.get(e.index);
        if (id !== undefined) emit({ type: 'tool-input-delta', id, delta: e.delta });
        break;
      }
      case 'tool-call': {
        this.#close();
        const started = this.#calls.get(e.index);
        if (started !== undefined) emit({ type: 'tool-input-end', id: started });
        const call = this.#historyCall(e.call);
        const part = contentOf({ type: 'tool-call', call }, this.#origin, this.#ids);
        if (part?.type === 'tool-call') emit(started === undefined || started === part.toolCallId ? part : { ...part, toolCallId: started });
        break;
      }
      case 'part':
        this.#close();
        this.#whole(e.part);
        break;
      case 'usage':
        this.#usage = e.usage;
        break;
      case 'finish':
        this.#close();
        this.#silentThinking();
        emit({ type: 'finish', usage: usageOf(e.usage ?? this.#usage), finishReason: finishOf(e.finishReason, e.rawFinishReason), providerMetadata: { wireforge: { provider: this.#origin.provider } } });
        break;
    }
  }

  /**
   * The history copy of a call (its signature, the item it came as), as the snapshot has it. One
   * snapshot serves every call of the batch it was taken in (the assembler reads a whole network
   * chunk before its events go out); a call it does not hold yet takes a new one. A snapshot per
   * call made a body of a thousand whole calls quadratic.
   */
  #historyCall(call: ToolCall): ToolCall {
    let found = this.#history?.get(call.id);
    if (found === undefined) {
      this.#history = new Map((this.#snapshot().message.toolCalls ?? []).map((c) => [c.id, c]));
      found = this.#history.get(call.id);
    }
    return found ?? call;
  }

  /** The id of the open block of this kind, opening it (and closing another) first. */
  #block(kind: Open['kind'], length: number): string {
    const open = this.#open;
    if (open?.kind === kind) {
      open.length += length;
      return open.id;
    }
    this.#close();
    this.#silentThinking();
    const id = this.#ids();
    this.#open = { kind, id, length };
    this.#emit(kind === 'text' ? { type: 'text-start', id } : { type: 'reasoning-start', id });
    return id;
  }

  #close(): void {
    const open = this.#open;
    if (open === undefined) return;
    this.#open = undefined;
    const snap = this.#snapshot();
    if (open.kind === 'reasoning') {
      const part = take(snap.message.thinking ?? [], this.#thinking, open.length);
      this.#emit({ type: 'reasoning-end', id: open.id, ...(part ? { providerMetadata: metadataOf(part, ['text'], this.#origin) } : {}) });
    } else {
      const texts = snap.content.filter((p): p is Extract<ResponsePart, { type: 'text' }> => p.type === 'text');
      const first = this.#text.at;
      const part = take(texts, this.#text, open.length);
      const citations = citationsOf(texts.slice(first, this.#text.at + (this.#text.offset > 0 ? 1 : 0)).flatMap((t) => t.citations ?? []), this.#ids);
      const meta: SharedV4ProviderMetadata | undefined = part && hasExtra(part) ? metadataOf(part, ['type', 'text', 'citations'], this.#origin) : undefined;
      this.#emit({ type: 'text-end', id: open.id, ...(citations ? { citations } : {}), ...(meta ? { providerMetadata: meta } : {}) });
    }
  }

  /** Reasoning parts with no text (redacted or encrypted-only): no delta announced them, so they go out whole. */
  #silentThinking(): void {
    const thinking = this.#snapshot().message.thinking ?? [];
    const at = this.#thinking;
    while (at.offset === 0 && at.at < thinking.length && thinking[at.at]!.text === '') {
      const id = this.#ids();
      this.#emit({ type: 'reasoning-start', id });
      this.#emit({ type: 'reasoning-end', id, providerMetadata: metadataOf(thinking[at.at]!, ['text'], this.#origin) });
      at.at++;
    }
  }

  #whole(part: ResponsePart): void {
    const c = contentOf(part, this.#origin, this.#ids);
    if (c === undefined || c.type === 'text' || c.type === 'reasoning') return;
    this.#emit(c);
  }
}

/**
 * Moves the cursor `length` characters through the parts and returns the part the block ended in
 * (a V4 block may cover one unified part, several merged, or the rest of one).
 */
function take<T extends { text: string }>(parts: readonly T[], cursor: { at: number; offset: number }, length: number): T | undefined {
  let left = length;
  let last: T | undefined;
  while (cursor.at < parts.length) {
    const part = parts[cursor.at]!;
    last = part;
    const rest = part.text.length - cursor.offset;
    if (left < rest) {
      cursor.offset += left;
      return part;
    }
    left -= rest;
    cursor.at++;
    cursor.offset = 0;
    if (left === 0) return part;
  }
  return last;
}

function hasExtra(part: ThinkingPart | Extract<ResponsePart, { type: 'text' }>): boolean {
  for (const [k, v] of Object.entries(part)) if (v !== undefined && k !== 'type' && k !== 'text' && k !== 'citations') return true;
  return false;
}
