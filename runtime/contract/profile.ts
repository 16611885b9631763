/**
 * A provider's profile: everything about its wire that is data rather than code (endpoint,
 * where each request field goes, value tables, defaults, finish and usage tables, error fields,
 * retry rules, continuity). Generated modules declare one as an `as const` object; the runtime
 * applies it with code written once. The generator builds these same types from a spec, so
 * there is one definition of each (docs/architecture.md).
 */
import type { ParamField } from './param-fields.js';
import type { FinishReason, ResponsePartType } from './unified-model.js';

export type { ParamField };

/** A wire path as segments: `choices.0.delta` is `['choices', 0, 'delta']`; `[]` is the payload itself. */
export type WirePath = readonly (string | number)[];

export type Scalar = string | number | boolean | null;

/** One test of the condition vocabulary (`when:`), shared by params, templates, rules and continuity. */
export type Test =
  | { readonly eq: Scalar }
  | { readonly in: readonly Scalar[] }
  | { readonly exists: boolean }
  | { readonly matches: string }
  | { readonly not: Test };

/** Every subject's test must hold. Subjects are unified request fields or continuity facts. */
export type Condition = Readonly<Record<string, Test>>;

/** A default that adds request values to a base number (a required maximum that must exceed a budget). */
export type DefaultValue = Scalar | readonly Scalar[] | { readonly sum: readonly (number | ParamField)[] };

/** Where one unified field goes, or why it does not. */
export type ParamRule =
  | {
      readonly to: WirePath;
      /** Unified value → wire value; a value not listed is dropped with a warning. */
      readonly values?: Readonly<Record<string, Scalar>>;
      /** Values that send nothing and say nothing. */
      readonly silent?: readonly string[];
      /** The codec has a template for this field (`codec.params[field]`). */
      readonly template?: true;
      /** Written when neither the request nor providerOptions set it (a required wire field). */
      readonly default?: DefaultValue;
      /** Sent only while this holds; otherwise dropped with a warning. */
      readonly when?: Condition;
    }
  | { readonly drop: string }
  | { readonly reject: string }
  /** A template of the codec reads this field (Anthropic's parallelToolCalls inside tool_choice). */
  | { readonly carriedBy: string };

export interface EndpointInfo {
  readonly baseUrl?: string;
  /** The user must supply baseUrl (generic compatible servers); absent: false. */
  readonly baseUrlRequired?: boolean;
  readonly path: string;
  readonly streamPath?: string;
  /** Query parameters stream requests add (over `query`); absent: none. */
  readonly streamQuery?: Readonly<Record<string, string>>;
  /** How requests are authenticated: the spec's `endpoint.auth`, under the same names. */
  readonly auth: EndpointAuth;
  readonly apiKeyEnv?: string;
  /** Requests may go without a key (local servers); absent: false. */
  readonly apiKeyOptional?: boolean;
  /** Headers on every request; absent: none. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Query parameters on every request; values may use {option} placeholders. */
  readonly query?: Readonly<Record<string, string>>;
  /** Endpoint parameters the client supplies ({name} in baseUrl, path, streamPath, query). */
  readonly options?: Readonly<Record<string, EndpointOption>>;
}

export interface EndpointAuth {
  /** The header the key or token goes in, lower-case. */
  readonly header: string;
  /** Written before the key with a space (`Bearer`); absent: the key alone. */
  readonly scheme?: string;
  /** `token`: the header carries an access token from the client's getToken() (else a static apiKey), asked for per request; absent: the API key. */
  readonly from?: 'key' | 'token';
  /** Requests are signed with AWS SigV4 instead; `region` names the endpoint option holding the region. */
  readonly sigv4?: { readonly service: string; readonly region: string };
}

export interface EndpointOption {
  /** Environment variables read when the client does not give it, first set wins. */
  readonly env?: readonly string[];
  /** Used when neither gives one; may use other options' {placeholders}. */
  readonly default?: string;
  /** Defaults by another option's value, tried before `default`. */
  readonly cases?: { readonly on: string; readonly values: Readonly<Record<string, string>> };
  readonly description?: string;
}

export interface RequestProfile {
  /** Body path of the model; absent when the model travels only in the URL path. */
  readonly model?: WirePath;
  readonly system: { readonly placement: 'message' | 'field'; readonly to?: WirePath; readonly join: string };
  readonly messages: {
    readonly to: WirePath;
    /** An assistant turn becomes several top-level items (Responses `input`); absent: false. */
    readonly spread?: boolean;
    /**
     * Consecutive wire messages that agree on everything but this field are joined into one:
     * arrays concatenated, strings joined with `join` if given (else made text parts).
     */
    readonly merge?: { readonly field: string; readonly join?: string };
  };
  readonly tools?: {
    readonly to: WirePath;
    /**
     * Provider-run tools by unified name: the wire object each one starts from (the request's
     * `options` are merged over it). A name not listed is dropped with a warning, or rejected
     * when `unknownProviderTool` says so.
     */
    readonly provider?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
    readonly unknownProviderTool?: 'drop' | 'reject';
  };
  readonly toolChoice?: { readonly to: WirePath };
  readonly responseFormat?: { readonly to: WirePath };
  /**
   * How a response schema travels on a wire without a JSON-schema form
   * (`request.responseFormat.schemaFallback`): a forced tool whose arguments are the reply, or an
   * instruction in the system prompt (with a warning); absent: such a request is refused.
   */
  readonly schemaFallback?: 'tool' | 'instruction';
  readonly params: Readonly<Partial<Record<ParamField, ParamRule>>>;
  /** What the templates can carry, so the runtime can warn about what they cannot; absent: not carried. */
  readonly carries: {
    readonly userName?: boolean;
    readonly toolError?: boolean;
    readonly toolStrict?: boolean;
    /** A tool call's signature (Gemini's thoughtSignature). */
    readonly callSignature?: boolean;
  };
  /** Fields forced into the body for each kind of call (`stream: true`); absent: none. */
  readonly streamBody?: Readonly<Record<string, unknown>>;
  readonly blockingBody?: Readonly<Record<string, unknown>>;
}

export interface FinishTable {
  readonly map: Readonly<Record<string, FinishReason>>;
  /** Unknown non-null wire values. */
  readonly other: FinishReason;
  readonly upgrades: ReadonlyArray<{ readonly from: FinishReason; readonly when: 'toolCalls' | 'refusal'; readonly to: FinishReason }>;
  /**
   * Wire values that say the turn is not over (Anthropic `pause_turn`): the tool loop sends the
   * conversation back as it is, with this turn appended, to let the provider go on.
   */
  readonly continues?: readonly string[];
}

/**
 * Wire fields summed into one count, or, when the wire lists its work in steps (Anthropic
 * `usage.iterations`), the sum over every element of that list, with the plain fields used when
 * the list is absent.
 */
export type UsageCount =
  | readonly WirePath[]
  | { readonly over: WirePath; readonly sum: readonly WirePath[]; readonly otherwise: readonly WirePath[]; readonly only?: StepFilter };

/** The steps a count is made of (`only`): those whose value at `at` passes the test. */
export interface StepFilter {
  readonly at: WirePath;
  readonly test: Test;
}

/**
 * Steps of other models within the turn (Anthropic's advisor iterations): each reported apart in
 * `usage.otherModels`, with its kind and model, counted by the same table; never in the counts.
 */
export interface UsageApart {
  readonly over: WirePath;
  readonly only: StepFilter;
  readonly kind: WirePath;
  readonly model: WirePath;
}

/** Which wire fields (summed when several) make up each unified count. */
export interface UsageMap {
  readonly inputTokens: UsageCount;
  readonly outputTokens: UsageCount;
  readonly totalTokens: UsageCount;
  readonly cachedInputTokens: UsageCount;
  readonly cacheWriteTokens: UsageCount;
  readonly reasoningTokens: UsageCount;
  readonly otherModels?: UsageApart;
}

/**
 * A part field: the first present of several wire paths, a fixed value, or whether the value at
 * a path passes a test (`isError` from an outcome that is not OUTCOME_OK).
 */
export type PartField =
  | readonly WirePath[]
  | { readonly value: Scalar }
  | { readonly at: WirePath; readonly test: Test }
  | ValueTableField;

/** A wire value looked up in a table, `default` when it is not there (Responses `output_format` → a media type). */
export interface ValueTableField {
  readonly at: WirePath;
  readonly values: Readonly<Record<string, Scalar>>;
  readonly default?: Scalar;
}

/** One unified part made from a wire object (or one per element of a list in it). */
export interface PartRule {
  readonly part: ResponsePartType;
  readonly each?: WirePath;
  readonly fields: Readonly<Record<string, PartField>>;
}

/**
 * What a wire kind (a block or item type) becomes: the parts made from it, whether the wire
 * object is kept to send back verbatim to the same provider, and which field JSON deltas fill
 * while it streams (Anthropic `input_json_delta` on a server-tool block).
 */
export interface KindRule {
  readonly parts: readonly PartRule[];
  readonly echo: boolean;
  readonly json?: string;
  /**
   * Each object of this kind is the whole so far (Gemini resends grounding metadata on later
   * chunks): a new one replaces the last, and its parts are announced when the turn ends.
   */
  readonly snapshot?: true;
}

/**
 * The kind table (docs/unified-model.md#response-parts). A kind the table does not list is kept
 * as an `opaque` part with its wire object, so nothing a provider returns is lost.
 */
export interface PartsProfile {
  /** Absent: none (every wire object not text, thinking or a call is a kind the table does not list). */
  readonly kinds?: Readonly<Record<string, KindRule>>;
  /** How a wire citation object maps to a unified Citation. */
  readonly citation?: Readonly<Partial<Record<'url' | 'title' | 'citedText' | 'documentId' | 'sourceIndex', readonly WirePath[]>>>;
  /** `ignore`: kinds left unlisted are not kept (a wire whose unknown items carry nothing to send back); absent: they are kept. */
  readonly unknown?: 'keep' | 'ignore';
}

export interface ErrorProfile {
  /** Candidate paths, first string wins. */
  readonly message: readonly WirePath[];
  readonly type: readonly WirePath[];
  readonly code: readonly WirePath[];
  readonly requestIdHeader?: string;
  /** A response header naming the error type (the text before any `:`), for wires whose bodies do not (AWS). */
  readonly typeHeader?: string;
  /** Statuses that may be retried; absent: 408, 409, 429 and every 5xx (RETRYABLE_BY_DEFAULT). */
  readonly retryable?: { readonly codes: readonly number[]; readonly ranges: ReadonlyArray<readonly [number, number]> };
  /** Errors never retried whatever their status (OpenAI's `insufficient_quota` 429); absent: none. */
  readonly noRetry?: ReadonlyArray<{ readonly type?: string; readonly code?: string }>;
  /**
   * Where the error body says how long to wait before retrying (Gemini `RetryInfo.retryDelay`):
   * seconds as a number or a duration string (`"34s"`, `"1.5s"`). A `*` segment searches a list.
   */
  readonly retryDelay?: readonly WirePath[];
}

export interface StreamProfile {
  readonly framing: 'sse' | 'ndjson' | 'event-stream';
  /** event-stream: the JSON field of each frame's payload that holds the event as base64 (Bedrock InvokeModel). */
  readonly unwrap?: string;
  /** A data payload that ends the stream, e.g. `[DONE]`. */
  readonly doneSentinel?: string;
  /** The connection closing after a finish reason is a normal end (no terminal event); absent: false. */
  readonly endsOnClose?: boolean;
}

export interface Profile {
  readonly id: string;
  readonly name: string;
  readonly endpoint: EndpointInfo;
  readonly request: RequestProfile;
  readonly stream: StreamProfile;
  readonly finish: FinishTable;
  readonly usage: UsageMap;
  readonly parts?: PartsProfile;
  /** Fields a blocking body must have (a body without one is an error, not an empty turn). */
  readonly required?: { readonly response: readonly WirePath[] };
  readonly errors: ErrorProfile;
  /** The provider id is the profile's own; absent: the defaults (turns from another provider are from elsewhere, their reasoning dropped; no rules). */
  readonly continuity?: Omit<Continuity, 'provider'>;
}

/**
 * Facts a continuity rule's `when` can test: `store` and `model` (the request's), `reasoning`
 * (the request asks for reasoning), `toolTurnWithoutThinking` (the conversation continues a
 * tool turn that carries no reasoning; judged after foreign state is cleaned up).
 */
export type ContinuityFact = 'store' | 'model' | 'reasoning' | 'toolTurnWithoutThinking';

export interface ContinuityRule {
  readonly when: Condition;
  /** Thinking blocks lacking this are not sent, with a warning (absent: none). */
  readonly require?: readonly string[];
  /** `thinking`: history reasoning is never sent back (the wire rejects it); request fields: dropped with a warning (absent: none). */
  readonly drop?: readonly string[];
  /** `thinking`: every assistant turn carries reasoning, empty if it had none (absent: none). */
  readonly ensure?: readonly string[];
  readonly body?: Readonly<Record<string, unknown>>;
}

/** State a turn returned that the next request carries as a body field (a container id). */
export interface CarryRule {
  /** The opaque part kind. */
  readonly kind: string;
  /** Where the value is inside the part's value (`[]`: all of it). */
  readonly from: readonly (string | number)[];
  readonly to: readonly (string | number)[];
}

/** A wire's continuity; what a generated profile leaves out is the default. */
export interface Continuity {
  provider: string;
  /** `model`: a turn of another model of the same provider is from elsewhere too; absent: `provider`. */
  scope?: 'provider' | 'model';
  /** `text`: reasoning from elsewhere goes back as text; absent: `drop`. */
  foreignThinking?: 'drop' | 'text';
  /** Absent: none. */
  rules?: readonly ContinuityRule[];
  carry?: readonly CarryRule[];
}
