/**
 * The runtime's public surface. The package entry (generated/index.ts) re-exports it beside the
 * registry of built-in adapters and `createClient`, so the runtime never imports generated code.
 */
export { createClientFor, type Client } from './client/create-client.js';
export { createRegistry, type Registry } from './registry.js';
export { withStructuredOutput } from './structured/structured-client.js';
export { defineAdapter } from './adapter.js';
export { KIT_VERSION } from './kit-version.js';
export { ChatStream } from './client/chat-stream.js';
export { ConnectionError, ProviderError, RequestError, StreamError, TimeoutError, WireforgeError } from './errors.js';
export {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PermissionError,
  providerErrorFor,
  RateLimitError,
  UnprocessableEntityError,
  type ProviderErrorInit,
  type StatusErrorClass,
} from './errors.js';
export type { ProviderAdapter, ErrorFields } from './contract/adapter.js';
export type { BuiltRequest, CallMode } from './contract/request.js';
export type { Codec, CodecUses } from './contract/codec.js';
export type * from './contract/profile.js';
export { PARAM_FIELDS } from './contract/param-fields.js';
export type * from './contract/unified-model.js';
export { runTools, streamTools, ToolStream, type RunToolsOptions, type RunToolsResult, type ToolLoopEvent, type ToolStep } from './tools/tool-loop.js';
export { defineTool, type KindToolDefinition, type ReturnBehaviour, type ToolContext, type ToolDefinition, type ToolKinds, type ToolSet } from './tools/define-tool.js';
export type { ToolExecution } from './tools/execute-calls.js';
export type { FromSchema } from './tools/json-schema-type.js';
export type { InferOutput, StandardSchemaV1 } from './tools/standard-schema.js';
export { StructuredOutputError, ToolArgumentsError, ToolExecutionError, UnknownToolError } from './errors.js';
export type { TracerLike, SpanLike, TelemetryOption } from './contract/telemetry.js';
