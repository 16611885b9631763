/**
 * A provider's codec: the parts of its wire worth compiling. Templates that write messages,
 * parts, blocks, tools and forms, and the readers that feed a response or a stream event to the
 * assembler (straight-line code, no interpretation per event). An overlay's codec spreads its
 * base's and replaces only what differs, removing a member by setting it to undefined (so optional
 * members admit undefined: generated code compiles under exactOptionalPropertyTypes).
 */
import type { Assembler, AssemblerUses } from './assembler.js';
import type { BinaryFrameDecoder, EventStreamOptions, ExceptionSink, FrameDecoder, FrameSink } from './frame.js';
import type { BlockTemplates, MessageContext, MessageContextUnit, PartTemplates } from './message-context.js';
import type { ParamField } from './param-fields.js';
import type { Condition, Continuity, DefaultValue, EndpointInfo, Profile, RequestProfile, UsageCount, UsageMap, WirePath } from './profile.js';
import type { ContinuityResult, ParamStep, RequestWarnings } from './request.js';
import type { Auth, EndpointView, Redact, StreamView } from './transport.js';
import type {
  ApprovalMessage,
  AssistantMessage,
  ChatRequest,
  ClientOptions,
  ContentPart,
  FunctionToolSpec,
  Message,
  ProviderToolSpec,
  ResponseFormat,
  SystemMessage,
  ToolMessage,
  UsageOfModel,
  UserMessage,
} from './unified-model.js';

export interface RoleTemplates {
  system?: ((m: SystemMessage, cx: MessageContext) => unknown) | undefined;
  user?: ((m: UserMessage, cx: MessageContext) => unknown) | undefined;
  assistant?: ((m: AssistantMessage, cx: MessageContext) => unknown) | undefined;
  tool?: ((m: ToolMessage, cx: MessageContext) => unknown) | undefined;
  /** A tool result marked as an error, where its wire shape differs. */
  toolError?: ((m: ToolMessage, cx: MessageContext) => unknown) | undefined;
  /** The answer to a provider's approval request. */
  approval?: ((m: ApprovalMessage, cx: MessageContext) => unknown) | undefined;
}

/** Values a tool-choice form can use. */
export interface ToolChoiceSlots {
  name: string | undefined;
  /** `parallelToolCalls: false`, for wires that say it inside the tool choice. */
  noParallel: true | undefined;
}

/** A form the spec leaves out is unsupported (dropped with a warning). */
export interface ToolChoiceForms {
  auto?: ((c: ToolChoiceSlots) => unknown) | undefined;
  none?: ((c: ToolChoiceSlots) => unknown) | undefined;
  required?: ((c: ToolChoiceSlots) => unknown) | undefined;
  named?: ((c: ToolChoiceSlots) => unknown) | undefined;
  /** Tools are declared and the request gives no choice. */
  unset?: ((c: ToolChoiceSlots) => unknown) | undefined;
  /** The spec's `when`, compiled: truthy while it holds, else it has dropped the choice with a warning. */
  when?: ((r: ChatRequest, w: RequestWarnings) => unknown) | undefined;
}

type JsonSchemaFormat = Extract<ResponseFormat, { type: 'json_schema' }>;

export interface ResponseFormatForms {
  text?: ((f: ResponseFormat) => unknown) | undefined;
  json?: ((f: ResponseFormat) => unknown) | undefined;
  jsonSchema?: ((f: JsonSchemaFormat) => unknown) | undefined;
}

/*
 * The units: runtime code only some wires need, each an interface here that the module named in
 * its doc `satisfies`.
 */

/** Continuity rules (request/continuity-rules.ts), or turns from elsewhere cleaned (request/apply-continuity.ts). */
export interface ContinuityUnit {
  (messages: Message[], origins: number[], req: ChatRequest, c: Continuity, w: RequestWarnings): ContinuityResult;
}

/** request/param-rules.ts */
export interface ParamRulesUnit {
  /** What a set value goes through before it is written: its condition, then its value table, then its template. */
  step(
    field: ParamField,
    rule: { values?: Readonly<Record<string, unknown>>; silent?: readonly string[]; when?: Condition },
    template: ParamStep | undefined,
  ): ParamStep;
  /** The spec's defaults for this request, placed as the body has them; undefined when it has none. */
  defaults(list: ReadonlyArray<{ to: WirePath; value: DefaultValue }>, req: ChatRequest): Record<string, unknown> | undefined;
  /** A default's value for this request (a sum adds request values to a base number). */
  defaultOf(d: DefaultValue, req: ChatRequest): unknown;
}

/** request/provider-tools.ts */
export interface ProviderToolsUnit {
  (t: ProviderToolSpec, i: number, tools: NonNullable<RequestProfile['tools']>, name: string, w: RequestWarnings): unknown;
}

/** request/tool-choice.ts */
export interface ToolChoiceRulesUnit {
  (req: ChatRequest, p: Profile, c: Codec, w: RequestWarnings): unknown;
}

/** request/merge-consecutive.ts */
export interface MergeUnit {
  (
    mapped: unknown[],
    field: string,
    join: string | undefined,
    textPart: ((p: Extract<ContentPart, { type: 'text' }>) => unknown) | undefined,
  ): unknown[];
}

/** framing/decode-ndjson.ts */
export interface NdjsonUnit {
  new (sink: FrameSink): FrameDecoder;
}

/** framing/decode-event-stream.ts */
export interface EventStreamUnit {
  new (sink: FrameSink, onException: ExceptionSink, options: EventStreamOptions): BinaryFrameDecoder;
  /** A decoder for an adapter's stream, raising the service's exceptions as provider errors. */
  forStream(sink: FrameSink, adapter: StreamView, redact: Redact): BinaryFrameDecoder;
}

/** assemble/usage-steps.ts */
export interface UsageStepsUnit {
  (raw: unknown, count: Exclude<UsageCount, readonly unknown[]>): number | undefined;
  /** Steps of other models (`usage.otherModels` in the table), reported apart; undefined when none. */
  apart?(raw: unknown, map: UsageMap): UsageOfModel[] | undefined;
}

/** wire/retry-delay.ts */
export interface RetryDelayUnit {
  (body: unknown, paths: readonly WirePath[]): number | undefined;
}

/** transport/auth-sigv4.ts */
export interface SigV4AuthUnit {
  (
    adapter: EndpointView,
    options: ClientOptions,
    apiKey: string | undefined,
    env: Record<string, string | undefined> | undefined,
    endpoint: Record<string, string>,
    redact: Redact,
  ): Auth;
}

/** transport/auth-token.ts */
export interface TokenAuthUnit {
  (adapter: EndpointView, options: ClientOptions, apiKey: string | undefined, redact: Redact): Auth;
}

/** client/endpoint-options.ts */
export interface EndpointOptionsUnit {
  (
    adapter: EndpointView,
    given: Record<string, string> | undefined,
    env: Record<string, string | undefined> | undefined,
    baseUrl: string | undefined,
    signing: boolean,
  ): Record<string, string>;
}

/** client/url-template.ts */
export interface UrlTemplateUnit {
  (provider: string, ep: EndpointInfo, base: string, path: string, stream: boolean, values: Record<string, string | undefined>): string;
}

/**
 * Runtime code only some wires need, supplied by the module whose spec uses it (the generator
 * lists each one it needs), so a bundle with other adapters leaves it out. The assembler's units
 * (thinking, textMeta, parts) are AssemblerUses'.
 */
export interface CodecUses extends AssemblerUses {
  /** Continuity rules, carried state and reasoning from elsewhere as text (`foreignThinking: text`), for specs with any (they clean turns from elsewhere too). */
  continuity?: ContinuityUnit;
  /** Turns from another provider cleaned of its reasoning, signatures and wire parts, for specs whose templates carry any and that have no continuity rules. */
  foreignTurns?: ContinuityUnit;
  /** The message context for templates that read $blocks, $thinking, $thinkingText, $argumentsObject, $images or a message's $text. */
  blocks?: MessageContextUnit;
  /** Param value tables (`values`, `silent`), `when` conditions and defaults, for specs with any. */
  paramRules?: ParamRulesUnit;
  /** Provider-run tools by name, for specs with `tools.provider` (or `unknownProviderTool`). */
  providerTools?: ProviderToolsUnit;
  /** Tool choices that say parallelToolCalls inside them or have an `unset` form (Anthropic). */
  toolChoiceRules?: ToolChoiceRulesUnit;
  /** Joining consecutive wire messages, for specs with `messages.merge`. */
  merge?: MergeUnit;
  /** The NDJSON stream decoder, for specs that stream NDJSON. */
  ndjson?: NdjsonUnit;
  /** Usage counts summed over a list of steps (`{ over, sum, otherwise }`), for specs with any. */
  usageSteps?: UsageStepsUnit;
  /** Retry delays read from error bodies, for specs with `errors.retryDelay`. */
  retryDelay?: RetryDelayUnit;
  /** The AWS event-stream decoder, for specs that stream it (Bedrock). */
  eventStream?: EventStreamUnit;
  /** AWS SigV4 credentials and signing, for specs whose requests are signed. */
  sigv4Auth?: SigV4AuthUnit;
  /** Access tokens from the client's getToken(), for specs with `auth.from: token`. */
  tokenAuth?: TokenAuthUnit;
  /** Endpoint options (resource, project, region…), for specs that declare them. */
  endpointOptions?: EndpointOptionsUnit;
  /** {placeholders} and query parameters in the endpoint, for specs whose endpoint has either. */
  urlTemplate?: UrlTemplateUnit;
}

export interface Codec {
  parts: PartTemplates;
  blocks: BlockTemplates;
  roles: RoleTemplates;
  /** The system field's shape, when it is not the joined text itself. */
  system?: ((text: string) => unknown) | undefined;
  tools?: { item: (t: FunctionToolSpec) => unknown; wrap?: ((items: unknown[]) => unknown) | undefined } | undefined;
  toolChoice: ToolChoiceForms;
  responseFormat: ResponseFormatForms;
  /**
   * A param's step before it is written: its template (`{ type: enabled, budget_tokens: $value }`),
   * and a `tools` condition compiled in (dropping the value with a warning); absent: none.
   */
  params?: Partial<Record<ParamField, (v: never, req: ChatRequest, w: RequestWarnings) => unknown>> | undefined;
  readResponse(a: Assembler, body: never): void;
  readEvent(a: Assembler, data: never, event: string | undefined): void;
  uses?: CodecUses;
}
