/**
 * The server side (docs/serving.md): serving a spec's wire from unified turns and events. The
 * package's `wireforge/serve` entry is generated/serve.ts, which adds every spec's serve export.
 */
export type { ServeChunk, ServeChunkTemplate, ServeCodec, ServeEvent, ServeEventTemplate, ServeSlots, ServeStep, ServeTemplate, ServedSpec } from '../contract/serve-codec.js';
export { SERVE_STEPS } from './serve-steps.js';
export { StreamWriter, type WireEvent } from './stream-writer.js';
export { eventEncoder, type EventEncoder } from './encode-events.js';
export { responseBody, turnSlots, type ServedTurn } from './served-turn.js';
export { errorBody, type ServedError } from './error-body.js';
export { servedTurn, turnEvents, type MockTurn } from './turn-events.js';
export { wireFinish } from './wire-finish.js';
export { wireUsage } from './wire-usage.js';
export { decodeRequest, type DecodedRequest } from './decode-request.js';
export { MockSetupError } from '../errors.js';
export { createMockHandler, type MockHandler, type MockOptions, type MockStep, type MockMatch, type MockFault, type RecordedCall } from './mock-handler.js';
export { createGateway, WARNINGS_HEADER, DEFAULT_BODY_LIMIT, type GatewayOptions } from './gateway.js';
export { TARGET_HEADER, FALLBACKS_HEADER, type RouterContext } from './router.js';
export { checkGatewayConfig, GatewayConfigError, CONFIG_KEYS, type GatewayConfig, type GatewayConfigListen, type GatewayConfigClient, type GatewayConfigRoute, type GatewayConfigTarget, type KeySource, type GatewayConfigLimits, type ConfigProblem, type ConfigContext, type ModelListShape } from './gateway-config.js';
export { withCors, type CorsOption } from './cors.js';
export { createMemoryLimiter } from './limits/memory-limiter.js';
export type { Limiter, LimitedClient, ClientLimits, Acquired } from './limits/limiter.js';
export type { GatewayClient } from './limits/gateway-limits.js';
export type { UsageRecord, GatewayTelemetryContext } from './gateway-telemetry.js';
export type { TracerLike, SpanLike, TelemetryOption } from '../contract/telemetry.js';
