/**
 * What the gateway for teams reports about each routed request: one OpenTelemetry span (GenAI
 * conventions, runtime/telemetry/genai.ts) with an event per target that failed before the one
 * that answered, and one usage record (route, target, tokens, latency, status, fallbacks) to a
 * callback or stdout. Both watch the request through its admission (usage, answer, end), so the
 * stream path gains nothing when neither is on. docs/serving.md#telemetry.
 */
import type { Usage } from '../contract/unified-model.js';
import { callerTrace } from '../telemetry/trace-context.js';
import { errorType, findTracer, otelApi, providerName, recordError, recordResponse, spanName, SPAN_KIND, type SpanLike, type TracerLike } from '../telemetry/genai.js';
import type { Admission } from './limits/gateway-limits.js';

/** One routed request, as the gateway saw it. */
export interface UsageRecord {
  /** When the request came in (ISO 8601). */
  time: string;
  /** The route (its public model name or pattern) and the model the caller asked for. */
  route: string;
  model: string;
  /** The client token's name, when the config names clients. */
  client?: string;
  stream: boolean;
  /** The target that answered (`<spec>/<model>`); none when no target did. */
  target?: string;
  /** The targets tried before it, each `<spec>/<model> <status or failure>` (as the x-wireforge-fallbacks header). */
  fallbacks: string[];
  /** The HTTP status the caller got. */
  status: number;
  /** Why the request failed: the HTTP status or the error's name (a stream that failed after its start has status 200 and this). */
  error?: string;
  inputTokens?: number;
  outputTokens?: number;
  /** From the request's arrival to its end (a stream's last event). */
  latencyMs: number;
}

/** What the router is given for telemetry besides the config. */
export interface GatewayTelemetryContext {
  /** The tracer for the gateway's spans (turns them on); default with `telemetry` in the config: `@opentelemetry/api`'s global one. */
  tracer?: TracerLike;
  /** Called with each request's usage record. */
  onUsage?: (record: UsageRecord) => void;
}

/** One request's watcher: an admission (wrapping the limiter's, if any) that also records what it sees. */
export interface RequestWatch extends Admission {
  /** A target (`<spec>/<model>`) failed before answering, or was passed over (`keys-resting`). */
  fellBack(target: string, failure: string): void;
  /** This target is tried now, after those `passedOver`: the one that answered, if the request ends without refused(). */
  trying(label: string, specId: string, passedOver: readonly string[]): void;
  /** The request ends without an answer from any target; `passedOver`: as the fallbacks header lists them (the last failure is the answer itself). */
  refused(status: number, error?: string, passedOver?: string[]): void;
}

/** The router's telemetry setup, or undefined when neither spans nor usage records are on. */
export function gatewayTelemetry(config: { telemetry?: boolean | { name?: string }; usageLog?: 'stdout' }, ctx: GatewayTelemetryContext) {
  const spansOn = ctx.tracer !== undefined || (config.telemetry !== undefined && config.telemetry !== false);
  const sinks: Array<(r: UsageRecord) => void> = [];
  if (ctx.onUsage) sinks.push(ctx.onUsage);
  if (config.usageLog === 'stdout') sinks.push((r) => console.log(JSON.stringify(r)));
  if (!spansOn && !sinks.length) return undefined;
  const name = typeof config.telemetry === 'object' ? config.telemetry.name : undefined;
  let tracer: Promise<TracerLike | undefined> | undefined;
  // The caller's trace is read with the API; a tracer given without it installed makes root spans.
  let api: Promise<typeof import('@opentelemetry/api') | undefined> | undefined;
  const apiOnce = () => (api ??= otelApi().catch(() => undefined));
  const findOnce = () =>
    (tracer ??= findTracer(ctx.tracer ? { tracer: ctx.tracer } : undefined, name).catch((e: unknown) => {
      // Not installed: the gateway serves on without spans, and says so once.
      console.warn(`wireforge gateway: telemetry is on but @opentelemetry/api could not be loaded (${e instanceof Error ? e.message : String(e)}); no spans are made`);
      return undefined;
    }));
  return {
    /** The watch for a routed request, wrapping its admission. */
    async watch(request: { route: string; model: string; client?: string; stream: boolean }, inner: Admission | undefined, header?: (name: string) => string | null): Promise<RequestWatch> {
      const t0 = performance.now();
      // gen_ai.provider.name is the answering target's: set when one answers.
      const attributes = { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': request.model, 'wireforge.gateway.route': request.route };
      const found = spansOn ? await findOnce() : undefined;
      const otel = found && header?.('traceparent') ? await apiOnce() : undefined;
      const span = found?.startSpan(spanName(request.model), { kind: SPAN_KIND.server, attributes }, otel && header ? callerTrace(otel, header) : undefined);
      return watch(request, inner, span, sinks, t0);
    },
  };
}

function watch(request: { route: string; model: string; client?: string; stream: boolean }, inner: Admission | undefined, span: SpanLike | undefined, sinks: Array<(r: UsageRecord) => void>, t0: number): RequestWatch {
  const time = new Date().toISOString();
  const fallbacks: string[] = [];
  let target: string | undefined;
  let tried: { label: string; specId: string } | undefined;
  let usage: Usage | null | undefined;
  let status = 200;
  let error: string | undefined;
  let over = false;
  return {
    ok: inner?.ok ?? true,
    retryAfterSeconds: inner?.retryAfterSeconds ?? 0,
    status: inner?.status ?? 200,
    message: inner?.message ?? '',
    usage(u) {
      usage = u ?? usage;
      inner?.usage(u);
    },
    answered(r) {
      if (span) recordResponse(span, r);
    },
    failed(e) {
      error = errorType(e);
      if (span) recordError(span, error, e instanceof Error ? e.message : undefined);
    },
    fellBack(t, failure) {
      span?.addEvent('wireforge.gateway.attempt', { 'wireforge.gateway.target': t, 'error.type': failure });
    },
    trying(label, specId, passedOver) {
      tried = { label, specId };
      fallbacks.splice(0, fallbacks.length, ...passedOver);
    },
    refused(s, e, passedOver) {
      tried = undefined;
      if (passedOver) fallbacks.splice(0, fallbacks.length, ...passedOver);
      status = s;
      error = e ?? String(s);
      if (span) recordError(span, error);
    },
    done() {
      if (over) return;
      over = true;
      inner?.done();
      target = tried?.label;
      if (span && tried) {
        span.setAttribute('wireforge.gateway.target', tried.label);
        span.setAttribute('gen_ai.provider.name', providerName(tried.specId));
      }
      if (span) {
        if (fallbacks.length) span.setAttribute('wireforge.gateway.fallbacks', fallbacks);
        if (usage) recordResponse(span, { usage });
        span.end();
      }
      if (!sinks.length) return;
      const record: UsageRecord = {
        time,
        route: request.route,
        model: request.model,
        ...(request.client !== undefined ? { client: request.client } : {}),
        stream: request.stream,
        ...(target !== undefined ? { target } : {}),
        fallbacks,
        status,
        ...(error !== undefined ? { error } : {}),
        ...(usage ? { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens } : {}),
        latencyMs: Math.round(performance.now() - t0),
      };
      for (const sink of sinks) {
        try {
          sink(record);
        } catch (e) {
          // A failing callback must not fail the request it reports on.
          console.error(`wireforge gateway: onUsage threw: ${e instanceof Error ? e.message : String(e)}`);
        }
      }
    },
  };
}

