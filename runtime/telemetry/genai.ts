/**
 * The OpenTelemetry side of wireforge, kept out of the core client: the GenAI semantic
 * conventions' attribute names (docs/serving.md#telemetry), the provider names they use, and a
 * tracer found lazily. `@opentelemetry/api` is an optional peer: imported only when telemetry is
 * on and no tracer was given, so nothing loads it otherwise.
 */
import type { ChatResponse } from '../contract/unified-model.js';
import type { SpanLike, TelemetryOption, TracerLike } from '../contract/telemetry.js';

export type { SpanLike, TelemetryOption, TracerLike };

/** OpenTelemetry's enum values, as numbers (so the API is not loaded for them). */
export const SPAN_KIND = { server: 1, client: 2 } as const;
export const STATUS_ERROR = 2;

/** The GenAI conventions' provider name by spec id; a spec not listed gives its own id. */
const PROVIDER_NAMES: Readonly<Record<string, string>> = {
  'openai-chat': 'openai',
  'openai-responses': 'openai',
  'anthropic-messages': 'anthropic',
  'bedrock-anthropic': 'aws.bedrock',
  'bedrock-converse': 'aws.bedrock',
  'vertex-anthropic': 'gcp.vertex_ai',
  'vertex-gemini': 'gcp.vertex_ai',
  gemini: 'gcp.gemini',
  'azure-openai': 'azure.ai.openai',
  'azure-openai-v1': 'azure.ai.openai',
  mistral: 'mistral_ai',
  xai: 'x_ai',
  deepseek: 'deepseek',
  groq: 'groq',
};

export function providerName(specId: string): string {
  return Object.prototype.hasOwnProperty.call(PROVIDER_NAMES, specId) ? PROVIDER_NAMES[specId]! : specId;
}

/** The attributes a chat span starts with. */
export function requestAttributes(specId: string, model: string | undefined): Record<string, string> {
  return { 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': providerName(specId), ...(model !== undefined ? { 'gen_ai.request.model': model } : {}) };
}

/** The span's name by the conventions: `{operation} {model}`. */
export function spanName(model: string | undefined): string {
  return model === undefined ? 'chat' : `chat ${model}`;
}

/** What the answer says: its model, id, finish reason and token counts. */
export function recordResponse(span: SpanLike, r: Partial<Pick<ChatResponse, 'id' | 'model' | 'finishReason' | 'usage'>>): void {
  if (r.model != null) span.setAttribute('gen_ai.response.model', r.model);
  if (r.id != null) span.setAttribute('gen_ai.response.id', r.id);
  if (r.finishReason != null) span.setAttribute('gen_ai.response.finish_reasons', [r.finishReason]);
  if (r.usage) {
    span.setAttribute('gen_ai.usage.input_tokens', r.usage.inputTokens);
    span.setAttribute('gen_ai.usage.output_tokens', r.usage.outputTokens);
  }
}

/** A failed call: `error.type` (the error's class, or the HTTP status) and the span's error status. */
export function recordError(span: SpanLike, type: string, message?: string): void {
  span.setAttribute('error.type', type);
  span.setStatus({ code: STATUS_ERROR, ...(message !== undefined ? { message } : {}) });
}

const OTEL_API = '@opentelemetry/api';

/** `@opentelemetry/api`, imported on first use only (a rejected promise where it is not installed). */
export function otelApi(): Promise<typeof import('@opentelemetry/api')> {
  // A specifier in a variable: a bundler leaves the optional peer out instead of failing where it is not installed.
  return import(OTEL_API) as Promise<typeof import('@opentelemetry/api')>;
}

/** The tracer given, else the global one from `@opentelemetry/api` (imported here, only now). */
export async function findTracer(option: TelemetryOption | undefined, name = 'wireforge'): Promise<TracerLike> {
  if (option?.tracer) return option.tracer;
  return (await otelApi()).trace.getTracer(name) as unknown as TracerLike;
}

/** `error.type` for a failure: the HTTP status when there was one, else the error's name. */
export function errorType(e: unknown): string {
  const status = (e as { status?: unknown } | null)?.status;
  if (typeof status === 'number') return String(status);
  return e instanceof Error ? e.name : 'Error';
}
