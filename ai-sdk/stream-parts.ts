/**
 * wireforge stream events → AI SDK V4 stream parts, in V4's order and with its ids. Events carry
 * deltas; V4 wants blocks with a start and an end, and the end carries what arrived last (a
 * signature, encrypted reasoning, an item id). So a block opens on its first delta and closes when
 * another kind begins (or a signature ends a reasoning block), and its end's metadata is read from
 * the stream's snapshot at that moment: the assembled part, exactly what final() will hold. Parts
 * that arrive whole go through the same table as doGenerate's (to-content.ts).
 */
import type { LanguageModelV4StreamPart as Part, SharedV4Warning } from '@ai-sdk/provider';
import type { ChatResponse, Citation, ResponsePart, StreamEvent, ToolCall } from '../runtime/contract/unified-model.js';
import type { Origin } from './part-metadata.js';
import { nonEmpty } from './non-empty.js';
import { contentOf, counter, endOf, warningsOf } from './to-content.js';

/** The unified parts that stream as deltas, and the V4 blocks they make. */
const BLOCK = { text: 'text', thinking: 'reasoning' } as const;
type Kind = keyof typeof BLOCK;
type Cursor = { at: number; offset: number };

/** The stream's handler: each event becomes the V4 parts it makes, handed to `emit` (usage alone makes none). */
export function streamParts(origin: Origin, snapshot: () => ChatResponse, emit: (part: Part) => void, warnings: SharedV4Warning[]): (e: StreamEvent) => void {
  const ids = counter();
  /** The open block; `delta` its delta part's type, made once per block (the hot path builds no strings). */
  let open: { kind: Kind; id: string; length: number; delta?: string } | undefined;
  /** Tool calls by the stream's index → the V4 id their input parts carry. */
  const calls = new Map<number, string>();
  /** How far the V4 blocks have used the snapshot's text and thinking parts (part index, characters into it). */
  const cursors: Record<Kind, Cursor> = { text: { at: 0, offset: 0 }, thinking: { at: 0, offset: 0 } };
  /** The snapshot's calls by id (see historyCall). */
  let history: Map<string, ToolCall> | undefined;
  const partsOf = (kind: Kind) => snapshot().content.filter((p): p is Extract<ResponsePart, { type: Kind }> => p.type === kind);

  /**
   * The open block ends, with what the part it ended in gives its V4 part (the same table as
   * doGenerate's): metadata, and for text the citations of every part the block covered. The
   * cursor moves `length` characters on through the parts: a V4 block may cover one unified part,
   * several merged, or the rest of one; it ends in the part that holds its last character.
   */
  const close = () => {
    if (!open) return;
    let { kind, id, length } = open;
    open = undefined;
    const list: Array<Extract<ResponsePart, { type: Kind }> & { citations?: Citation[] }> = partsOf(kind);
    const cursor = cursors[kind];
    const first = cursor.at;
    let part: (typeof list)[number] | undefined;
    while (cursor.at < list.length) {
      const rest = (part = list[cursor.at]!).text.length - cursor.offset;
      if (length < rest) {
        cursor.offset += length;
        break;
      }
      length -= rest;
      cursor.at++;
      cursor.offset = 0;
      if (!length) break;
    }
    const cited = list.slice(first, cursor.at + (cursor.offset > 0 ? 1 : 0)).flatMap((t) => t.citations ?? []);
    const v4 = part && (contentOf({ ...part, citations: nonEmpty(cited) } as ResponsePart, origin, ids) as { citations?: unknown; providerMetadata?: unknown });
    emit({ type: `${BLOCK[kind]}-end`, id, citations: v4?.citations, providerMetadata: v4?.providerMetadata } as Part);
  };

  /** Reasoning parts with no text (redacted or encrypted-only): no delta announced them, so they go out whole. */
  const silentThinking = () => {
    const thinking = partsOf('thinking');
    const at = cursors.thinking;
    // A part with text has none left at the cursor only when the cursor is past it: no offset test.
    while (thinking[at.at]?.text === '') {
      const id = ids();
      open = { kind: 'thinking', id, length: 0 };
      emit({ type: 'reasoning-start', id });
      close();
    }
  };

  /** A delta of this kind: into the open block, opening it (and closing another) first. */
  const delta = (kind: Kind, text: string) => {
    if (open?.kind !== kind) {
      close();
      silentThinking();
      open = { kind, id: ids(), length: 0, delta: `${BLOCK[kind]}-delta` };
      emit({ type: `${BLOCK[kind]}-start`, id: open.id } as Part);
    }
    open.length += text.length;
    emit({ type: open.delta, id: open.id, delta: text } as Part);
  };

  /**
   * The history copy of a call (its signature, the item it came as), as the snapshot has it. One
   * snapshot serves every call of the batch it was taken in (the assembler reads a whole network
   * chunk before its events go out); a call it does not hold yet, or held half-streamed (a later
   * call of the same read, its input still coming), takes a new one. A snapshot per call made a
   * body of a thousand whole calls quadratic.
   */
  const historyCall = (call: ToolCall): ToolCall => {
    let found = history?.get(call.id);
    if (found?.arguments !== call.arguments) {
      history = new Map((snapshot().message.toolCalls ?? []).map((c) => [c.id, c]));
      found = history.get(call.id);
    }
    return found ?? call;
  };

  return (e) => {
    switch (e.type) {
      case 'start':
        emit({ type: 'stream-start', warnings: [...warnings, ...warningsOf(e.warnings)] });
        return emit({ type: 'response-metadata', id: e.id, modelId: e.model });
      case 'text-delta':
        return delta('text', e.delta);
      case 'thinking-delta':
        return delta('thinking', e.delta);
      case 'thinking-signature':
        // A signature is the last thing a reasoning block gets: the block ends here.
        if (open?.kind === 'thinking') close();
        return;
      // Every call opens with a start that has its id (the runtime makes one where the wire gives
      // none), its argument text follows, and the whole call ends it (docs/unified-model.md).
      case 'tool-call-start':
        close();
        calls.set(e.index, e.id);
        return emit({ type: 'tool-input-start', id: e.id, toolName: e.name });
      case 'tool-call-delta':
        return emit({ type: 'tool-input-delta', id: calls.get(e.index)!, delta: e.delta });
      case 'tool-call':
        close();
        emit({ type: 'tool-input-end', id: e.call.id });
        return emit(contentOf({ type: 'tool-call', call: historyCall(e.call) }, origin, ids) as Part);
      case 'part': {
        close();
        // Never text or thinking: those come as deltas (docs/unified-model.md, "Stream events").
        const c = contentOf(e.part, origin, ids);
        if (c) emit(c as Part);
        return;
      }
      case 'finish':
        // It carries the final usage: the usage events before it say nothing more.
        close();
        silentThinking();
        emit({ type: 'finish', ...endOf(e, origin.provider) });
    }
  };
}
