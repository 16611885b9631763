/** wireforge: one request shape, one response shape, one event stream for every provider spec. */
export { createClient, adapters, type ProviderId } from './client.js';
export { createClientFor, type Client } from './client/create-client.js';
export { ChatStream } from './client/chat-stream.js';
export { ProviderError, RequestError, StreamError, TimeoutError, WireforgeError } from './errors.js';
export type { ProviderAdapter, BuiltRequest, CallMode } from './adapter.js';
export type * from './types.js';
