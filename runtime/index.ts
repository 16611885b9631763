/** wireforge: one request shape, one response shape, one event stream for every provider spec. */
export { createClient, adapters, type ProviderId } from './client.js';
export { createClientFor, type Client } from './client/create-client.js';
export { ChatStream } from './client/chat-stream.js';
export { ProviderError, RequestError, StreamError, TimeoutError, WireforgeError } from './errors.js';
export type { ProviderAdapter, BuiltRequest, CallMode } from './adapter.js';
export type * from './types.js';
export { runTools, streamTools, ToolStream, type RunToolsOptions, type RunToolsResult, type ToolLoopEvent, type ToolStep } from './tools/tool-loop.js';
export { defineTool, type ReturnBehaviour, type ToolContext, type ToolDefinition, type ToolSet } from './tools/define-tool.js';
export type { ToolExecution } from './tools/execute-calls.js';
export type { FromSchema } from './tools/json-schema-type.js';
export { ToolArgumentsError, ToolExecutionError, UnknownToolError } from './errors.js';
