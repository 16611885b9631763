/**
 * The `cx` that generated message templates call into: turns unified content into the wire
 * parts and blocks the spec's templates describe, and records a warning for anything the
 * spec has no template for, so nothing silently vanishes.
 */
import type { AssistantMessage, ContentPart, ResponsePart, ThinkingPart, ToolCall } from '../types.js';
import type { Warnings } from './warnings.js';

type TextPart = Extract<ContentPart, { type: 'text' }>;
type ImagePart = Extract<ContentPart, { type: 'image' }>;
/** One text block of an assistant turn: its text, and what the provider sent with it. */
export type TextBlock = Omit<Extract<ResponsePart, { type: 'text' }>, 'type'>;

export interface PartTemplates {
  text?: (p: TextPart) => unknown;
  imageUrl?: (p: ImagePart) => unknown;
  imageData?: (p: ImagePart) => unknown;
}

export interface BlockTemplates {
  /** `i` is the block's position among the turn's thinking blocks. */
  thinking?: (b: ThinkingPart, cx: MessageContext, i: number) => unknown;
  /** For summary blocks; default: the thinking template. */
  summaryThinking?: (b: ThinkingPart, cx: MessageContext, i: number) => unknown;
  redactedThinking?: (b: ThinkingPart, cx: MessageContext, i: number) => unknown;
  text?: (b: TextBlock, cx: MessageContext) => unknown;
  toolCall?: (b: ToolCall, cx: MessageContext) => unknown;
}

export class MessageContext {
  private index = 0;
  private thinkingCarried = false;
  /** The message's parts went out through `blocks` (the wire has a place for every kind). */
  private partsCarried = false;

  constructor(
    private readonly parts_: PartTemplates,
    private readonly blocks_: BlockTemplates,
    private readonly w: Warnings,
  ) {}

  /** The current message, as named in warnings. */
  field(): string {
    return this.where();
  }

  /** Image parts a text-only slot left out, reported at finish() unless another slot carried them. */
  private pendingImages = new Map<number, string>();

  /** Sets the request position used in warnings; returns this for chaining. */
  at(index: number): this {
    this.index = index;
    this.thinkingCarried = false;
    this.partsCarried = false;
    if (this.pendingImages.size) this.pendingImages.clear();
    return this;
  }

  /** After each message: report what its templates had no place for. Returns the wire message. */
  finish<T>(m: { role: string; thinking?: unknown[]; parts?: ResponsePart[] }, wire: T): T {
    if (this.pendingImages.size) {
      for (const [j, message] of this.pendingImages) this.w.drop(`${this.where()}.content[${j}]`, message);
      this.pendingImages.clear();
    }
    if (m.parts && !this.partsCarried) {
      // This wire writes a turn as fields (text, reasoning, calls): parts only its origin reads have no place.
      m.parts.forEach((p, j) => {
        if ('wire' in p && p.wire !== undefined) this.w.drop(`${this.where()}.parts[${j}]`, `this provider's messages have no place for ${describePart(p)}; it was not sent`);
      });
    }
    if (m.role === 'assistant' && m.thinking?.length && !this.thinkingCarried) {
      this.w.drop(`${this.where()}.thinking`, 'this provider cannot take reasoning back; it was not sent');
    }
    return wire;
  }

  /** String content as it is; part lists through the part templates. */
  content(c: string | ContentPart[]): unknown {
    return typeof c === 'string' ? c : this.parts(c);
  }

  parts(c: string | ContentPart[]): unknown[] {
    if (typeof c === 'string') return this.parts_.text ? [this.parts_.text({ type: 'text', text: c })] : [c];
    const out: unknown[] = [];
    c.forEach((p, j) => {
      const mapped = this.part(p, j);
      if (mapped !== undefined) out.push(mapped);
    });
    return out;
  }

  /** Text only: image parts cannot ride along and are reported. */
  text(c: string | ContentPart[]): string {
    if (typeof c === 'string') return c;
    const texts: string[] = [];
    c.forEach((p, j) => {
      if (p.type === 'text') texts.push(p.text);
      else this.pendingImages.set(j, 'this message can carry text only; the image was not sent');
    });
    return texts.join('\n');
  }

  /** Base64 image data for wires that list images beside the text (Ollama `images`). */
  imageData(c: string | ContentPart[]): string[] | undefined {
    if (typeof c === 'string') return undefined;
    const out: string[] = [];
    c.forEach((p, j) => {
      if (p.type !== 'image') return;
      if (p.data !== undefined) {
        out.push(p.data);
        this.pendingImages.delete(j);
      } else this.pendingImages.set(j, 'only base64 image data can be sent here; the image URL was not sent');
    });
    return out.length ? out : undefined;
  }

  assistantText(m: AssistantMessage): string | null {
    return m.content === undefined || m.content === '' ? null : m.content;
  }

  /**
   * Assistant content as blocks. With `parts` (a turn this provider returned), in their order,
   * each part the wire object it came from when it has one; otherwise thinking first, then text,
   * then tool calls.
   */
  blocks(m: AssistantMessage): unknown[] {
    if (m.parts) {
      if (agrees(m, m.parts)) return this.partBlocks(m, m.parts);
      // The fields were changed after the turn came back: they are what the caller means to send.
      this.partsCarried = true;
      m.parts.forEach((p, j) => {
        if ('wire' in p && p.wire !== undefined) this.w.drop(`${this.where()}.parts[${j}]`, 'the message\'s content, thinking or toolCalls no longer match its parts (edited?); the turn was written from those fields and this part was not sent');
      });
    }
    const out: unknown[] = this.thinkingBlocks(m) ?? [];
    if (m.content && this.blocks_.text) out.push(this.blocks_.text({ text: m.content }, this));
    for (const c of m.toolCalls ?? []) if (this.blocks_.toolCall) out.push(this.blocks_.toolCall(c, this));
    return out;
  }

  /**
   * The k-th thinking or tool-call part is the k-th entry of `thinking` / `toolCalls` (those are
   * what continuity rules and id renaming act on); other parts go back as the wire sent them.
   */
  private partBlocks(m: AssistantMessage, parts: ResponsePart[]): unknown[] {
    this.partsCarried = true;
    if (this.blocks_.thinking || this.blocks_.redactedThinking) this.thinkingCarried = true;
    const out: unknown[] = [];
    let t = 0;
    let c = 0;
    for (const p of parts) {
      if (p.type === 'text') {
        if ((p.text !== '' || p.signature !== undefined) && this.blocks_.text) out.push(this.blocks_.text(p, this));
      } else if (p.type === 'thinking') {
        const block = m.thinking![t]!;
        const template = this.thinkingTemplate(block);
        if (template) out.push(template(block, this, t));
        t++;
      } else if (p.type === 'tool-call') {
        if (this.blocks_.toolCall) out.push(this.blocks_.toolCall(m.toolCalls![c]!, this));
        c++;
      } else if ('wire' in p && p.wire !== undefined) out.push(p.wire);
    }
    return out;
  }

  private thinkingTemplate(t: ThinkingPart): BlockTemplates['thinking'] {
    return t.redacted !== undefined ? this.blocks_.redactedThinking : t.summary ? (this.blocks_.summaryThinking ?? this.blocks_.thinking) : this.blocks_.thinking;
  }

  /** The turn's thinking through the thinking block templates (a wire list of reasoning entries). */
  thinkingBlocks(m: AssistantMessage): unknown[] | undefined {
    if (this.blocks_.thinking || this.blocks_.redactedThinking) this.thinkingCarried = true;
    const out: unknown[] = [];
    (m.thinking ?? []).forEach((t, i) => {
      const template = this.thinkingTemplate(t);
      if (template) out.push(template(t, this, i));
    });
    return out.length ? out : undefined;
  }

  toolCalls(m: AssistantMessage): unknown[] | undefined {
    if (!m.toolCalls?.length || !this.blocks_.toolCall) return undefined;
    return m.toolCalls.map((c) => this.blocks_.toolCall!(c, this));
  }

  /** All thinking text of a turn, for wires that echo reasoning as one string field. */
  thinkingText(m: AssistantMessage): string | undefined {
    this.thinkingCarried = true;
    const parts = (m.thinking ?? []).filter((t) => t.redacted === undefined);
    return parts.length ? parts.map((t) => t.text).join('') : undefined;
  }

  /** Tool-call arguments as an object, for wires that take objects (Anthropic `input`). */
  argumentsObject(c: ToolCall): Record<string, unknown> {
    try {
      const v: unknown = JSON.parse(c.arguments === '' ? '{}' : c.arguments);
      if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
    } catch {
      // reported below
    }
    this.w.drop(
      `${this.where()}.toolCalls[${c.id}].arguments`,
      'arguments are not a JSON object and this provider takes objects; sent as {}',
    );
    return {};
  }

  private part(p: ContentPart, j: number): unknown {
    if (p.type === 'text') return this.parts_.text ? this.parts_.text(p) : p.text;
    if (p.data !== undefined && p.mediaType === undefined) {
      this.w.drop(`${this.where()}.content[${j}]`, 'base64 image without mediaType (and not a recognisable PNG, JPEG, GIF or WebP); the image was not sent');
      return undefined;
    }
    const template = p.data !== undefined ? this.parts_.imageData : this.parts_.imageUrl;
    if (template) return template(p);
    this.w.drop(
      `${this.where()}.content[${j}]`,
      p.data !== undefined ? 'this provider takes no base64 images; the image was not sent' : 'this provider takes no image URLs; the image was not sent',
    );
    return undefined;
  }

  private where(): string {
    return this.index < 0 ? 'system' : `messages[${this.index}]`;
  }
}

/**
 * `parts` still say what the fields say: as many reasoning blocks and calls, the same text (by
 * its characters; separators aside). The k-th thinking or call part stands for the k-th entry of
 * the field, which continuity rules and id renaming may have changed.
 */
function agrees(m: AssistantMessage, parts: ResponsePart[]): boolean {
  let thinking = 0;
  let calls = 0;
  let text = '';
  for (const p of parts) {
    if (p.type === 'thinking') thinking++;
    else if (p.type === 'tool-call') calls++;
    else if (p.type === 'text') text += p.text;
  }
  const content = typeof m.content === 'string' ? m.content : '';
  return thinking === (m.thinking?.length ?? 0) && calls === (m.toolCalls?.length ?? 0) && squash(text) === squash(content);
}

function squash(s: string): string {
  return s.replace(/\s+/g, '');
}

/** A part as warnings name it. */
export function describePart(p: ResponsePart): string {
  switch (p.type) {
    case 'provider-tool-call':
      return `a provider-run ${p.name} call`;
    case 'provider-tool-result':
      return `a provider-run ${p.name} result`;
    case 'opaque':
      return `a ${p.kind} part`;
    default:
      return `a ${p.type} part`;
  }
}
