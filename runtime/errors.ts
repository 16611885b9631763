/**
 * Every error the runtime raises extends WireforgeError. Errors raised after a stream delivered
 * something carry `partial`: the ChatResponse assembled so far, so nothing that arrived is lost.
 */
import type { CodecUses } from './contract/codec.js';
import type { ChatResponse } from './contract/unified-model.js';

/*
 * Fields the constructor always assigns are `declare`d: a bare field declaration would be emitted
 * as a class field (define semantics) only to be overwritten. Each class names itself in a
 * string: a minifier renames classes, and `error.name` is part of the contract.
 */
/** A value as a message quotes it (`"usr"`, `"message_delta"`): one helper, for the bundle's sake. */
export const quote = (v: unknown): string => JSON.stringify(v);

export class WireforgeError extends Error {
  override name = 'WireforgeError';
  /** Provider spec id, e.g. `anthropic-messages`. */
  declare readonly provider: string | undefined;
  declare partial: ChatResponse | undefined;

  constructor(message: string, options: { provider?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.provider = options.provider;
    this.partial = undefined;
  }
}

/**
 * A profile or reader that needs a unit its codec does not supply (a hand-written codec): said
 * when first needed, naming the unit (CodecUses says what each one is for).
 */
export const missingUse: (provider: string, name: keyof CodecUses) => never = (provider, name) => {
  throw new WireforgeError(`adapter "${provider}" needs codec.uses.${name} (generated modules supply it)`, { provider });
};

/** The codec's unit `name`, for a profile that needs it; missingUse when it is not there. */
export const useOf = <K extends keyof CodecUses>(codec: { uses?: CodecUses }, provider: string, name: K): NonNullable<CodecUses[K]> => {
  return codec.uses?.[name] ?? missingUse(provider, name);
};

export interface ProviderErrorInit {
  provider: string;
  /** HTTP status; undefined for an in-stream error event sent after a 200. */
  status?: number;
  message: string;
  type?: string;
  code?: string;
  body?: unknown;
  retryable: boolean;
  requestId?: string;
  /** How long the error body says to wait before a retry (Gemini RetryInfo), in ms. */
  retryAfterMs?: number;
  /** The HTTP response's headers (retry-after, rate-limit counts); none for an in-stream error. */
  headers?: Headers;
}

/** An HTTP error response, or an error event inside a stream. */
export class ProviderError extends WireforgeError {
  override name = 'ProviderError';
  declare readonly status: number | undefined;
  /** The provider's own message, as it sent it (keys redacted). */
  declare readonly providerMessage: string;
  declare readonly type: string | undefined;
  declare readonly code: string | undefined;
  declare readonly body: unknown;
  declare readonly retryable: boolean;
  declare readonly requestId: string | undefined;
  /** The wait the error body asks for before a retry, in ms (headers are read by the transport). */
  declare readonly retryAfterMs: number | undefined;
  /** The error response's headers (`retry-after`, `x-ratelimit-*`): what a gateway passes on to its caller. */
  declare readonly headers: Headers | undefined;

  constructor(init: ProviderErrorInit) {
    const where = init.status === undefined ? 'in-stream error' : `HTTP ${init.status}`;
    const kind = init.type ?? init.code;
    super(`${init.provider}: ${where}${kind ? ` (${kind})` : ''}: ${init.message}`, {
      provider: init.provider,
    });
    Object.assign(this, {
      status: init.status,
      providerMessage: init.message,
      type: init.type,
      code: init.code,
      body: init.body,
      retryable: init.retryable,
      requestId: init.requestId,
      retryAfterMs: init.retryAfterMs,
      headers: init.headers,
    });
  }
}

/*
 * One subclass per HTTP status a caller may want to catch by class (as openai-node does);
 * `providerErrorFor` picks it. Each is made by `statusError` (eight class bodies written out
 * cost the budgeted core bundle 110 B more); like every class here it sets its own `name`.
 */
export type StatusErrorClass<S extends number> = new (init: ProviderErrorInit) => ProviderError & { readonly status: S };

const statusError = <S extends number>(name: string): StatusErrorClass<S> =>
  // Made as a property named `name`, the class takes that name (`BadRequestError.name`) as a declared one would.
  ({
    [name]: class extends ProviderError {
      override name = name;
      declare readonly status: S;
    },
  })[name]!;

export const BadRequestError = statusError<400>('BadRequestError');
export type BadRequestError = InstanceType<typeof BadRequestError>;
export const AuthenticationError = statusError<401>('AuthenticationError');
export type AuthenticationError = InstanceType<typeof AuthenticationError>;
export const PermissionError = statusError<403>('PermissionError');
export type PermissionError = InstanceType<typeof PermissionError>;
export const NotFoundError = statusError<404>('NotFoundError');
export type NotFoundError = InstanceType<typeof NotFoundError>;
export const ConflictError = statusError<409>('ConflictError');
export type ConflictError = InstanceType<typeof ConflictError>;
export const UnprocessableEntityError = statusError<422>('UnprocessableEntityError');
export type UnprocessableEntityError = InstanceType<typeof UnprocessableEntityError>;
export const RateLimitError = statusError<429>('RateLimitError');
export type RateLimitError = InstanceType<typeof RateLimitError>;
/** Any status from 500 up. */
export const InternalServerError = statusError<number>('InternalServerError');
export type InternalServerError = InstanceType<typeof InternalServerError>;

/** The ProviderError subclass for `init.status`; in-stream errors and other statuses stay ProviderError. */
export const providerErrorFor = (init: ProviderErrorInit): ProviderError => {
  // An in-stream error (no status) finds no entry and stays ProviderError.
  const status = init.status ?? 0;
  return new (status >= 500 ? InternalServerError : (BY_STATUS[status] ?? ProviderError))(init);
};

const BY_STATUS: Partial<Record<number, StatusErrorClass<number>>> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionError,
  404: NotFoundError,
  409: ConflictError,
  422: UnprocessableEntityError,
  429: RateLimitError,
};

export interface StreamErrorInit {
  provider: string;
  /** What went wrong, in a few words. */
  reason: string;
  /** The event name or type being handled, when known. */
  event?: string;
  /** Character offset of the event in the decoded stream. */
  offset?: number;
  /** A short excerpt of the offending data. */
  excerpt?: string;
  cause?: unknown;
}

/** A malformed, truncated or inconsistent stream. */
export class StreamError extends WireforgeError {
  override name = 'StreamError';
  declare readonly reason: string;
  declare readonly event: string | undefined;
  declare readonly offset: number | undefined;
  declare readonly excerpt: string | undefined;

  constructor(init: StreamErrorInit) {
    let at = init.event === undefined ? '' : `event ${quote(init.event)}`;
    if (init.offset !== undefined) at += `${at && ', '}offset ${init.offset}`;
    const tail = init.excerpt === undefined ? '' : `: ${quote(init.excerpt)}`;
    super(`${init.provider}: ${init.reason}${at && ` at ${at}`}${tail}`, {
      provider: init.provider,
      cause: init.cause,
    });
    this.reason = init.reason;
    this.event = init.event;
    this.offset = init.offset;
    this.excerpt = init.excerpt;
  }
}

/**
 * The request never got a response: the connection was refused or reset, the host is unknown,
 * the URL is not valid. `cause` is the transport's own error; `attempts` how many were made.
 */
export class ConnectionError extends WireforgeError {
  override name = 'ConnectionError';
  declare readonly attempts: number;
  constructor(provider: string, message: string, attempts: number, cause: unknown) {
    super(`${provider}: ${message}`, { provider, cause });
    this.attempts = attempts;
  }
}

/** No response headers in time (`first-byte`), or silence between stream chunks (`idle`). */
export class TimeoutError extends WireforgeError {
  override name = 'TimeoutError';
  declare readonly phase: 'first-byte' | 'idle';
  declare readonly timeoutMs: number;

  constructor(provider: string, phase: 'first-byte' | 'idle', timeoutMs: number) {
    super(
      `${provider}: ${phase === 'idle' ? 'no stream data' : 'no response'} within ${timeoutMs} ms`,
      { provider },
    );
    this.phase = phase;
    this.timeoutMs = timeoutMs;
  }
}

/** Keep excerpts short: they go into messages. */
export const excerptOf = (text: string, max = 120): string => {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
};

/** A request this provider cannot carry, as its spec declares (`reject`), or a malformed one. */
export class RequestError extends WireforgeError {
  override name = 'RequestError';
  declare readonly field: string;
  constructor(provider: string, field: string, message: string) {
    super(`${provider}: request field ${field}: ${message}`, { provider });
    this.field = field;
  }
}

/** Tool-call arguments that are not valid JSON or do not match the tool's schema (tool loop). */
export class ToolArgumentsError extends WireforgeError {
  override name = 'ToolArgumentsError';
  declare readonly toolName: string;
  declare readonly callId: string;
  /** The raw argument text as the model sent it. */
  declare readonly arguments: string;
  /** Schema violations (the validator's), or one entry for a JSON syntax error. */
  declare readonly errors: Array<{ path: string; message: string }>;

  constructor(init: { toolName: string; callId: string; arguments: string; errors: Array<{ path: string; message: string }> }) {
    super(`tool ${JSON.stringify(init.toolName)} (call ${init.callId}): invalid arguments: ${init.errors.map((e) => `${e.path || '/'} ${e.message}`).join('; ')}`);
    this.toolName = init.toolName;
    this.callId = init.callId;
    this.arguments = init.arguments;
    this.errors = init.errors;
  }
}

/** The model asked for a tool the loop does not have (tool loop). */
export class UnknownToolError extends WireforgeError {
  override name = 'UnknownToolError';
  declare readonly toolName: string;
  declare readonly callId: string;
  constructor(toolName: string, callId: string, known: string[]) {
    super(`the model called unknown tool ${JSON.stringify(toolName)} (call ${callId}); known tools: ${known.join(', ') || 'none'}`);
    this.toolName = toolName;
    this.callId = callId;
  }
}

/** A tool's execute() threw and the loop was told to stop on that (`onExecutionError: 'throw'`). */
export class ToolExecutionError extends WireforgeError {
  override name = 'ToolExecutionError';
  declare readonly toolName: string;
  declare readonly callId: string;
  constructor(toolName: string, callId: string, cause: unknown) {
    super(`tool ${JSON.stringify(toolName)} (call ${callId}) failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.toolName = toolName;
    this.callId = callId;
  }
}

/**
 * A reply asked for with a schema (`responseFormat: { type: 'json', schema }`) that is not JSON
 * or does not match the schema. The whole response is in `partial`; the reply's text in `text`.
 */
export class StructuredOutputError extends WireforgeError {
  override name = 'StructuredOutputError';
  /** The reply as the model wrote it (the forced tool's arguments on a wire without a JSON-schema mode); null: no reply text. */
  declare readonly text: string | null;
  /** What is wrong, each with a JSON Pointer into the reply (`/items/0/price`; '' for the whole reply). */
  declare readonly issues: Array<{ path: string; message: string }>;
  constructor(provider: string, text: string | null, issues: Array<{ path: string; message: string }>, partial: ChatResponse) {
    super(`${provider}: the reply does not match the response schema: ${issues.map((e) => `${e.path || '(root)'} ${e.message}`).join('; ')}`, { provider });
    this.text = text;
    this.issues = issues;
    this.partial = partial;
  }
}

/** A mock server set up to do something it cannot (a fault its reply cannot carry): refused at start, so a test cannot pass on a clean answer. */
export class MockSetupError extends WireforgeError {
  override name = 'MockSetupError';
  /** Where in the options, e.g. `script[0].fault.truncateAfter`. */
  declare readonly option: string;
  declare readonly reason: string;
  constructor(provider: string, option: string, reason: string) {
    super(`${provider} mock: ${option}: ${reason}`, { provider });
    this.option = option;
    this.reason = reason;
  }
}
