/**
 * The few members of OpenTelemetry's tracer and span that wireforge uses, as structural types:
 * `ClientOptions.telemetry` names them without a type import of the optional peer
 * `@opentelemetry/api` (runtime/telemetry, docs/serving.md#telemetry).
 */

export type SpanAttributeValue = string | number | boolean | string[];

export interface SpanLike {
  setAttribute(key: string, value: SpanAttributeValue): unknown;
  addEvent(name: string, attributes?: Record<string, SpanAttributeValue>): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  end(): void;
}

/** What `trace.getTracer(...)` gives: any OpenTelemetry tracer. */
export interface TracerLike {
  /** `context`: the parent (an OpenTelemetry `Context`), e.g. the caller's trace. */
  startSpan(name: string, options?: { kind?: number; attributes?: Record<string, SpanAttributeValue> }, context?: unknown): SpanLike;
}

export interface TelemetryOption {
  /** The tracer to use; default: `trace.getTracer('wireforge')` of `@opentelemetry/api` (the global provider). */
  tracer?: TracerLike;
}
