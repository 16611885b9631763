/**
 * The unified model: one request shape, one response shape, one event stream for every provider.
 * Names and shapes are described in docs/unified-model.md; other code and users rely on them.
 */
import type { FromSchema, InferOutput, StandardSchemaV1 } from './schema.js';
import type { TelemetryOption } from './telemetry.js';

export type Role = 'system' | 'user' | 'assistant' | 'tool' | 'approval';

export type ContentPart =
  | { type: 'text'; text: string; cacheControl?: CacheControl }
  | { type: 'image'; url?: string; data?: string; mediaType?: string; cacheControl?: CacheControl };

/**
 * A prompt-cache breakpoint after this part or tool (Anthropic `cache_control`): the prefix up to
 * it may be cached for `ttl` (`5m` default, or `1h`). A spec whose templates have no place for it
 * does not send it (the gateway lists it in its warnings header).
 */
export interface CacheControl {
  type: 'ephemeral';
  ttl?: string;
}

/**
 * One block of model reasoning. Everything but `text` is opaque continuity state the provider
 * needs back unchanged: a signature (Anthropic `signature`, Gemini `thoughtSignature`, Responses
 * `encrypted_content`), redacted data, an item id, a format tag.
 */
export interface ThinkingPart {
  text: string;
  signature?: string;
  redacted?: string;
  id?: string;
  /** The provider's format tag for this block (OpenRouter `reasoning_details[].format`). */
  format?: string;
  /** `text` is a summary of the reasoning, not the reasoning itself (it goes back as a summary). */
  summary?: true;
}

/** `arguments` is the raw JSON text, never reformatted. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
  /**
   * Opaque provider data that must go back with the call (Gemini `thoughtSignature`). Set only on
   * `ChatResponse.message.toolCalls`, the copy meant for the history.
   */
  signature?: string;
  /**
   * Set when `arguments` is not valid JSON at the end of the turn (a cut or garbled stream): the
   * raw text is kept as it arrived, and this says what is wrong with it.
   */
  argumentsError?: string;
  /**
   * The kind of tool the call is for, when it is not a function the caller declared: a client-run
   * tool of the provider's (Responses `shell`, `local_shell`, `apply_patch`, `custom`, `computer`,
   * `tool_search`). `arguments` is then the JSON text of the call's input as the wire gives it
   * (docs/unified-model.md#client-run-tool-kinds). Absent for a function call.
   */
  kind?: string;
  /**
   * The wire item the call came as (Responses items with their `id`). Set only on
   * `ChatResponse.message.toolCalls`: it goes back verbatim to the provider that produced it, and
   * is dropped with a warning on the way to another.
   */
  wire?: unknown;
}

/** Where a text span comes from (a web page, a document, a file), as the provider cited it. */
export interface Citation {
  url?: string;
  title?: string;
  /** The quoted source text, where the wire gives it. */
  citedText?: string;
  /** The cited document's id or position, where the wire gives one. */
  documentId?: string;
  sourceIndex?: number;
}

/**
 * One piece of what a turn returned, in wire order (docs/unified-model.md#response-parts).
 * `wire` is the part as the provider sent it: the same provider gets it back verbatim, another
 * provider never sees it (it is dropped with a warning).
 */
export type ResponsePart =
  | { type: 'text'; text: string; citations?: Citation[]; signature?: string; phase?: string; id?: string }
  | ({ type: 'thinking' } & ThinkingPart)
  | { type: 'tool-call'; call: ToolCall }
  | { type: 'provider-tool-call'; id: string; name: string; input: unknown; wire?: unknown }
  | { type: 'provider-tool-result'; callId: string; name: string; result: unknown; isError?: boolean; wire?: unknown }
  | { type: 'source'; url?: string; title?: string; documentId?: string }
  | { type: 'file'; mediaType: string; data?: string; url?: string; wire?: unknown }
  | { type: 'approval-request'; id: string; name: string; input: unknown; wire?: unknown }
  | { type: 'opaque'; kind: string; value: unknown; wire?: unknown };

export type ResponsePartType = ResponsePart['type'];

export interface SystemMessage {
  role: 'system';
  content: string;
}
export interface UserMessage {
  role: 'user';
  content: string | ContentPart[];
  name?: string;
}
export interface AssistantMessage {
  role: 'assistant';
  content?: string | null;
  thinking?: ThinkingPart[];
  toolCalls?: ToolCall[];
  /**
   * The whole turn in wire order, as `ChatResponse.content` has it. When set, this is what goes
   * back to the provider that produced it (the order, and parts the fields above cannot say:
   * server-tool calls and results, compaction, files); another provider gets the fields above
   * and a warning for each part it cannot take.
   */
  parts?: ResponsePart[];
  /**
   * Who produced this turn. Set on `ChatResponse.message`; opaque state (signatures, redacted
   * reasoning, item ids) is only sent back to the provider (or model) the spec says it is valid for.
   * A message without an origin is taken as the caller's own and sent as it is.
   */
  origin?: { provider: string; model?: string };
}
export interface ToolMessage {
  role: 'tool';
  toolCallId: string;
  toolName?: string;
  content: string | ContentPart[];
  isError?: boolean;
  /**
   * The kind of the call this answers (`ToolCall.kind`), when it is not a function. Optional: a
   * spec that writes answers by kind takes it from the call of that id earlier in the conversation.
   */
  kind?: string;
}
/**
 * The answer to an `approval-request` part (a provider asking before it runs a tool, e.g. an MCP
 * call): sent after the turn that asked. A spec without a form for it drops it with a warning.
 */
export interface ApprovalMessage {
  role: 'approval';
  /** The `id` of the approval-request part. */
  requestId: string;
  approve: boolean;
  reason?: string;
}
export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage | ApprovalMessage;

/** A function the caller runs. */
export interface FunctionToolSpec {
  type?: 'function';
  name: string;
  description?: string;
  parameters: Record<string, unknown>;
  strict?: boolean;
  cacheControl?: CacheControl;
}

/**
 * A tool the provider runs (web search, code execution, an MCP server…), by its unified name;
 * `options` are the provider's own fields for it, sent as given. A spec without that tool
 * drops it with a warning, or rejects the request, as it declares (docs/unified-model.md#provider-tools).
 */
export interface ProviderToolSpec {
  type: 'provider';
  name: string;
  options?: Record<string, unknown>;
}

export type ToolSpec = FunctionToolSpec | ProviderToolSpec;

export type ToolChoice = 'auto' | 'none' | 'required' | { name: string };

export interface ReasoningOptions {
  effort?: 'minimal' | 'low' | 'medium' | 'high';
  budgetTokens?: number;
  summary?: boolean;
}

/** The schema of a typed reply: a JSON Schema (typed when written `as const`), or a Standard Schema (zod 4, valibot, arktype). */
export type ResponseSchema = Record<string, unknown> | StandardSchemaV1;

/**
 * `json` with a `schema` asks for a typed reply: the response's `object` is the reply parsed and
 * checked against it (docs/unified-model.md#structured-output). `json_schema` only sends the schema.
 */
export type ResponseFormat<S extends ResponseSchema = ResponseSchema> =
  | { type: 'text' }
  | { type: 'json'; schema?: S; name?: string; description?: string }
  | { type: 'json_schema'; name: string; schema: Record<string, unknown>; strict?: boolean };

/** The type of the reply a schema describes. */
export type ObjectOf<S> = S extends StandardSchemaV1 ? InferOutput<S> : FromSchema<S>;

/** The response to a request with schema S: with `object` typed from it; none asked for (`never`): a plain ChatResponse. */
export type StructuredResponse<S> = [S] extends [never] ? ChatResponse : ChatResponse & { object: ObjectOf<S> };

/** What an `object-delta` may hold of a T: any member may be missing yet, at any depth. */
export type PartialObject<T> = T extends readonly (infer E)[] ? Array<PartialObject<E>> : T extends object ? { [K in keyof T]?: PartialObject<T[K]> } : T;

/** The events of a stream whose final response is R: `object-delta` typed from R's `object`. */
export type StreamEventOf<R> = R extends { object: infer O } ? Exclude<StreamEvent, { type: 'object-delta' }> | { type: 'object-delta'; object: PartialObject<O> } : StreamEvent;

export interface ChatRequest<S extends ResponseSchema = ResponseSchema> {
  model?: string;
  system?: string;
  messages: Message[];
  maxTokens?: number;
  temperature?: number;
  topP?: number;
  stop?: string[];
  tools?: ToolSpec[];
  toolChoice?: ToolChoice;
  parallelToolCalls?: boolean;
  reasoning?: ReasoningOptions;
  responseFormat?: ResponseFormat<S>;
  user?: string;
  store?: boolean;
  previousResponseId?: string;
  metadata?: Record<string, string>;
  /** Extra top-level wire fields; standard fields win on conflict. */
  providerOptions?: Record<string, unknown>;
}

export type FinishReason =
  | 'stop'
  | 'length'
  | 'tool_calls'
  | 'content_filter'
  | 'refusal'
  | 'error'
  | 'other';

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  cachedInputTokens?: number;
  cacheWriteTokens?: number;
  reasoningTokens?: number;
  /**
   * Work other models did within the turn (Anthropic's advisor sub-inferences), one entry per
   * step, billed at their own rates: never included in the counts above.
   */
  otherModels?: UsageOfModel[];
}

/** One step of another model within a turn, counted as the turn's usage is. */
export interface UsageOfModel {
  /** The wire's name for the step (`advisor_message`). */
  kind: string;
  model?: string;
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  cachedInputTokens?: number;
  cacheWriteTokens?: number;
}

/** What became of a request field this provider cannot carry as given. */
export interface Warning {
  /**
   * `dropped`: not sent; `overridden`: a providerOptions key lost to a standard field;
   * `emulated`: sent another way than asked (a response schema as a prompt instruction).
   */
  type: 'dropped' | 'overridden' | 'emulated';
  /** The unified field, e.g. `metadata` or `messages[2].name`. */
  field: string;
  message: string;
}

export interface ChatResponse {
  id?: string;
  model?: string;
  text: string | null;
  thinking: string | null;
  toolCalls: ToolCall[];
  /** Everything the turn returned, in wire order; `text`, `thinking` and `toolCalls` are views of it. */
  content: ResponsePart[];
  message: AssistantMessage;
  finishReason: FinishReason | null;
  rawFinishReason: string | null;
  /**
   * The provider paused the turn and will go on if the conversation is sent back with this
   * message appended (Anthropic `pause_turn` during a long server-tool run): not an answer.
   * `runTools` does this by itself.
   */
  paused?: true;
  usage: Usage | null;
  warnings: Warning[];
  raw: unknown;
  /**
   * The reply parsed and checked against `responseFormat.schema` (what the schema library
   * returns, for a Standard Schema); set only when a schema was asked for and the turn ended
   * without calls to your tools.
   */
  object?: unknown;
}

export type StreamEvent =
  | { type: 'start'; id?: string; model?: string; warnings: Warning[] }
  | { type: 'text-delta'; delta: string }
  | { type: 'thinking-delta'; delta: string }
  /**
   * The opaque signature of the reasoning block being streamed (Anthropic `signature_delta`,
   * Responses `encrypted_content`, Gemini `thoughtSignature`), when it arrives; a later one
   * replaces it. What a gateway needs to pass reasoning on to a caller of the same provider.
   */
  | { type: 'thinking-signature'; signature: string }
  /** `kind`: the call is for a client-run tool of that kind (ToolCall.kind), not a function. */
  | { type: 'tool-call-start'; index: number; id: string; name: string; kind?: string }
  | { type: 'tool-call-delta'; index: number; delta: string }
  | { type: 'tool-call'; index: number; call: ToolCall }
  /** A completed part that has no deltas of its own (everything but text, thinking and tool calls). */
  | { type: 'part'; part: ResponsePart }
  | { type: 'usage'; usage: Usage }
  /** The reply parsed so far, when a schema was asked for: sent each time it changed (docs/unified-model.md#structured-output). */
  | { type: 'object-delta'; object: unknown }
  | {
      type: 'finish';
      finishReason: FinishReason | null;
      rawFinishReason: string | null;
      usage: Usage | null;
    };

export interface ClientOptions {
  /** Default: the environment variable the spec names. */
  apiKey?: string;
  /** Default model for every request. */
  model?: string;
  /** Default: the spec's base URL. */
  baseUrl?: string;
  /** Injectable transport (tests, proxies). Default: globalThis.fetch. */
  fetch?: typeof globalThis.fetch;
  /** Extra headers sent with every request. They cannot replace the auth header unless `allowAuthOverride`. */
  headers?: Record<string, string>;
  /** Lets `headers` replace the auth header (e.g. a proxy that takes its own token). */
  allowAuthOverride?: boolean;
  /** Time allowed until the response headers arrive. Default 600 000 ms. */
  timeoutMs?: number;
  /** Longest silence allowed between stream chunks. Default: timeoutMs. */
  idleTimeoutMs?: number;
  maxRetries?: number;
  /** Model-level defaults: a request value that is set wins; providerOptions merge key by key. */
  defaults?: Partial<Omit<ChatRequest, 'messages'>>;
  /** The endpoint options the spec declares (Azure resource, Vertex project and location, AWS region); else their env vars or defaults. */
  endpoint?: Record<string, string>;
  /**
   * For specs that send an access token (Vertex AI, Azure with Entra ID): asked for before every
   * request, so cache and refresh it as your auth library does. A static `apiKey` stands in without it.
   */
  getToken?: () => string | Promise<string>;
  /**
   * For specs signed with AWS SigV4 (Bedrock): credentials, or a function asked for them before
   * every request (temporary credentials that your credential provider refreshes). Default:
   * AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN.
   */
  aws?: AwsCredentialsOption | (() => AwsCredentialsOption | Promise<AwsCredentialsOption>);
  /**
   * One OpenTelemetry span per call (GenAI conventions; docs/serving.md#telemetry): `{}` for the
   * global tracer of `@opentelemetry/api` (an optional peer, loaded only then), or `{ tracer }`.
   * Clients of `createClient` only: the core `createClientFor` refuses it.
   */
  telemetry?: TelemetryOption;
}

export interface AwsCredentialsOption {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Extra headers for this call only. */
  headers?: Record<string, string>;
}
