/**
 * The caller's trace, from the W3C Trace Context headers (`traceparent`, `tracestate`), as the
 * parent context an OpenTelemetry tracer takes: the gateway's span then continues the trace the
 * caller started instead of opening a new one. Read by the standard itself, not through a
 * registered propagator, so it holds with a tracer given directly as well. docs/serving.md#telemetry.
 */
type OtelApi = typeof import('@opentelemetry/api');

// version-traceid-parentid-flags; a later version may add fields after a dash (W3C Trace Context, §3.2).
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/** The parent context for a span, or undefined when the headers carry no valid `traceparent`. */
export function callerTrace(api: OtelApi, header: (name: string) => string | null): unknown {
  const m = TRACEPARENT.exec(header('traceparent')?.trim() ?? '');
  // Version ff is invalid; version 00 has exactly four fields.
  if (!m || m[1] === 'ff' || (m[1] === '00' && m[5] !== undefined)) return undefined;
  const state = header('tracestate');
  const parent = {
    traceId: m[2]!,
    spanId: m[3]!,
    traceFlags: parseInt(m[4]!, 16) & 1,
    isRemote: true,
    ...(state ? { traceState: api.createTraceState(state) } : {}),
  };
  // All-zero ids are invalid.
  return api.isSpanContextValid(parent) ? api.trace.setSpanContext(api.ROOT_CONTEXT, parent) : undefined;
}
