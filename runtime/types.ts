/**
 * The unified model: one request shape, one response shape, one event stream for every provider.
 * Names and shapes are described in docs/unified-model.md; other code and users rely on them.
 */

export type Role = 'system' | 'user' | 'assistant' | 'tool';

export type ContentPart =
  | { type: 'text'; text: string }
  | { type: 'image'; url?: string; data?: string; mediaType?: string };

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
}

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
}
export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

export interface ToolSpec {
  name: string;
  description?: string;
  parameters: Record<string, unknown>;
  strict?: boolean;
}

export type ToolChoice = 'auto' | 'none' | 'required' | { name: string };

export interface ReasoningOptions {
  effort?: 'minimal' | 'low' | 'medium' | 'high';
  budgetTokens?: number;
  summary?: boolean;
}

export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json' }
  | { type: 'json_schema'; name: string; schema: Record<string, unknown>; strict?: boolean };

export interface ChatRequest {
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
  responseFormat?: ResponseFormat;
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
}

/** What became of a request field this provider cannot carry as given. */
export interface Warning {
  /** `dropped`: not sent; `overridden`: a providerOptions key lost to a standard field. */
  type: 'dropped' | 'overridden';
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
  message: AssistantMessage;
  finishReason: FinishReason | null;
  rawFinishReason: string | null;
  usage: Usage | null;
  warnings: Warning[];
  raw: unknown;
}

export type StreamEvent =
  | { type: 'start'; id?: string; model?: string; warnings: Warning[] }
  | { type: 'text-delta'; delta: string }
  | { type: 'thinking-delta'; delta: string }
  | { type: 'tool-call-start'; index: number; id: string; name: string }
  | { type: 'tool-call-delta'; index: number; delta: string }
  | { type: 'tool-call'; index: number; call: ToolCall }
  | { type: 'usage'; usage: Usage }
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
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Extra headers for this call only. */
  headers?: Record<string, string>;
}
