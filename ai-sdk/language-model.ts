/**
 * `languageModel(spec, options)`: any spec, built-in or the user's own, as an AI SDK
 * LanguageModelV4. Each call builds one unified request (to-request.ts), runs it through a
 * wireforge client and maps the result or the events back (to-content.ts, stream-parts.ts).
 * docs/ai-sdk.md has the whole mapping and what it cannot carry.
 */
import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4Content, LanguageModelV4GenerateResult, LanguageModelV4StreamPart, LanguageModelV4StreamResult, SharedV4Warning } from '@ai-sdk/provider';
import { createClientFor } from '../runtime/client/create-client.js';
import type { ClientOptions } from '../runtime/contract/unified-model.js';
import { aiSdkError, type Exchange } from './api-call-error.js';
import type { Origin } from './part-metadata.js';
import { adapterOf, idOf, type SpecSource } from './resolve-adapter.js';
import { StreamParts } from './stream-parts.js';
import { toRequest } from './to-request.js';
import { contentOf, finishOf, usageOf, warningsOf } from './to-content.js';

/** Any createClient option, and the model the AI SDK calls this model by. */
export interface LanguageModelOptions extends ClientOptions {
  model: string;
}

export function languageModel(spec: SpecSource, options: LanguageModelOptions): LanguageModelV4 {
  const id = idOf(spec);
  const { model, ...clientOptions } = options;
  // The AI SDK retries on its own (maxRetries, default 2): the client does not, unless asked.
  const base: ClientOptions = { ...clientOptions, maxRetries: clientOptions.maxRetries ?? 0 };
  const origin: Origin = { provider: id, model };

  /** One call's client, with a fetch that records what went out and the response's headers. */
  const prepare = async (call: LanguageModelV4CallOptions) => {
    const adapter = await adapterOf(spec);
    const converted = toRequest(call, adapter, model);
    const exchange: Exchange = { url: '', body: undefined };
    const inner = base.fetch ?? globalThis.fetch.bind(globalThis);
    const recording: typeof fetch = async (input, init) => {
      exchange.url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      exchange.body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
      const response = await inner(input, init);
      const headers: Record<string, string> = {};
      response.headers.forEach((value, key) => (headers[key] = value));
      exchange.headers = headers;
      return response;
    };
    if (call.includeRawChunks) converted.warnings.push({ type: 'unsupported', feature: 'includeRawChunks', details: 'wireforge streams unified events; raw wire chunks are not handed out' });
    return { client: createClientFor(adapter, { ...base, fetch: recording }), converted, exchange };
  };

  return {
    specificationVersion: 'v4',
    provider: `wireforge.${id}`,
    modelId: model,
    // Files are handed over as data: not every wire fetches a URL itself.
    supportedUrls: {},

    async doGenerate(call): Promise<LanguageModelV4GenerateResult> {
      const { client, converted, exchange } = await prepare(call);
      let res;
      try {
        res = await client.chat(converted.request, converted.call);
      } catch (error) {
        throw aiSdkError(error, exchange, call.abortSignal);
      }
      let n = 0;
      const ids = () => `${n++}`;
      const content: LanguageModelV4Content[] = [];
      // The history's parts: calls with what only goes back (a signature, the item they came as).
      for (const part of res.message.parts ?? res.content) {
        const c = contentOf(part, origin, ids);
        if (c) content.push(c);
      }
      const warnings: SharedV4Warning[] = [...converted.warnings, ...warningsOf(res.warnings)];
      return {
        content,
        finishReason: finishOf(res.finishReason, res.rawFinishReason),
        usage: usageOf(res.usage),
        warnings,
        providerMetadata: { wireforge: { provider: id, ...(res.paused ? { paused: true } : {}) } },
        request: { url: exchange.url, body: exchange.body },
        response: {
          ...(res.id === undefined ? {} : { id: res.id }),
          ...(res.model === undefined ? {} : { modelId: res.model }),
          ...(exchange.headers ? { headers: exchange.headers } : {}),
          body: res.raw,
        },
      };
    },

    async doStream(call): Promise<LanguageModelV4StreamResult> {
      const { client, converted, exchange } = await prepare(call);
      const stream = client.stream(converted.request, converted.call);
      const events = stream[Symbol.asyncIterator]();
      // The first batch is read before this resolves: a refused request is an error the AI SDK can retry.
      let first: IteratorResult<unknown>;
      try {
        first = await events.next();
      } catch (error) {
        throw aiSdkError(error, exchange, call.abortSignal);
      }
      let parts: StreamParts;
      return {
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          start(controller) {
            parts = new StreamParts(origin, () => stream.snapshot(), (p) => controller.enqueue(p), converted.warnings);
            if (first.done) controller.close();
            else parts.event(first.value as never);
          },
          // A pull that enqueues nothing is not called again: read until an event makes a part (usage alone makes none).
          async pull(controller) {
            try {
              for (let size = controller.desiredSize; controller.desiredSize === size; ) {
                const r = await events.next();
                if (r.done) return controller.close();
                parts.event(r.value);
              }
            } catch (error) {
              controller.enqueue({ type: 'error', error: aiSdkError(error, exchange, call.abortSignal) });
              controller.close();
            }
          },
          async cancel(reason) {
            stream.abort(reason);
            await events.return?.();
          },
        }),
        request: { url: exchange.url, body: exchange.body },
        response: { ...(exchange.headers ? { headers: exchange.headers } : {}) },
      };
    },
  };
}
