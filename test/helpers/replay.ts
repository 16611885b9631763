/** Feed recorded bytes to a real client through an injected fetch, in chunks of a chosen size. */
import { accessFor } from './client-access.js';
import { streamBodyFor } from './frame-stream.js';
import { createClientFor, type AssistantMessage, type ChatResponse, type ProviderAdapter, type ResponsePart, type StreamEvent } from '../../runtime/index.js';

export function chunked(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

export function fetchReturning(chunks: Uint8Array[], contentType: string, status = 200): typeof fetch {
  return (async () => {
    let i = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (i < chunks.length) controller.enqueue(chunks[i++]!);
        else controller.close();
      },
    });
    return new Response(body, { status, headers: { 'content-type': contentType } });
  }) as typeof fetch;
}

const REQUEST = { messages: [{ role: 'user' as const, content: 'hi' }], model: 'test-model' };

export async function replayStream(adapter: ProviderAdapter, bytes: Uint8Array, size: number): Promise<{ events: StreamEvent[]; final: ChatResponse }> {
  // An event-stream deployment of a wire gets the same events in its own frames.
  const framed = adapter.stream.framing === 'event-stream' ? streamBodyFor(adapter, new TextDecoder().decode(bytes)) : { body: bytes, contentType: 'text/event-stream' };
  const client = createClientFor(adapter, { ...accessFor(adapter), apiKey: 'test-key-0000', baseUrl: 'http://127.0.0.1:9/v1', fetch: fetchReturning(chunked(framed.body, size), framed.contentType), maxRetries: 0 });
  const stream = client.stream(REQUEST);
  const events: StreamEvent[] = [];
  for await (const e of stream) events.push(e);
  return { events, final: await stream.final() };
}

export async function replayBlocking(adapter: ProviderAdapter, body: string): Promise<ChatResponse> {
  const bytes = new TextEncoder().encode(body);
  const client = createClientFor(adapter, { ...accessFor(adapter), apiKey: 'test-key-0000', baseUrl: 'http://127.0.0.1:9/v1', fetch: fetchReturning([bytes], 'application/json'), maxRetries: 0 });
  return client.chat(REQUEST);
}

/** The fields both paths must agree on (raw differs by nature: body vs aggregate). */
export function comparable(r: ChatResponse): Record<string, unknown> {
  return {
    id: r.id,
    model: r.model,
    text: r.text,
    thinking: r.thinking,
    toolCalls: r.toolCalls,
    finishReason: r.finishReason,
    rawFinishReason: r.rawFinishReason,
    usage: r.usage,
    content: r.content,
    paused: r.paused,
    message: r.message,
  };
}

/**
 * The parts a fixture's expected message lists, in the order those fixtures send them:
 * reasoning, text, calls (fixtures written before parts existed say nothing else).
 */
export function partsOf(m: AssistantMessage): ResponsePart[] {
  return [
    ...(m.thinking ?? []).map((t): ResponsePart => ({ type: 'thinking', ...t })),
    ...(typeof m.content === 'string' ? [{ type: 'text' as const, text: m.content }] : []),
    ...(m.toolCalls ?? []).map((call): ResponsePart => ({ type: 'tool-call', call })),
  ];
}
