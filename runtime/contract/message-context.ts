/**
 * The `cx` generated message templates are typed against: what turns unified content into the
 * wire parts and blocks a spec's templates describe. request/message-context.ts implements it
 * for every wire; request/block-context.ts adds the block methods (the `blocks` unit).
 */
import type { RequestWarnings } from './request.js';
import type { AssistantMessage, ContentPart, ResponsePart, ThinkingPart, ToolCall, ToolMessage } from './unified-model.js';

type TextPart = Extract<ContentPart, { type: 'text' }>;
type ImagePart = Extract<ContentPart, { type: 'image' }>;
/** One text block of an assistant turn: its text, and what the provider sent with it. */
export type TextBlock = Omit<Extract<ResponsePart, { type: 'text' }>, 'type'>;

export interface PartTemplates {
  text?: ((p: TextPart) => unknown) | undefined;
  imageUrl?: ((p: ImagePart) => unknown) | undefined;
  imageData?: ((p: ImagePart) => unknown) | undefined;
}

export interface BlockTemplates {
  /** `i` is the block's position among the turn's thinking blocks. */
  thinking?: ((b: ThinkingPart, cx: MessageContext, i: number) => unknown) | undefined;
  /** For summary blocks; default: the thinking template. */
  summaryThinking?: ((b: ThinkingPart, cx: MessageContext, i: number) => unknown) | undefined;
  redactedThinking?: ((b: ThinkingPart, cx: MessageContext, i: number) => unknown) | undefined;
  text?: ((b: TextBlock, cx: MessageContext) => unknown) | undefined;
  toolCall?: ((b: ToolCall, cx: MessageContext) => unknown) | undefined;
}

export interface MessageContext {
  /** Sets the request position used in warnings; returns this for chaining. */
  at(index: number): this;
  /** After each message: report what its templates had no place for. Returns the wire message. */
  finish<T>(m: { role: string; thinking?: unknown[]; parts?: ResponsePart[] }, wire: T): T;
  /** String content as it is; part lists through the part templates. */
  content(c: string | ContentPart[]): unknown;
  parts(c: string | ContentPart[]): unknown[];
  assistantText(m: AssistantMessage): string | undefined;
  toolCalls(m: AssistantMessage): unknown[] | undefined;
  /** The current message, as named in warnings. */
  where(): string;
  /* The block methods: the `blocks` unit's (a context without it says so when one is called). */
  imageData(c: string | ContentPart[]): string[] | undefined;
  text(c: string | ContentPart[]): string;
  blocks(m: AssistantMessage): unknown[];
  thinkingBlocks(m: AssistantMessage): unknown[] | undefined;
  thinkingText(m: AssistantMessage): string | undefined;
  argumentsObject(c: ToolCall): Record<string, unknown>;
  /** The kind of the call a tool message answers: its own `kind`, or the kind of the call with its id earlier in the request. */
  callKind(m: ToolMessage): string | undefined;
  /**
   * A tool result as the value a kind's output item holds: its JSON, or the text when it is not
   * JSON. Such a form has no error flag: an error result is reported (a warning), as for plainText.
   */
  output(m: ToolMessage): unknown;
  /** A tool result as text, in a form (of several) that has no error flag: an error result is reported. */
  plainText(m: ToolMessage): string;
}

/** A message context made per request (the `blocks` unit is one with the block methods). */
export interface MessageContextUnit {
  new (parts: PartTemplates, blocks: BlockTemplates, w: RequestWarnings): MessageContext;
}
