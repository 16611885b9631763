/**
 * A spec document as the schema (specs/spec.schema.json) describes it, after rule shorthand is
 * expanded: the type the IR builder and the semantic rules read. test/generator/spec-document
 * checks that every key here is in the schema and every schema key is here.
 */

/** A payload path: `choices.0.delta.content`; `$` is the payload itself. */
export type PathText = string;
export type PathsText = PathText | PathText[];
/** A template: a JSON value with `$slot` strings (see the spec-language reference). */
export type TemplateValue = unknown;
export type ScalarValue = string | number | boolean | null;
export type TestValue = ScalarValue | { exists?: boolean; in?: ScalarValue[]; matches?: string; not?: TestValue };
export type ConditionValue = Record<string, TestValue>;

export interface SpecDocument {
  $schema?: string;
  id: string;
  name?: string;
  extends?: string;
  endpoint?: EndpointDocument;
  request?: RequestDocument;
  response?: RulesDocument;
  stream?: StreamDocument;
  finish?: FinishDocument;
  usage?: UsageDocument;
  parts?: PartsDocument;
  required?: { response?: PathText[] };
  errors?: ErrorsDocument;
  continuity?: ContinuityDocument;
  serve?: ServeDocument;
}

export interface EndpointDocument {
  baseUrl?: string | null;
  baseUrlRequired?: boolean;
  path?: string;
  streamPath?: string;
  streamQuery?: Record<string, string>;
  query?: Record<string, string>;
  method?: 'POST';
  auth?: { header?: string; scheme?: string; from?: 'key' | 'token'; sigv4?: { service: string; region?: string } };
  options?: Record<string, { env?: string | string[]; default?: string; cases?: { on: string; values: Record<string, string> }; description?: string }>;
  apiKeyEnv?: string;
  apiKeyOptional?: boolean;
  headers?: Record<string, string>;
}

export interface RequestDocument {
  model?: PathText;
  system?: { placement?: 'message' | 'field'; to?: PathText; join?: string; template?: TemplateValue };
  messages?: MessagesDocument;
  tools?: { to: PathText; item: TemplateValue; wrap?: TemplateValue; provider?: Record<string, Record<string, unknown>>; unknownProviderTool?: 'drop' | 'reject' };
  toolChoice?: { to: PathText; when?: Record<string, unknown>; auto?: TemplateValue; none?: TemplateValue; required?: TemplateValue; named?: TemplateValue; unset?: TemplateValue };
  responseFormat?: { to?: PathText; text?: TemplateValue; json?: TemplateValue; jsonSchema?: TemplateValue; schemaFallback?: 'tool' | 'instruction' };
  params?: Record<string, ParamDocument>;
  streamBody?: Record<string, unknown>;
  blockingBody?: Record<string, unknown>;
}

export interface MessagesDocument {
  to: PathText;
  merge?: string | { field: string; join?: string };
  roles: Partial<Record<'system' | 'user' | 'assistant' | 'tool' | 'toolError' | 'approval', TemplateValue>>;
  parts?: Partial<Record<'text' | 'imageUrl' | 'imageData', TemplateValue>>;
  blocks?: Partial<Record<'thinking' | 'summaryThinking' | 'redactedThinking' | 'text' | 'toolCall', TemplateValue>>;
}

export type ParamDocument =
  | PathText
  | {
      to?: PathText;
      default?: ScalarValue | ScalarValue[] | { sum: Array<number | string> };
      values?: Record<string, ScalarValue>;
      template?: TemplateValue;
      drop?: string;
      reject?: string;
      when?: ConditionValue;
    };

/** Named rules; `null` removes a base's rule in an overlay. */
export type RulesDocument = Record<string, RuleDocument | null>;

export interface RuleDocument {
  when?: ConditionValue;
  each?: PathText;
  before?: string;
  switch?: PathText;
  cases?: Record<string, RulesDocument>;
  rules?: RulesDocument;
  meta?: { id?: PathsText; model?: PathsText };
  text?: PathsText | { start?: boolean; text?: PathsText; citations?: PathText; signature?: PathText; phase?: PathText; id?: PathText };
  refusal?: PathsText;
  part?: PathText | { kind?: string; kindAt?: PathText; at?: PathText; open?: PathText; delta?: PathText };
  thinking?: {
    start?: boolean;
    break?: string;
    index?: PathText;
    summary?: PathText;
    format?: PathText;
    text?: PathsText;
    signature?: PathText;
    redacted?: PathText;
    id?: PathText;
  };
  toolCall?: {
    start?: boolean;
    complete?: boolean;
    end?: boolean;
    index?: PathText;
    id?: PathText;
    name?: PathText;
    arguments?: PathText;
    argumentsFull?: PathText;
    argumentsObject?: PathText;
    signature?: PathText;
    wire?: PathText;
    /** More of the call follows in later parts (arguments streamed as `pieces`). */
    continues?: PathText;
    pieces?: ArgumentPiecesDocument;
  };
  finish?: PathsText;
  usage?: PathsText | { at: PathsText; merge?: boolean };
  error?: { at?: PathText; message?: PathsText; type?: PathsText; code?: PathsText };
  end?: boolean;
}

export interface StreamDocument {
  framing?: 'sse' | 'ndjson' | 'event-stream';
  unwrap?: string;
  eventKey?: PathText;
  doneSentinel?: string;
  endsOnClose?: boolean;
  ignore?: string[];
  on?: Record<string, RulesDocument | null>;
}

export interface FinishDocument {
  map?: Record<string, string>;
  other?: string;
  upgrades?: Array<{ from: string; when: 'toolCalls' | 'refusal'; to: string }>;
  continues?: string[];
}

/** Arguments as JSON-path pieces: the list, and each piece's path, "more follows" flag and value by JSON type. */
export interface ArgumentPiecesDocument {
  each: PathText;
  path: PathText;
  continues?: PathText;
  string?: PathText;
  number?: PathText;
  boolean?: PathText;
  null?: PathText;
}
export type StepFilterDocument = { at: PathText; test: TestValue };
export type UsageCountDocument = PathsText | { over: PathText; sum: PathsText; otherwise?: PathsText; only?: StepFilterDocument };
export type UsageDocument = Partial<Record<'inputTokens' | 'outputTokens' | 'totalTokens' | 'cachedInputTokens' | 'cacheWriteTokens' | 'reasoningTokens', UsageCountDocument>> & {
  otherModels?: { over: PathText; only: StepFilterDocument; kind: PathText; model: PathText };
};

/** One part a kind becomes: fields by path (or `{ value }`), optionally once per element of `each`. */
export type PartFieldsDocument = { each?: PathText } & Record<string, PathsText | { value: ScalarValue } | { at: PathText; test: TestValue } | { at: PathText; values: Record<string, ScalarValue>; default?: ScalarValue }>;
export type PartTypeName = 'tool-call' | 'provider-tool-call' | 'provider-tool-result' | 'source' | 'file' | 'approval-request' | 'opaque';
export type PartDocument = Partial<Record<PartTypeName, PartFieldsDocument>>;

export type KindDocument = PartDocument & { parts?: PartDocument[]; echo?: boolean; json?: string; snapshot?: boolean };

export interface PartsDocument {
  unknown?: 'keep' | 'ignore';
  citation?: Partial<Record<'url' | 'title' | 'citedText' | 'documentId' | 'sourceIndex', PathsText>>;
  kinds?: Record<string, KindDocument | null>;
}

export interface ErrorsDocument {
  message?: PathsText;
  type?: PathsText;
  code?: PathsText;
  requestIdHeader?: string;
  typeHeader?: string;
  retryable?: Array<number | string>;
  noRetry?: Array<{ type?: string; code?: string }>;
  retryDelay?: PathsText;
}

export interface ContinuityDocument {
  scope?: 'provider' | 'model';
  foreignThinking?: 'drop' | 'text';
  state?: Array<{ field: string; wire: string; echo?: string }>;
  carry?: Array<{ kind: string; from?: PathText; to: PathText }>;
  rules?: Array<{
    when: Partial<Record<'store' | 'model' | 'reasoning' | 'toolTurnWithoutThinking', TestValue>>;
    require?: string[];
    drop?: string[];
    ensure?: string[];
    body?: Record<string, unknown>;
    note?: string;
  }>;
}

import type { ModelListShape, ServeStep } from '../../runtime/contract/serve-codec.js';

export interface ServeDocument {
  response?: TemplateValue;
  /** What every stream event carries (`$envelope`). */
  envelope?: TemplateValue;
  /** What a step written as `{ $chunk: <part> }` places its part in (`$body`). */
  chunk?: TemplateValue;
  /** One event (a template) or several (a list) per step. */
  stream?: Partial<Record<ServeStep, TemplateValue>>;
  /** Extra `$finish.<name>` slots per unified finish reason (`*`: every other reason). */
  finish?: Record<string, Record<string, unknown>>;
  error?: TemplateValue;
  /** The provider's error type per HTTP status the server side answers with itself. */
  errorTypes?: Record<string, string>;
  /** Forms clients send beyond the ones the request templates write. */
  accept?: ServeAcceptDocument;
  /** The key naming each item of a spread assistant turn. */
  itemId?: string;
  /** What the provider checks in a request's items before it answers (the mock answers 400 when one fails). */
  requestRules?: Array<{ item: string; key?: string; followedBy?: { has: string }; answeredBy?: string; answerKey?: string; error: string }>;
  /** Fields a response writes that a request leaves out, by the `type` of the object. */
  fill?: Record<string, Record<string, unknown>>;
  /** How a stream asked for without the endpoint's streamQuery is framed (Gemini without alt=sse: one JSON array). */
  streamWithoutQuery?: 'json-array';
  /** The model list this wire's clients read (a list shape of the runtime). */
  models?: ModelListShape;
}

export interface ServeAcceptDocument {
  auth?: Array<{ header: string; scheme?: string }>;
  messages?: TemplateValue;
  system?: TemplateValue;
  roles?: Record<string, TemplateValue>;
  parts?: Record<string, TemplateValue>;
  /** Assistant blocks taken back as they came, by the kind they are kept as. */
  blocks?: Record<string, TemplateValue>;
  tools?: TemplateValue;
}
