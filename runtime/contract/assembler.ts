/**
 * The assembler as generated readers see it (`a` in `readResponse(a, body)`), and the units only
 * some wires need, as the assembler makes them. assemble/turn-assembler.ts is the implementation;
 * assemble/thinking-blocks.ts, text-meta.ts and response-parts.ts are the units.
 */
import type { EventSink } from './event-sink.js';
import type { PartsProfile } from './profile.js';
import type { Citation, FinishReason, ResponsePart, ThinkingPart, Usage } from './unified-model.js';

/** Reasoning blocks, for readers with thinking actions (`a.thinking.append(…)`). */
export interface ThinkingBlocksOps {
  /** A new block (with the wire's id, if any). */
  start(id?: unknown): ThinkingPart;
  /** Continue the block opened under this key (wires that interleave blocks by index). */
  select(key: unknown): void;
  setId(id: unknown): void;
  appendSummary(delta: unknown): void;
  setFormat(format: unknown): void;
  /** Separate what comes next from the block's text so far (a new summary part). */
  breakText(separator: string): void;
  append(delta: unknown): void;
  setSignature(signature: unknown): void;
  setRedacted(data: unknown): void;
  readonly count: number;
  parts(): ThinkingPart[];
}

export interface ThinkingBlocksUnit {
  new (sink: EventSink): ThinkingBlocksOps;
}

/** The turn's text, as the assembler keeps it. */
export interface TextOps {
  /** A new wire text block begins (its text is a part of its own). */
  start(): void;
  append(delta: unknown): void;
  appendRefusal(delta: unknown): void;
  addCitation(c: Citation): void;
  /** Some of the text was a refusal: the finish reason can then become `refusal`. */
  readonly refusal: boolean;
  readonly empty: boolean;
  value(): string | null;
  part(i: number): Extract<ResponsePart, { type: 'text' }>;
  isBlank(i: number): boolean;
}

/** Text with signatures and phases beside it (Gemini `thoughtSignature`, Responses `phase`). */
export interface TextMetaOps extends TextOps {
  setPhase(phase: unknown): void;
  /** A new item with this id: its first text part carries it, and an item with no text is an empty part. */
  setItem(id: unknown): void;
  setSignature(signature: string): void;
}

export interface TextMetaUnit {
  new (sink: EventSink): TextMetaOps;
}

/** Parts made by the kind table, for readers with part actions (`a.parts.add(…)`). */
export interface ResponsePartsOps {
  add(kind: unknown, wire: unknown): void;
  openBlock(key: unknown, kind: unknown, start: unknown): void;
  has(key: unknown): boolean;
  appendJson(key: unknown, fragment: unknown): void;
  applyDelta(key: unknown, delta: unknown): void;
  close(key: unknown): void;
  closeAll(): void;
  /** Blocks open now (calls arriving in pieces check for a block at their key only while any is). */
  readonly openCount: number;
  readonly count: number;
  at(i: number): ResponsePart[];
}

/** The turn's tool calls as the kind table sees them: a block is not opened at a call's key. */
export interface CallKeys {
  readonly provider: string;
  readonly byKey: { has(key: unknown): boolean };
}

export interface ResponsePartsUnit {
  new (provider: string, table: PartsProfile | undefined, sink: EventSink, calls?: CallKeys): ResponsePartsOps;
}

/** The units the assembler makes, when the codec supplies them (codec.uses). */
export interface AssemblerUses {
  /** Reasoning blocks, for readers that call the thinking methods. */
  thinking?: ThinkingBlocksUnit;
  /** Text signatures and phases, for readers whose text rules read a `signature` or `phase`. */
  textMeta?: TextMetaUnit;
  /** Parts made by the kind table, for readers that call addPart, openPart or partDelta. */
  parts?: ResponsePartsUnit;
}

/** What the assembler needs from a provider's spec. */
export interface TurnRules {
  provider: string;
  mapFinishReason(raw: string, facts: { toolCalls: boolean; refusal: boolean }): FinishReason;
  mapUsage(raw: Record<string, unknown>): Usage;
  /** The kind table and citation map (docs/unified-model.md#response-parts). */
  parts?: PartsProfile;
  /** Raw finish values that pause the turn rather than end it. */
  continues?: readonly string[];
  /** The units only some wires need (thinking blocks, kind-table parts), as the codec supplies them. */
  uses?: AssemblerUses;
}

/**
 * What generated readers call. Methods take `unknown`: wire data is untrusted, so each checks the
 * type it needs. Calls that arrive in pieces, text blocks and signatures, and usage in pieces go
 * through kit functions over the implementation (tool-call-stream.ts, text-part.ts, merge-usage.ts).
 */
export interface Assembler {
  readonly provider: string;
  setMeta(id: unknown, model: unknown): void;
  appendText(delta: unknown): void;
  /** Citations of the open text: one wire citation object or a list of them. */
  addCitations(raw: unknown): void;
  appendRefusal(delta: unknown): void;
  /** A whole call in one piece: arguments as a string or as an object. */
  addToolCall(id: unknown, name: unknown, args: unknown, key?: unknown, signature?: unknown): void;
  setFinishReason(raw: unknown): void;
  /** Replace the raw usage object (a snapshot). */
  setUsage(raw: unknown): void;
  /** An error object in the body or stream: raise it, keeping what arrived. */
  fail(message: unknown, type: unknown, code: unknown, body: unknown): never;
  /** A terminal event or sentinel. */
  end(): void;
  readonly thinking: ThinkingBlocksOps;
  readonly parts: ResponsePartsOps;
}
