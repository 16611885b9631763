/**
 * A provider's codec: the parts of its wire worth compiling. Templates that write messages,
 * parts, blocks, tools and forms, and the readers that feed a response or a stream event to the
 * assembler (straight-line code, no interpretation per event). An overlay's codec spreads its
 * base's and replaces only what differs, removing a member by setting it to undefined (so optional
 * members admit undefined: generated code compiles under exactOptionalPropertyTypes).
 */
import type { ResponseParts } from './assemble/response-parts.js';
import { WireforgeError } from './errors.js';
import type { ThinkingBlocks } from './assemble/thinking-blocks.js';
import type { TextMeta } from './assemble/text-meta.js';
import type { NdjsonDecoder } from './framing/decode-ndjson.js';
import type { EventStreamDecoder } from './framing/decode-event-stream.js';
import type { sigv4Auth } from './transport/auth-sigv4.js';
import type { tokenAuth } from './transport/auth-token.js';
import type { resolveEndpointOptions } from './client/endpoint-options.js';
import type { urlTemplate } from './client/url-template.js';
import type { BlockContext } from './request/block-context.js';
import type { applyContinuity } from './request/apply-continuity.js';
import type { continuityRules } from './request/continuity-rules.js';
import type { mergeConsecutive } from './request/merge-consecutive.js';
import type { paramRules } from './request/param-rules.js';
import type { providerTools } from './request/provider-tools.js';
import type { toolChoiceRules } from './request/tool-choice.js';
import type { retryDelayMs } from './wire/retry-delay.js';
import type { TurnAssembler } from './assemble/turn-assembler.js';
import type { usageSteps } from './assemble/usage-steps.js';
import type { BlockTemplates, MessageContext, PartTemplates } from './request/message-context.js';
import type { ParamField } from './contract/profile.js';
import type { ApprovalMessage, AssistantMessage, FunctionToolSpec, ResponseFormat, SystemMessage, ToolMessage, UserMessage } from './contract/unified-model.js';

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
}

type JsonSchemaFormat = Extract<ResponseFormat, { type: 'json_schema' }>;

export interface ResponseFormatForms {
  text?: ((f: ResponseFormat) => unknown) | undefined;
  json?: ((f: ResponseFormat) => unknown) | undefined;
  jsonSchema?: ((f: JsonSchemaFormat) => unknown) | undefined;
}

/**
 * Runtime code only some wires need, supplied by the module whose spec uses it (the generator
 * lists each one it needs), so a bundle with other adapters leaves it out.
 */
export interface CodecUses {
  /** Reasoning blocks, for readers that call the thinking methods. */
  thinking?: typeof ThinkingBlocks;
  /** Text signatures and phases, for readers whose text rules read a `signature` or `phase`. */
  textMeta?: typeof TextMeta;
  /** Parts made by the kind table, for readers that call addPart, openPart or partDelta. */
  parts?: typeof ResponseParts;
  /** Continuity rules, carried state and reasoning from elsewhere as text (`foreignThinking: text`), for specs with any (they clean turns from elsewhere too). */
  continuity?: typeof continuityRules;
  /** Turns from another provider cleaned of its reasoning, signatures and wire parts, for specs whose templates carry any and that have no continuity rules. */
  foreignTurns?: typeof applyContinuity;
  /** The message context for templates that read $blocks, $thinking, $thinkingText, $argumentsObject, $images or a message's $text. */
  blocks?: typeof BlockContext;
  /** Param value tables (`values`, `silent`), `when` conditions and defaults, for specs with any. */
  paramRules?: typeof paramRules;
  /** Provider-run tools by name, for specs with `tools.provider` (or `unknownProviderTool`). */
  providerTools?: typeof providerTools;
  /** Tool choices that say parallelToolCalls inside them or have an `unset` form (Anthropic). */
  toolChoiceRules?: typeof toolChoiceRules;
  /** Joining consecutive wire messages, for specs with `messages.merge`. */
  merge?: typeof mergeConsecutive;
  /** The NDJSON stream decoder, for specs that stream NDJSON. */
  ndjson?: typeof NdjsonDecoder;
  /** Usage counts summed over a list of steps (`{ over, sum, otherwise }`), for specs with any. */
  usageSteps?: typeof usageSteps;
  /** Retry delays read from error bodies, for specs with `errors.retryDelay`. */
  retryDelay?: typeof retryDelayMs;
  /** The AWS event-stream decoder, for specs that stream it (Bedrock). */
  eventStream?: typeof EventStreamDecoder;
  /** AWS SigV4 credentials and signing, for specs whose requests are signed. */
  sigv4Auth?: typeof sigv4Auth;
  /** Access tokens from the client's getToken(), for specs with `auth.from: token`. */
  tokenAuth?: typeof tokenAuth;
  /** Endpoint options (resource, project, region…), for specs that declare them. */
  endpointOptions?: typeof resolveEndpointOptions;
  /** {placeholders} and query parameters in the endpoint, for specs whose endpoint has either. */
  urlTemplate?: typeof urlTemplate;
}

/**
 * A profile or reader that needs a unit its codec does not supply (a hand-written codec): said
 * when first needed, naming the unit (CodecUses says what each one is for).
 */
export function missingUse(provider: string, name: keyof CodecUses): never {
  throw new WireforgeError(`adapter "${provider}" needs codec.uses.${name} (generated modules supply it)`, { provider });
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
  /** Templates for param values (`{ type: enabled, budget_tokens: $value }`); absent: none. */
  params?: Partial<Record<ParamField, (v: never) => unknown>> | undefined;
  readResponse(a: TurnAssembler, body: never): void;
  readEvent(a: TurnAssembler, data: never, event: string | undefined): void;
  uses?: CodecUses;
}
