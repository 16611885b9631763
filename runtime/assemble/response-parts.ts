/**
 * Parts other than text, thinking and client tool calls: provider-run tool calls and their
 * results, sources, files, approval requests, and opaque parts. The spec's kind table says what
 * each wire kind becomes (docs/unified-model.md#response-parts); a kind it does not list is kept
 * as an opaque part, so nothing the provider returns is lost.
 *
 * A part arrives whole (`add`), or opens from a block's start object and is completed by deltas
 * with the same key (`open`, then JSON fragments or field deltas, then `close`): it takes its
 * place in the turn when it opens and is announced (a `part` event) when it is complete.
 */
import type { CallKeys, ResponsePartsUnit } from '../contract/assembler.js';
import { StreamError } from '../errors.js';
import type { KindRule, PartRule, PartsProfile, ValueTableField } from '../contract/profile.js';
import type { ResponsePart, ResponsePartType } from '../contract/unified-model.js';
import { passes } from '../request/conditions.js';
import { FORBIDDEN_KEYS } from '../request/safe-merge.js';
import { isObject, readPath } from '../wire/read-path.js';
import { firstAt } from './citation.js';
import type { EventSink } from '../contract/event-sink.js';
import { TextBuffer } from './text-buffer.js';
import { keyClash, type ToolCalls } from './tool-calls.js';

interface Slot {
  /** The parts this wire object became; empty until an open block closes. */
  parts: ResponsePart[];
}

interface OpenBlock {
  slot: Slot;
  kind: string;
  rule: KindRule | undefined;
  /** The block as it is being rebuilt: its start object, with deltas applied. */
  wire: Record<string, unknown>;
  json: TextBuffer | undefined;
}

const NO_PARTS: PartsProfile = { kinds: {}, unknown: 'ignore' };

export class ResponseParts {
  readonly #slots: Slot[] = [];
  // The maps and the id context are made on first use: most turns open no block and take no
  // snapshot, and an assembler is made per call (three allocations were a third of a µs of it).
  #open: Map<unknown, OpenBlock> | undefined;
  /** The latest parts of each snapshot kind, placed when the turn ends. */
  #snapshots: Map<string, ResponsePart[]> | undefined;
  /** Number of blocks open: the tool-call path checks this before looking up a key. */
  openCount = 0;
  /** The latest provider-run call (for results that do not name theirs) and the ids made so far. */
  #made = 0;
  #context: PartContext | undefined;
  readonly #provider: string;
  readonly #table: PartsProfile;
  readonly #sink: EventSink;
  readonly #calls: CallKeys | undefined;

  get #cx(): PartContext {
    return (this.#context ??= { lastCall: undefined, makeId: () => `ptc_${this.#made++}` });
  }

  /** `calls`: the turn's tool calls, so a block is not opened at a call's key. */
  constructor(provider: string, table: PartsProfile | undefined, sink: EventSink, calls?: CallKeys) {
    this.#provider = provider;
    this.#table = table ?? NO_PARTS;
    this.#sink = sink;
    this.#calls = calls;
  }

  /** A wire object of this kind, complete. */
  add(kind: unknown, wire: unknown): void {
    if (typeof kind !== 'string' || !isObject(wire)) return;
    const rule = this.#rule(kind);
    if (rule === undefined && this.#table.unknown === 'ignore') return;
    if (rule?.parts[0]?.part === 'tool-call') return this.#call(rule, wire);
    const parts = partsOf(kind, rule, wire, this.#cx);
    if (rule?.snapshot) {
      // The latest object is the whole so far; it takes its place when the turn ends (a stream
      // may send it before the text a blocking body puts it after).
      (this.#snapshots ??= new Map()).set(kind, parts);
      return;
    }
    const slot = this.#place(parts.every((p) => !('wire' in p) || p.wire === undefined));
    slot.parts = parts;
    this.#announce(slot);
  }

  /** A block of this kind starts; deltas with `key` complete it. */
  openBlock(key: unknown, kind: unknown, start: unknown): void {
    if (key !== undefined && key !== null && this.#calls?.byKey.has(key)) keyClash(this.#calls, key);
    if (typeof kind !== 'string' || !isObject(start) || key === undefined || key === null) return;
    const rule = this.#rule(kind);
    if (rule === undefined && this.#table.unknown === 'ignore') return;
    // A call for the caller opens now (`tool-call-start`); the whole item completes it (`add`).
    if (rule?.parts[0]?.part === 'tool-call') return this.#call(rule, start, true);
    const open = (this.#open ??= new Map());
    if (open.has(key)) this.#clash(key, `two blocks share index ${String(key)}`);
    this.openCount++;
    open.set(key, { slot: this.#place(), kind, rule, wire: { ...start }, json: undefined });
  }

  has(key: unknown): boolean {
    return this.#open?.has(key) ?? false;
  }

  /** JSON text for the field the kind names (a server-tool block's `input`). */
  appendJson(key: unknown, fragment: unknown): void {
    const block = this.#open?.get(key);
    if (block === undefined || typeof fragment !== 'string') return;
    (block.json ??= new TextBuffer()).push(fragment);
  }

  /** A delta object: each string field is appended to the block's field of that name. */
  applyDelta(key: unknown, delta: unknown): void {
    const block = this.#open?.get(key);
    if (block === undefined || !isObject(delta)) return;
    for (const k of Object.keys(delta)) {
      const v = delta[k];
      if (k === 'type' || typeof v !== 'string' || FORBIDDEN_KEYS.has(k)) continue;
      const was = block.wire[k];
      block.wire[k] = typeof was === 'string' ? was + v : v;
    }
  }

  close(key: unknown): void {
    const block = this.#open?.get(key);
    if (block === undefined) return;
    this.#open!.delete(key);
    this.openCount--;
    const field = block.rule?.json ?? 'input';
    if (block.json !== undefined && !block.json.empty) {
      const text = block.json.toString();
      let value: unknown = text;
      try {
        value = JSON.parse(text);
      } catch {
        // kept as the text that arrived: a cut stream still yields what it had
      }
      block.wire[field] = value;
    }
    block.slot.parts = partsOf(block.kind, block.rule, block.wire, this.#cx);
    this.#announce(block.slot);
  }

  /** End of turn: open blocks are closed, and snapshots announced as they finally are. */
  closeAll(): void {
    if (this.#open?.size) for (const key of [...this.#open.keys()]) this.close(key);
    if (!this.#snapshots) return;
    for (const parts of this.#snapshots.values()) {
      const slot = this.#place(true);
      slot.parts = parts;
      this.#announce(slot);
    }
    this.#snapshots.clear();
  }

  get count(): number {
    return this.#slots.length;
  }

  /** The parts at place `i` in the turn. */
  at(i: number): ResponsePart[] {
    return this.#slots[i]!.parts;
  }

  /**
   * An item that is a call for the caller to run (a client-run tool kind, or a whole function
   * call): one of the turn's tool calls, with its kind and, when the kind echoes, its wire item.
   * `arguments` is the JSON text of the input the rule names; a function's argument text as it came.
   */
  #call(rule: KindRule, wire: Record<string, unknown>, open = false): void {
    const calls = this.#calls as ToolCalls | undefined;
    if (calls === undefined) return;
    const { f, str } = fieldsOf(rule.parts[0]!, wire);
    const kind = str('kind');
    const id = str('id');
    // The item's call opened when the item did (a stream): completed now, not made twice.
    const opened = id === undefined ? undefined : calls.calls.find((c) => !c.closed && c.id === id && c.kind === kind && c.full === undefined);
    const call = opened ?? calls.create(undefined, id, str('name') ?? kind, undefined);
    if (!opened && kind !== undefined) {
      // The start event just queued says the kind too, so a caller knows at once what it is.
      const sink = this.#sink;
      const started = sink.emit ? sink.events[sink.events.length - 1] : undefined;
      if (started?.type === 'tool-call-start') started.kind = kind;
    }
    if (open) {
      if (kind !== undefined) call.kind = kind;
      return;
    }
    const args = f('arguments');
    if (typeof args === 'string' && kind === undefined) call.full = args;
    else if (args !== undefined && args !== null) {
      call.full = JSON.stringify(args);
      call.fromObject = true;
    }
    if (kind !== undefined) call.kind = kind;
    if (rule.echo) (call.keep ??= {}).wire = wire;
    calls.closeCall(call);
  }

  #clash(key: unknown, what: string): never {
    throw new StreamError({ provider: this.#provider, reason: what });
  }

  #rule(kind: string): KindRule | undefined {
    // Kind names come from the wire: only the table's own entries count.
    const kinds = this.#table.kinds;
    return kinds && Object.hasOwn(kinds, kind) ? kinds[kind] : undefined;
  }

  /** `aside`: parts that only inform (no wire object to send back) do not break the text around them. */
  #place(aside = false): Slot {
    const slot: Slot = { parts: [] };
    this.#sink.place(aside ? { unit: 'part', index: this.#slots.length, aside: true } : { unit: 'part', index: this.#slots.length });
    this.#slots.push(slot);
    return slot;
  }

  #announce(slot: Slot): void {
    const call = lastCallId(slot.parts);
    if (call !== undefined) this.#cx.lastCall = call;
    const sink = this.#sink;
    if (sink.emit) for (const part of slot.parts) sink.events.push({ type: 'part', part });
  }
}

/** The parts a wire object of this kind becomes; the first keeps the wire object when the kind echoes. */
/** What a part needs from the turn: the latest provider-run call, and fresh ids for calls the wire leaves unnamed. */
interface PartContext {
  lastCall: string | undefined;
  makeId(): string;
}

function partsOf(kind: string, rule: KindRule | undefined, wire: Record<string, unknown>, cx: PartContext): ResponsePart[] {
  if (rule === undefined) return [{ type: 'opaque', kind, value: wire, wire }];
  const out: ResponsePart[] = [];
  for (const r of rule.parts) {
    if (r.each === undefined) pushPart(out, r, wire, cx);
    else {
      const list = readPath(wire, r.each);
      if (Array.isArray(list)) for (const x of list) pushPart(out, r, x, cx);
    }
  }
  if (rule.echo && out.length > 0 && KEEPS_WIRE[out[0]!.type]) (out[0] as { wire?: unknown }).wire = wire;
  return out;
}

/** Part types that can carry their wire object back. */
const KEEPS_WIRE: Readonly<Record<ResponsePartType, boolean>> = {
  text: false,
  thinking: false,
  'tool-call': false,
  'provider-tool-call': true,
  'provider-tool-result': true,
  source: false,
  file: true,
  'approval-request': true,
  opaque: true,
};

/** The fields of a part rule, read from one wire object. */
function fieldsOf(r: PartRule, raw: unknown): { f: (name: string) => unknown; str: (name: string) => string | undefined } {
  const f = (name: string): unknown => {
    const field = r.fields[name];
    if (field === undefined) return undefined;
    if ('value' in field) return field.value;
    if ('test' in field) return passes(field.test, field.at.length === 0 ? raw : readPath(raw, field.at));
    if (!Array.isArray(field) && 'values' in field) {
      // A wire value named in the table (Responses `output_format` png → image/png); else the default.
      const t = field as ValueTableField;
      const v = readPath(raw, t.at);
      return typeof v === 'string' && Object.hasOwn(t.values, v) ? t.values[v] : t.default;
    }
    return firstAt(raw, field);
  };
  const str = (name: string): string | undefined => {
    const v = f(name);
    return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
  };
  return { f, str };
}

function pushPart(out: ResponsePart[], r: PartRule, raw: unknown, cx: PartContext): void {
  const { f, str } = fieldsOf(r, raw);
  switch (r.part) {
    case 'provider-tool-call':
      // A call without an id (Gemini code execution) gets one, unique in the turn, so its result can name it.
      out.push({ type: r.part, id: str('id') || cx.makeId(), name: str('name') ?? '', input: f('input') ?? null });
      return;
    case 'provider-tool-result': {
      // A result without its call's id answers the call just before it (Gemini code execution).
      const callId = str('callId') || lastCallId(out) || cx.lastCall || '';
      const part: ResponsePart = { type: r.part, callId, name: str('name') ?? '', result: f('result') ?? null };
      if (isError(f('isError'))) part.isError = true;
      out.push(part);
      return;
    }
    case 'source': {
      const part: ResponsePart = { type: 'source' };
      const url = str('url');
      const title = str('title');
      const documentId = str('documentId');
      if (url !== undefined) part.url = url;
      if (title !== undefined) part.title = title;
      if (documentId !== undefined) part.documentId = documentId;
      if (url !== undefined || title !== undefined || documentId !== undefined) out.push(part);
      return;
    }
    case 'file': {
      const part: ResponsePart = { type: 'file', mediaType: str('mediaType') ?? 'application/octet-stream' };
      const data = str('data');
      const url = str('url');
      if (data !== undefined) part.data = data;
      if (url !== undefined) part.url = url;
      if (data !== undefined || url !== undefined) out.push(part);
      return;
    }
    case 'approval-request':
      out.push({ type: r.part, id: str('id') ?? '', name: str('name') ?? '', input: f('input') ?? null });
      return;
    case 'opaque':
      out.push({ type: 'opaque', kind: str('kind') ?? '', value: f('value') ?? raw });
      return;
    default:
      // text, thinking and tool calls have readers of their own; a kind rule never makes them
      return;
  }
}

function lastCallId(out: ResponsePart[]): string | undefined {
  for (let i = out.length - 1; i >= 0; i--) {
    const p = out[i]!;
    if (p.type === 'provider-tool-call') return p.id;
  }
  return undefined;
}

/** `true`, or a present error value (a message, an error object with something in it, an error code). */
function isError(v: unknown): boolean {
  return v === true || (typeof v === 'string' && v !== '') || (typeof v === 'object' && v !== null && Object.keys(v).length > 0);
}

ResponseParts satisfies ResponsePartsUnit;
