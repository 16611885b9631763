/**
 * Everything generated modules import, in one place: the surface the generator targets
 * (docs/architecture.md). Behaviour lives behind these names; generated code declares data and
 * compiled templates and readers, and calls only these. The types are the contract's
 * (runtime/contract/); the values are the units and helpers that satisfy it.
 */
export type { ProviderAdapter } from './contract/adapter.js';
export type { Assembler, TurnRules } from './contract/assembler.js';
export type { Codec, CodecUses } from './contract/codec.js';
export type { MessageContext } from './contract/message-context.js';
export type { Profile, WirePath } from './contract/profile.js';
export type { ServeCodec, ServeSlots } from './contract/serve-codec.js';
// Every contract type, so that the declarations of a project's own modules (`wireforge gen --js`)
// can name what their exports are inferred to be through the kit they import (no other path
// into the package is exported). Types only: nothing in a bundle.
export type * from './contract/adapter.js';
export type * from './contract/assembler.js';
export type * from './contract/codec.js';
export type * from './contract/event-sink.js';
export type * from './contract/frame.js';
export type * from './contract/message-context.js';
export type * from './contract/profile.js';
export type * from './contract/request.js';
export type * from './contract/serve-codec.js';
export type * from './contract/transport.js';
export type * from './contract/unified-model.js';
export { defineAdapter } from './adapter.js';
export { KIT_VERSION } from './kit-version.js';
export { createRegistry, type Registry } from './registry.js';
export { TurnAssembler } from './assemble/turn-assembler.js';
export { openToolCall, toolCallDelta, appendToolArguments, setToolArguments, setToolArgumentsObject, setToolSignature, setToolWire, closeToolCall } from './assemble/tool-call-stream.js';
export { piecedToolCall, argumentPiece, endPieces } from './assemble/argument-pieces.js';
export { startText, setTextSignature } from './assemble/text-part.js';
export { mergeUsage } from './assemble/merge-usage.js';
export { usageSteps } from './assemble/usage-steps.js';
export { placeRules, runRules } from './assemble/place-rules.js';
export { ThinkingBlocks } from './assemble/thinking-blocks.js';
export { TextMeta } from './assemble/text-meta.js';
export { ResponseParts } from './assemble/response-parts.js';
export { BlockContext } from './request/block-context.js';
export { compact, omit } from './request/compact.js';
export { templatesOver, type RequestTemplateChanges } from './request/compile-templates.js';
export { continuityRules } from './request/continuity-rules.js';
export { applyContinuity } from './request/apply-continuity.js';
export { paramRules } from './request/param-rules.js';
export { toolChoiceRules } from './request/tool-choice.js';
export { providerTools } from './request/provider-tools.js';
export { mergeConsecutive } from './request/merge-consecutive.js';
export { NdjsonDecoder } from './framing/decode-ndjson.js';
export { EventStreamDecoder } from './framing/decode-event-stream.js';
export { sigv4Auth } from './transport/auth-sigv4.js';
export { tokenAuth } from './transport/auth-token.js';
export { resolveEndpointOptions } from './client/endpoint-options.js';
export { urlTemplate } from './client/url-template.js';
export { retryDelayMs } from './wire/retry-delay.js';
export { firstString } from './wire/read-path.js';
export { serveOver } from './serve/serve-over.js';

/** An array, or nothing to iterate (wire data may omit or mistype it). */
export const list = (v: unknown): readonly any[] => {
  return Array.isArray(v) ? v : [];
};

/** Empty for a `$when` template condition: undefined, null, '' or []. */
export const isEmpty = (v: unknown): boolean => {
  return v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
};

/** A value as JSON text (`$json.<slot>` in serve templates); nothing stays nothing. */
export const jsonText = (v: unknown): string | undefined => {
  return v === undefined ? undefined : JSON.stringify(v);
};

/** An array without the items that vanished. */
export const present = <T>(items: Array<T | undefined>): T[] => {
  const out: T[] = [];
  for (const i of items) if (i !== undefined) out.push(i);
  return out;
};
