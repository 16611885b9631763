/**
 * A client whose every call is one OpenTelemetry span (GenAI conventions, genai.ts): opt-in with
 * `createClient(id, { telemetry })`; the registry applies it, so the core `createClientFor` stays
 * without it. A blocking call's span ends with its response; a stream's when it is read to the
 * end, fails, is aborted or left (`break`). docs/serving.md#telemetry.
 */
import type { ProviderAdapter } from '../contract/adapter.js';
import type { ChatRequest, ChatResponse, StreamEvent } from '../contract/unified-model.js';
import { ChatStream } from '../client/chat-stream.js';
import { RequestError } from '../errors.js';
import type { Client } from '../client/create-client.js';
import { errorType, findTracer, recordError, recordResponse, requestAttributes, spanName, SPAN_KIND, type SpanLike, type TelemetryOption, type TracerLike } from './genai.js';

interface Untyped {
  chat(request: ChatRequest, call?: Parameters<Client['chat']>[1]): Promise<ChatResponse>;
  stream(request: ChatRequest, call?: Parameters<Client['stream']>[1]): ChatStream;
}

/** `client` (made for `adapter`, whose default model is `model`) with a span per call. */
export function withTelemetry(client: Client, adapter: ProviderAdapter, option: TelemetryOption, model: string | undefined): Client {
  let tracer: Promise<TracerLike> | undefined;
  const start = async (request: ChatRequest): Promise<SpanLike> => {
    const asked = request.model ?? model;
    return (await (tracer ??= findTracer(option).catch((e: unknown) => {
      throw new RequestError(adapter.id, 'telemetry', `no tracer was given and @opentelemetry/api could not be loaded (${e instanceof Error ? e.message : String(e)}): install it, or pass telemetry: { tracer }`);
    }))).startSpan(spanName(asked), { kind: SPAN_KIND.client, attributes: requestAttributes(adapter.id, asked) });
  };
  const failed = (span: SpanLike, e: unknown) => {
    recordError(span, errorType(e), e instanceof Error ? e.message : undefined);
    span.end();
  };
  const traced: Pick<Client, 'provider'> & Untyped = {
    provider: client.provider,
    async chat(request, call) {
      const span = await start(request);
      try {
        const r = await (client as unknown as Untyped).chat(request, call);
        recordResponse(span, r);
        span.end();
        return r;
      } catch (e) {
        failed(span, e);
        throw e;
      }
    },
    stream(request, call) {
      let inner: ChatStream | undefined;
      let span: SpanLike | undefined;
      let result: ChatResponse | undefined;
      const source = async function* (emitEvents: boolean): AsyncGenerator<StreamEvent[], void, undefined> {
        const opened = (span = await start(request));
        const stream = (inner = (client as unknown as Untyped).stream(request, call));
        // Set once the finish event was handed out: the whole turn arrived, whatever the caller does next.
        let finished = false;
        try {
          if (emitEvents)
            for await (const e of stream) {
              if (e.type === 'finish') finished = true;
              yield [e];
            }
          result = await stream.final();
        } catch (e) {
          // An abort has ended the span already.
          if (span) failed(span, e);
          span = undefined;
          throw e;
        } finally {
          // Left before its end (`break` out of the loop): the request was cancelled, and its span ends
          // so; left at or after the finish event, the turn is whole and its span says what it was.
          if (span && result === undefined) {
            if (finished) {
              recordResponse(span, stream.snapshot());
              span.end();
            } else failed(span, new DOMException('the stream was left before its end', 'AbortError'));
            span = undefined;
          }
        }
        recordResponse(opened, result);
        opened.end();
        span = undefined;
      };
      return new ChatStream(client.provider, source, () => result!, (reason) => {
        inner?.abort(reason);
        if (span) failed(span, reason ?? new Error('aborted'));
        span = undefined;
      });
    },
  };
  return traced as unknown as Client;
}
