/**
 * The `cx` that generated message templates call into: turns unified content into the wire
 * parts and blocks the spec's templates describe, and records a warning for anything the
 * spec has no template for, so nothing silently vanishes.
 */
import type { BlockTemplates, MessageContext, MessageContextUnit, PartTemplates } from '../contract/message-context.js';
import type { AssistantMessage, ContentPart, ResponsePart, ToolCall, ToolMessage } from '../contract/unified-model.js';
import { missingUse } from '../errors.js';
import type { Warnings } from './warnings.js';
import { isString } from '../wire/read-path.js';

/** The message context of every wire; BlockContext (block-context.ts) adds the block methods. */
export class TemplateContext implements MessageContext {
  #index = 0;
  protected thinkingCarried = false;
  /** The message's parts went out through `blocks` (the wire has a place for every kind). */
  protected partsCarried = false;

  readonly #parts: PartTemplates;
  protected declare readonly blocks_: BlockTemplates;
  protected declare readonly w: Warnings;

  constructor(
    parts: PartTemplates,
    blocks_: BlockTemplates,
    w: Warnings,
  ) {
    this.blocks_ = blocks_;
    this.w = w;
    this.#parts = parts;
  }

  /** Sets the request position used in warnings; returns this for chaining. */
  at(index: number): this {
    this.#index = index;
    this.thinkingCarried = false;
    this.partsCarried = false;
    return this;
  }

  /** After each message: report what its templates had no place for. Returns the wire message. */
  finish<T>(m: { role: string; thinking?: unknown[]; parts?: ResponsePart[] }, wire: T): T {
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
    return isString(c) ? c : this.parts(c);
  }

  parts(c: string | ContentPart[]): unknown[] {
    if (isString(c)) return this.#parts.text ? [this.#parts.text({ type: 'text', text: c })] : [c];
    const out: unknown[] = [];
    c.forEach((p, j) => {
      const mapped = this.#part(p, j);
      if (mapped !== undefined) out.push(mapped);
    });
    return out;
  }

  /** A turn's text, or undefined (its key left out) for a turn of only tool calls or reasoning. */
  assistantText(m: AssistantMessage): string | undefined {
    // Empty, null and missing alike (content is a string, null or nothing).
    return m.content || undefined;
  }

  toolCalls(m: AssistantMessage): unknown[] | undefined {
    if (!m.toolCalls?.length || !this.blocks_.toolCall) return undefined;
    return m.toolCalls.map((c) => this.blocks_.toolCall!(c, this));
  }

  #part(p: ContentPart, j: number): unknown {
    const forms = this.#parts;
    if (p.type === 'text') return forms.text ? forms.text(p) : p.text;
    const base64 = p.data !== undefined;
    const template = base64 ? forms.imageData : forms.imageUrl;
    // Base64 without a mediaType is data prepareConversation could not recognise.
    const why = base64 && p.mediaType === undefined ? 'base64 image without mediaType, and not PNG, JPEG, GIF or WebP data' : !template && `this provider takes no ${base64 ? 'base64 images' : 'image URLs'}`;
    if (!why) return template!(p);
    this.w.drop(`${this.where()}.content[${j}]`, `${why}; the image was not sent`);
    return undefined;
  }

  /** The current message, as named in warnings. */
  where(): string {
    return this.#index < 0 ? 'system' : `messages[${this.#index}]`;
  }
}

/*
 * Turns as blocks, thinking, argument objects, base64 image lists and text-only content: methods
 * of BlockContext (block-context.ts), which modules whose templates read them supply as
 * `codec.uses.blocks`. Here they say that unit is missing (a hand-written codec), one stub for all.
 */
export interface TemplateContext {
  imageData(c: string | ContentPart[]): string[] | undefined;
  text(c: string | ContentPart[]): string;
  blocks(m: AssistantMessage): unknown[];
  thinkingBlocks(m: AssistantMessage): unknown[] | undefined;
  thinkingText(m: AssistantMessage): string | undefined;
  argumentsObject(c: ToolCall): Record<string, unknown>;
  callKind(m: ToolMessage): string | undefined;
  output(m: ToolMessage): unknown;
  plainText(m: ToolMessage): string;
}
for (const name of ['imageData', 'text', 'blocks', 'thinkingBlocks', 'thinkingText', 'argumentsObject', 'callKind', 'output', 'plainText'] as const) {
  TemplateContext.prototype[name] = function (this: TemplateContext): never {
    return missingUse(this.w.provider, 'blocks');
  };
}

TemplateContext satisfies MessageContextUnit;

/** A part as warnings name it: `a provider-run web_search call`, `a code_execution part`, `a file part`. */
export const describePart = (p: ResponsePart): string => {
  // provider-tool-call, provider-tool-result: the tool's name and what the part is of it.
  if (p.type === 'provider-tool-call' || p.type === 'provider-tool-result') return `a provider-run ${p.name} ${p.type.slice(14)}`;
  return `a ${p.type === 'opaque' ? p.kind : p.type} part`;
};
