/**
 * `languageModel(spec, options)`: any spec, built-in or the user's own, as an AI SDK
 * LanguageModelV4. Each call builds one unified request (to-request.ts), runs it through a
 * wireforge client and maps the result or the events back (to-content.ts, stream-parts.ts).
 * docs/ai-sdk.md has the whole mapping and what it cannot carry.
 */
import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { createClientFor } from '../runtime/client/create-client.js';
import type { ClientOptions, StreamEvent } from '../runtime/contract/unified-model.js';
import { aiSdkError, type Exchange } from './api-call-error.js';
import { adapterOf, idOf, type SpecSource } from './resolve-adapter.js';
import { streamParts } from './stream-parts.js';
import { toRequest } from './to-request.js';
import { contentOf, counter, endOf, warningsOf } from './to-content.js';

/**
 * Any createClient option but `telemetry` (the AI SDK's own `experimental_telemetry` traces each
 * call; a second span per call from wireforge would only repeat it), and the model the AI SDK
 * calls this model by.
 */
export interface LanguageModelOptions extends Omit<ClientOptions, 'telemetry'> {
  model: string;
}

export function languageModel(spec: SpecSource, { model, ...options }: LanguageModelOptions): LanguageModelV4 {
  const provider = idOf(spec);
  // The AI SDK retries on its own (maxRetries, default 2): the client does not, unless asked.
  const base: ClientOptions = { ...options, maxRetries: options.maxRetries ?? 0 };
  const origin = { provider, model };

  /**
   * One call: its unified request, a client whose fetch records what went out and the response's
   * headers, and `fail`, which makes an error the AI SDK's.
   */
  const prepare = async (call: LanguageModelV4CallOptions) => {
    const adapter = await adapterOf(spec);
    const { request, call: options, warnings } = toRequest(call, adapter, model);
    const sent: Exchange = { request: { url: '', body: undefined } };
    const client = createClientFor(adapter, {
      ...base,
      // The client calls its fetch with the URL as a string and the body as JSON text.
      fetch: async (url, init) => {
        sent.request = { url: url as string, body: JSON.parse(init!.body as string) };
        const response = await (base.fetch ?? fetch)(url, init);
        // Headers iterate as [name, value] in every fetch runtime (the project's lib lacks DOM.Iterable).
        sent.headers = Object.fromEntries(response.headers as unknown as Iterable<[string, string]>);
        return response;
      },
    });
    const fail = (error: unknown) => aiSdkError(error, sent, call.abortSignal);
    return { chat: () => client.chat(request, options), stream: () => client.stream(request, options), warnings, sent, fail };
  };

  return {
    specificationVersion: 'v4',
    provider: `wireforge.${provider}`,
    modelId: model,
    // Files are handed over as data: not every wire fetches a URL itself.
    supportedUrls: {},

    async doGenerate(call) {
      const { chat, warnings, sent, fail } = await prepare(call);
      const res = await chat().catch((error) => {
        throw fail(error);
      });
      const ids = counter();
      return {
        // The history's parts: calls with what only goes back (a signature, the item they came as).
        content: (res.message.parts ?? res.content).flatMap((part) => contentOf(part, origin, ids) ?? []),
        warnings: [...warnings, ...warningsOf(res.warnings)],
        ...endOf(res, provider),
        request: sent.request,
        response: { id: res.id, modelId: res.model, headers: sent.headers, body: res.raw },
      };
    },

    async doStream(call) {
      const { stream: open, warnings, sent, fail } = await prepare(call);
      const stream = open();
      const events = stream[Symbol.asyncIterator]();
      // The first batch is read before this resolves: a refused request is an error the AI SDK can retry.
      const first = await events.next().catch((error) => {
        throw fail(error);
      });
      let event: (e: StreamEvent) => void;
      return {
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          start(controller) {
            event = streamParts(origin, () => stream.snapshot(), (p) => controller.enqueue(p), warnings);
            if (first.done) controller.close();
            else event(first.value);
          },
          // A pull that enqueues nothing is not called again: read until an event makes a part (usage alone makes none).
          async pull(controller) {
            try {
              for (let size = controller.desiredSize; controller.desiredSize === size; ) {
                const r = await events.next();
                if (r.done) return controller.close();
                event(r.value);
              }
            } catch (error) {
              controller.enqueue({ type: 'error', error: fail(error) });
              controller.close();
            }
          },
          async cancel(reason) {
            stream.abort(reason);
            await events.return?.();
          },
        }),
        request: sent.request,
        response: { headers: sent.headers },
      };
    },
  };
}
