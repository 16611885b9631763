/**
 * The message context for templates that write an assistant turn as blocks (in the order of its
 * parts when it came from this provider), its thinking as blocks or one text, tool-call arguments
 * as objects, images as a base64 list, or a message's content as text only: what only some wires
 * do, so the modules whose templates read these slots supply this class (`codec.uses.blocks`) and
 * others leave it out.
 */
import type { AssistantMessage, ContentPart, ResponsePart, ThinkingPart, ToolCall, ToolMessage } from '../contract/unified-model.js';
import { isObject } from '../wire/read-path.js';
import type { BlockTemplates, MessageContextUnit } from '../contract/message-context.js';
import { TemplateContext } from './message-context.js';

export class BlockContext extends TemplateContext {
  /** Image parts a text-only slot left out, reported at finish() unless another slot carried them. */
  readonly #pendingImages = new Map<number, string>();
  /** The kind of each call written so far in this request, by id (what a tool message answers). */
  readonly #kinds = new Map<string, string>();

  override at(index: number): this {
    if (this.#pendingImages.size) this.#pendingImages.clear();
    return super.at(index);
  }

  override finish<T>(m: { role: string; thinking?: unknown[]; parts?: ResponsePart[] }, wire: T): T {
    if (this.#pendingImages.size) {
      for (const [j, message] of this.#pendingImages) this.w.drop(`${this.where()}.content[${j}]`, message);
      this.#pendingImages.clear();
    }
    return super.finish(m, wire);
  }

  /** Text only: image parts cannot ride along and are reported. */
  override text(c: string | ContentPart[]): string {
    if (typeof c === 'string') return c;
    const texts: string[] = [];
    c.forEach((p, j) => {
      if (p.type === 'text') texts.push(p.text);
      else this.#pendingImages.set(j, 'this message can carry text only; the image was not sent');
    });
    return texts.join('\n');
  }

  /** Base64 image data for wires that list images beside the text (Ollama `images`). */
  override imageData(c: string | ContentPart[]): string[] | undefined {
    if (typeof c === 'string') return undefined;
    const out: string[] = [];
    c.forEach((p, j) => {
      if (p.type !== 'image') return;
      if (p.data !== undefined) {
        out.push(p.data);
        this.#pendingImages.delete(j);
      } else this.#pendingImages.set(j, 'only base64 image data can be sent here; the image URL was not sent');
    });
    return out.length ? out : undefined;
  }

  /**
   * Assistant content as blocks. With `parts` (a turn this provider returned), in their order,
   * each part the wire object it came from when it has one; otherwise thinking first, then text,
   * then tool calls.
   */
  override blocks(m: AssistantMessage): unknown[] {
    for (const c of m.toolCalls ?? []) if (c.kind !== undefined) this.#kinds.set(c.id, c.kind);
    if (m.parts) {
      if (agrees(m, m.parts)) return this.#partBlocks(m, m.parts);
      // The fields were changed after the turn came back: they are what the caller means to send.
      this.partsCarried = true;
      m.parts.forEach((p, j) => {
        if ('wire' in p && p.wire !== undefined) this.w.drop(`${this.where()}.parts[${j}]`, 'the message\'s content, thinking or toolCalls no longer match its parts (edited?); the turn was written from those fields and this part was not sent');
      });
    }
    const out: unknown[] = this.thinkingBlocks(m) ?? [];
    if (m.content && this.blocks_.text) out.push(this.blocks_.text({ text: m.content }, this));
    // A call that came as a wire item goes back as it came (a call from elsewhere has none).
    for (const c of m.toolCalls ?? []) if (c.wire !== undefined) out.push(c.wire);
    else if (this.blocks_.toolCall) out.push(this.blocks_.toolCall(c, this));
    return out;
  }

  /**
   * The k-th thinking or tool-call part is the k-th entry of `thinking` / `toolCalls` (those are
   * what continuity rules and id renaming act on); other parts go back as the wire sent them.
   */
  #partBlocks(m: AssistantMessage, parts: ResponsePart[]): unknown[] {
    this.partsCarried = true;
    if (this.blocks_.thinking || this.blocks_.redactedThinking) this.thinkingCarried = true;
    const out: unknown[] = [];
    let t = 0;
    let c = 0;
    for (const p of parts) {
      if (p.type === 'text') {
        // An item with an id goes back even when it has no text (Responses: a message after reasoning).
        if ((p.text !== '' || p.signature !== undefined || p.id !== undefined) && this.blocks_.text) out.push(this.blocks_.text(p, this));
      } else if (p.type === 'thinking') {
        const block = m.thinking![t]!;
        const template = this.#thinkingTemplate(block);
        if (template) out.push(template(block, this, t));
        t++;
      } else if (p.type === 'tool-call') {
        // A call that came as a wire item (a Responses item with its id) goes back as it came.
        const call = m.toolCalls![c]!;
        if (call.wire !== undefined) out.push(call.wire);
        else if (this.blocks_.toolCall) out.push(this.blocks_.toolCall(call, this));
        c++;
      } else if ('wire' in p && p.wire !== undefined) out.push(p.wire);
    }
    return out;
  }

  #thinkingTemplate(t: ThinkingPart): BlockTemplates['thinking'] {
    return t.redacted !== undefined ? this.blocks_.redactedThinking : t.summary ? (this.blocks_.summaryThinking ?? this.blocks_.thinking) : this.blocks_.thinking;
  }

  /** The turn's thinking through the thinking block templates (a wire list of reasoning entries). */
  override thinkingBlocks(m: AssistantMessage): unknown[] | undefined {
    if (this.blocks_.thinking || this.blocks_.redactedThinking) this.thinkingCarried = true;
    const out: unknown[] = [];
    (m.thinking ?? []).forEach((t, i) => {
      const template = this.#thinkingTemplate(t);
      if (template) out.push(template(t, this, i));
    });
    return out.length ? out : undefined;
  }

  /** All thinking text of a turn, for wires that echo reasoning as one string field. */
  override thinkingText(m: AssistantMessage): string | undefined {
    this.thinkingCarried = true;
    const parts = (m.thinking ?? []).filter((t) => t.redacted === undefined);
    return parts.length ? parts.map((t) => t.text).join('') : undefined;
  }

  override callKind(m: ToolMessage): string | undefined {
    return m.kind ?? this.#kinds.get(m.toolCallId);
  }

  override output(m: ToolMessage): unknown {
    const text = this.plainText(m);
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }

  /**
   * Where a wire writes a result in one of several forms and only some carry an error flag
   * (Responses: an apply_patch output's status), the forms without one say so here.
   */
  override plainText(m: ToolMessage): string {
    if (m.isError) this.w.drop(`${this.where()}.isError`, 'this result\'s form has no error flag; it was sent as a plain result');
    return this.text(m.content);
  }

  /** Tool-call arguments as an object, for wires that take objects (Anthropic `input`). */
  override argumentsObject(c: ToolCall): Record<string, unknown> {
    try {
      const v: unknown = JSON.parse(c.arguments === '' ? '{}' : c.arguments);
      if (isObject(v)) return v;
    } catch {
      // reported below
    }
    this.w.drop(
      `${this.where()}.toolCalls[${c.id}].arguments`,
      'arguments are not a JSON object and this provider takes objects; sent as {}',
    );
    return {};
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

BlockContext satisfies MessageContextUnit;
