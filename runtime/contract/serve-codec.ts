/**
 * What a generated module's `serve` export is: the spec's serve section compiled (docs/serving.md).
 * Templates read one slots object; the server runtime fills it for each step of a turn.
 */
import type { ProviderAdapter } from './adapter.js';
import type { EndpointAuth } from './profile.js';
import type { StreamEvent } from './unified-model.js';

/**
 * The steps of a served stream (docs/serving.md#stream-steps); serve/serve-steps.ts lists them in
 * the order a turn passes them. `error` is not a step of a turn: what an error in the middle of
 * the stream writes.
 */
export type ServeStep =
  | 'start'
  | 'textStart'
  | 'textDelta'
  | 'textEnd'
  | 'thinkingStart'
  | 'thinkingText'
  | 'thinkingDelta'
  | 'thinkingSignature'
  | 'thinkingEnd'
  | 'part'
  | 'toolCallStart'
  | 'toolCallDelta'
  | 'toolCallEnd'
  | 'toolCall'
  | 'finish'
  | 'end'
  | 'error';

/** A spec to serve: its adapter and its serve export (a generated module has both). */
export interface ServedSpec {
  adapter: ProviderAdapter;
  serve: ServeCodec;
  /** The id of the spec this one extends, if any (generated serve.ts `bases`): a gateway answers in it as a dialect of that one. */
  extends?: string;
}

/** What a served stream is written from: the unified events. */
export type ServeEvent = StreamEvent;

/**
 * The values serve templates read. Object slots hold JSON this spec's own templates and tables
 * wrote (the turn as an assistant message, the wire usage, the blocking body), so they are
 * read into without a declared shape.
 */
export interface ServeSlots {
  /** The response id, the model, and the turn's creation time in Unix seconds. */
  readonly id: string;
  readonly model: string;
  readonly created: number;
  /** The same time as an ISO 8601 string. */
  readonly createdAt: string;
  /** How many events this stream has written before this one. */
  readonly seq: number;
  /** The block's position in the turn (text, reasoning and tool-call blocks alike). */
  readonly index: number;
  /** The call's position among the turn's tool calls. */
  readonly callIndex: number;
  /**
   * In a block's start step (textStart, toolCallStart, toolCall): the turn's first text or
   * tool-call block (a wire that opens its stream with that block's first chunk).
   */
  readonly first: boolean;
  /** An id for the block's wire item, made from the response id and the block index. */
  readonly itemId: string;
  readonly delta: string;
  /** The block's text (or the call's argument text) so far. */
  readonly text: string;
  readonly signature: string | undefined;
  /**
   * A reasoning block's fields no delta carries (its part in the turn, read at the block's start
   * and end): its redacted or encrypted data (a block with no text), its format tag, and whether
   * its text is a summary. The block's upstream id, when it has one, is its `itemId`.
   */
  readonly redacted: string | undefined;
  readonly format: string | undefined;
  readonly summary: boolean | undefined;
  readonly callId: string;
  readonly name: string;
  readonly arguments: string;
  readonly argumentsObject: any;
  /** The wire finish reason; `finish.<name>` slots read `finishFields`. */
  readonly finish: string | undefined;
  readonly finishFields: Readonly<Record<string, unknown>>;
  readonly usage: any;
  readonly message: any;
  readonly response: any;
  /** What every stream event carries (serve.envelope). */
  readonly envelope: any;
  /** A part in this provider's own wire form (the `part` step). */
  readonly wire: any;
  /**
   * The client's request body as it arrived (undefined when there is none), so a response can
   * echo the settings it was made with (Responses' `temperature`, `tools`, `metadata`).
   */
  readonly request: any;
  /** Error bodies: the message, the provider's error type and code, the HTTP status. */
  readonly type: string | undefined;
  readonly code: string | undefined;
  readonly status: number;
}

export type ServeTemplate = (s: ServeSlots) => unknown;

/**
 * What a chunk event's part is placed in: the step's slots and the part (`$body`), given as an
 * argument rather than a slot so the slots keep their shape on the per-event path.
 */
export type ServeChunk = (s: ServeSlots, body: any) => unknown;

/**
 * A stream event written as a chunk: `chunk` writes the event's own part (undefined: no event),
 * which the codec's `chunk` template places in what every such event repeats (read as `$body`).
 */
export interface ServeChunkTemplate {
  readonly chunk: ServeTemplate;
}

/** One event of a stream step: a whole event, or a chunk's own part. */
export type ServeEventTemplate = ServeTemplate | ServeChunkTemplate;

export interface ServeCodec {
  readonly response?: ServeTemplate | undefined;
  /** What every stream event carries, read by the steps as `$envelope`. */
  readonly envelope?: ServeTemplate | undefined;
  /**
   * What a chunk step's part is placed in (`$body`): the part every chunk event repeats around it
   * (Chat Completions' envelope and one choice), written once.
   */
  readonly chunk?: ServeChunk | undefined;
  /** Each step's events, in order; a step a spec leaves out writes nothing. */
  readonly stream: Readonly<Partial<Record<ServeStep, readonly ServeEventTemplate[]>>>;
  /** `finish.<name>` slots per unified finish reason; `*` for every reason not listed. */
  readonly finish: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly error?: ServeTemplate | undefined;
  /** The provider's error type per HTTP status the server side answers with itself. */
  readonly errorTypes?: Readonly<Record<string, string>> | undefined;
  /** Forms clients send beyond the ones the request templates write (docs/serving.md#reading-requests). */
  readonly accept?: AcceptedForms | undefined;
  /** The key naming each item of a spread assistant turn, set to its $itemId when absent. */
  readonly itemId?: string | undefined;
  /** What the provider checks in a request's items before it answers; the mock answers 400 when one fails (request-rules.ts). */
  readonly requestRules?: readonly RequestRule[] | undefined;
  /**
   * Fields a response writes that the request form of a turn leaves out, by the `type` of the
   * object in `$message` (Responses' item `status`, `annotations` on output text): added where absent.
   */
  readonly fill?: Readonly<Record<string, Readonly<Record<string, unknown>>>> | undefined;
  /** The request templates as the spec writes them, for reading a client's request back (decode-request.ts). */
  readonly request?: RequestTemplates | undefined;
  /** How a stream asked for without the endpoint's streamQuery is framed: `json-array` (Gemini without alt=sse). */
  readonly streamWithoutQuery?: 'json-array' | undefined;
  /** SSE wires that name their events: the payload field that holds the name (`type`). */
  readonly eventName?: readonly string[] | undefined;
  /** The model list this wire's clients read (`models.list()`): one of the runtime's list shapes (serve/model-list.ts); OpenAI's when unset. */
  readonly models?: ModelListShape | undefined;
}

/** The model-list formats the SDKs read: OpenAI's (and the compatible wires'), Anthropic's, Gemini's, Ollama's `/api/tags`. */
export type ModelListShape = 'openai' | 'anthropic' | 'gemini' | 'ollama';

/** A template as data: JSON with `$slot` strings (docs/spec-language.md#templates-and-slots). */
export type TemplateData = unknown;

export interface RequestTemplates {
  readonly roles: Readonly<Record<string, TemplateData>>;
  readonly parts: Readonly<Record<string, TemplateData>>;
  readonly blocks: Readonly<Record<string, TemplateData>>;
  readonly system?: TemplateData;
  readonly tools?: { readonly item: TemplateData; readonly wrap?: TemplateData };
  readonly toolChoice?: Readonly<Record<string, TemplateData>>;
  readonly responseFormat?: Readonly<Record<string, TemplateData>>;
  readonly params?: Readonly<Record<string, TemplateData>>;
}

/** Each a template or a list of templates, read with the slots of the form they stand beside. */
export interface AcceptedForms {
  /** Header forms besides the endpoint's own, in its names. */
  readonly auth?: ReadonlyArray<Pick<EndpointAuth, 'header' | 'scheme'>>;
  readonly messages?: TemplateData;
  readonly system?: TemplateData;
  readonly roles?: Readonly<Record<string, TemplateData>>;
  readonly parts?: Readonly<Record<string, TemplateData>>;
  /** Assistant blocks the wire takes back as they came, by the kind they are kept as (opaque parts with their wire). */
  readonly blocks?: Readonly<Record<string, TemplateData>>;
  /** Function tool forms besides `tools.item` (Gemini's `parameters`, read with `$openApiParameters`). */
  readonly tools?: TemplateData;
}

/**
 * A check the provider makes on the items of a request (docs/serving.md#request-rules): each item
 * of type `item` must be followed right away by an item that has the field `followedBy.has`, or
 * be answered later by an item of type `answeredBy` whose `answerKey` (default: `key`) equals its
 * `key` (default `call_id`). `error` is the provider's message; `{field}` is that field of the item.
 */
export interface RequestRule {
  readonly item: string;
  readonly key?: string;
  readonly followedBy?: { readonly has: string };
  readonly answeredBy?: string;
  readonly answerKey?: string;
  readonly error: string;
}
