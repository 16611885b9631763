/**
 * The methods compared, each fed the same bytes in the same ~16 KB chunks. A method is prepared
 * once (modules loaded, clients made) and then run many times; every run returns a Digest of
 * what it assembled so the harness can check it parsed the whole body.
 *
 * Peer libraries are imported lazily: a worker process loads only what its method needs.
 */
import { TurnAssembler } from '../runtime/assemble/turn-assembler.js';
import { NdjsonDecoder } from '../runtime/framing/decode-ndjson.js';
import { SseDecoder } from '../runtime/framing/decode-sse.js';
import type { FrameSink } from '../runtime/contract/frame.js';
import { adapters, createClientFor } from '../generated/index.js';
import type { ChatResponse, ProviderAdapter } from '../generated/index.js';
import { TOOL_NAMES, toolSchema, type Body, type Digest, type Protocol } from './bodies.js';

export type Method = 'floor' | 'floor-args' | 'esp' | 'wf-stream' | 'wf-iter' | 'wf-decode' | 'sdk' | 'sdk-raw' | 'ai-doStream' | 'ai-streamText' | 'bridge-doStream' | 'bridge-streamText';

export const METHODS: Method[] = ['floor', 'esp', 'wf-decode', 'wf-stream', 'wf-iter', 'sdk', 'sdk-raw', 'ai-doStream', 'ai-streamText', 'bridge-doStream', 'bridge-streamText'];

export const METHOD_LABEL: Record<Method, string> = {
  floor: 'floor: split + JSON.parse',
  'floor-args': 'output floor (whole-call tool bodies): the floor plus JSON.stringify of every argument object, kept — how docs/unified-model.md (#tool-call-arguments) defines the unified `arguments` text for wires that send objects, and what wireforge does',
  esp: 'eventsource-parser + JSON.parse',
  'wf-decode': 'wireforge decode + assemble, no transport (TextDecoder → frame decoder → JSON.parse → readEvent into a TurnAssembler that makes no events, as final() alone does)',
  'wf-stream': 'wireforge stream() → final() over an injected fetch',
  'wf-iter': 'wireforge stream() iterated with for await (every StreamEvent made and handed out), then final()',
  sdk: 'official SDK stream helper → final message',
  'sdk-raw': 'official SDK raw stream (create stream:true), iterated',
  'ai-doStream': 'AI SDK provider doStream, consumed',
  'ai-streamText': 'AI SDK streamText, fullStream consumed',
  'bridge-doStream': 'wireforge/ai-sdk languageModel doStream, consumed (the bridge without the AI SDK above it)',
  'bridge-streamText': 'AI SDK streamText over wireforge/ai-sdk languageModel, fullStream consumed',
};

/** Which methods exist for a protocol (no official SDK or AI SDK provider for Ollama here). */
export function methodsFor(p: Protocol): Method[] {
  switch (p) {
    case 'ollama':
      return ['floor', 'wf-decode', 'wf-stream', 'wf-iter', 'bridge-doStream', 'bridge-streamText'];
    case 'gemini':
      // @google/genai has one stream path (generateContentStream), listed as its "sdk".
      return ['floor', 'esp', 'wf-decode', 'wf-stream', 'wf-iter', 'sdk', 'ai-doStream', 'ai-streamText', 'bridge-doStream', 'bridge-streamText'];
    default:
      return METHODS;
  }
}

export const CHUNK_BYTES = 16 * 1024;
export const API_KEY = 'sk-bench-0123456789abcdefghijklmnopqrstuvwxyz';

export function chunk(bytes: Uint8Array, size = CHUNK_BYTES): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, Math.min(bytes.length, i + size)));
  return out;
}

/** A fetch that answers every call with a 200 whose body streams `chunks` (views, no copies). */
export function fetchOver(chunks: Uint8Array[], protocol: Protocol, onPull?: (i: number) => void): typeof globalThis.fetch {
  const contentType = protocol === 'ollama' ? 'application/x-ndjson' : 'text/event-stream; charset=utf-8';
  const f = async (_input: unknown, _init?: unknown): Promise<Response> => {
    let i = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        onPull?.(i);
        if (i < chunks.length) controller.enqueue(chunks[i++]!);
        else controller.close();
      },
    });
    return new Response(body, { status: 200, headers: { 'content-type': contentType, 'x-request-id': 'req_bench' } });
  };
  return f as typeof globalThis.fetch;
}

export const MODEL: Record<Protocol, string> = {
  'openai-chat': 'gpt-4o',
  'anthropic-messages': 'claude-sonnet-4-5',
  'openai-responses': 'gpt-5-mini',
  gemini: 'gemini-2.5-flash',
  ollama: 'qwen3:8b',
};

export function emptyDigest(): Digest {
  return { text: 0, thinking: 0, thinkingParts: 0, calls: 0, args: 0 };
}

export function digestOf(r: ChatResponse): Digest {
  let args = 0;
  for (const c of r.toolCalls) args += c.arguments.length;
  return { text: r.text?.length ?? 0, thinking: r.thinking?.length ?? 0, thinkingParts: r.message.thinking?.length ?? 0, calls: r.toolCalls.length, args };
}

/** Whether a method's digest shows the whole body was parsed (libraries may join thinking parts with "\n\n"). */
export function digestMatches(got: Digest, want: Digest): boolean {
  return (
    got.text === want.text &&
    got.calls === want.calls &&
    got.args === want.args &&
    got.thinking >= want.thinking &&
    got.thinking <= want.thinking + 2 * Math.max(0, want.thinkingParts - 1)
  );
}

export type Run = () => Promise<Digest>;

export async function prepare(method: Method, body: Body, chunks: Uint8Array[]): Promise<Run> {
  const p = body.protocol;
  switch (method) {
    case 'floor':
      return async () => floor(p, chunks);
    case 'floor-args':
      return async () => floor(p, chunks, OBJECT_ARGUMENTS[p]);
    case 'esp':
      return prepareEsp(chunks);
    case 'wf-decode': {
      const adapter = adapters[p] as ProviderAdapter;
      return async () => wfDecode(adapter, chunks);
    }
    case 'wf-stream':
    case 'wf-iter':
      return prepareWfStream(p, method === 'wf-iter', chunks);
    case 'sdk':
    case 'sdk-raw':
      return prepareSdk(p, method === 'sdk-raw', body, chunks);
    case 'ai-doStream':
    case 'ai-streamText':
      return prepareAi(p, method === 'ai-streamText', body, chunks, false);
    case 'bridge-doStream':
    case 'bridge-streamText':
      return prepareAi(p, method === 'bridge-streamText', body, chunks, true);
  }
}

// ---------------------------------------------------------------------------------------------
// The floor: decode each chunk, cut complete events with indexOf, JSON.parse each payload.

/** Where whole-call bodies carry tool arguments as objects, per wire (the unified ToolCall needs their JSON text). */
export const OBJECT_ARGUMENTS: Partial<Record<Protocol, (event: any) => unknown[]>> = {
  gemini: (e) => (e.candidates?.[0]?.content?.parts ?? []).filter((x: any) => x.functionCall).map((x: any) => x.functionCall.args),
  ollama: (e) => (e.message?.tool_calls ?? []).map((c: any) => c.function.arguments),
};

function floor(p: Protocol, chunks: Uint8Array[], objectArgs?: (event: unknown) => unknown[]): Digest {
  const td = new TextDecoder();
  const sep = p === 'ollama' ? '\n' : p === 'gemini' ? '\r\n\r\n' : '\n\n';
  let rest = '';
  let parsed = 0;
  const texts: string[] = [];
  const take = (event: string) => {
    let data = event;
    if (p !== 'ollama') {
      const at = event.startsWith('data:') ? 0 : event.indexOf('\ndata:') + 1;
      const start = event.charCodeAt(at + 5) === 32 ? at + 6 : at + 5;
      const eol = event.indexOf('\n', start);
      data = eol === -1 ? event.slice(start) : event.slice(start, eol);
      if (data === '[DONE]') return;
    }
    const parsedEvent: unknown = JSON.parse(data);
    if (typeof parsedEvent === 'object') parsed++;
    if (objectArgs) for (const a of objectArgs(parsedEvent)) texts.push(JSON.stringify(a));
  };
  for (let i = 0; i <= chunks.length; i++) {
    const s = rest + (i < chunks.length ? td.decode(chunks[i], { stream: true }) : td.decode());
    let pos = 0;
    for (let end = s.indexOf(sep); end !== -1; end = s.indexOf(sep, pos)) {
      if (end > pos) take(s.slice(pos, end));
      pos = end + sep.length;
    }
    rest = s.slice(pos);
  }
  let args = 0;
  for (const t of texts) args += t.length;
  return { ...emptyDigest(), parsed, calls: texts.length, args };
}

// eventsource-parser (the SSE parser the AI SDK uses), then JSON.parse each payload.
async function prepareEsp(chunks: Uint8Array[]): Promise<Run> {
  const { createParser } = await import('eventsource-parser');
  return async () => {
    let parsed = 0;
    const parser = createParser({
      onEvent(e) {
        if (e.data !== '[DONE]' && typeof JSON.parse(e.data) === 'object') parsed++;
      },
    });
    const td = new TextDecoder();
    for (const c of chunks) parser.feed(td.decode(c, { stream: true }));
    parser.feed(td.decode());
    return { ...emptyDigest(), parsed };
  };
}

// ---------------------------------------------------------------------------------------------
// wireforge

/** The stream path without transport: TextDecoder → frame decoder → JSON.parse → readEvent. */
export function wfDecode(adapter: ProviderAdapter, chunks: Uint8Array[]): Digest {
  const td = new TextDecoder();
  const a = new TurnAssembler(adapter.rules, { streaming: false });
  const sentinel = adapter.stream.doneSentinel;
  const sink: FrameSink = (event, data) => {
    if (a.ended) return;
    if (data === sentinel) a.end();
    else adapter.readEvent(a, JSON.parse(data) as never, event);
  };
  const framer = adapter.stream.framing === 'sse' ? new SseDecoder(sink) : new NdjsonDecoder(sink);
  for (const c of chunks) {
    framer.push(td.decode(c, { stream: true }));
    if (a.ended) break;
  }
  if (!a.ended) {
    framer.push(td.decode());
    framer.end();
  }
  a.closeAll();
  return digestOf(a.result());
}

function wfTools() {
  return TOOL_NAMES.map((name) => ({ name, parameters: toolSchema() }));
}

function prepareWfStream(p: Protocol, iterate: boolean, chunks: Uint8Array[]): Run {
  const client = createClientFor(adapters[p] as ProviderAdapter, { apiKey: API_KEY, model: MODEL[p], baseUrl: 'http://127.0.0.1:9', fetch: fetchOver(chunks, p), maxRetries: 0 });
  const request = { messages: [{ role: 'user' as const, content: 'Go.' }], tools: wfTools() };
  if (!iterate) return async () => digestOf(await client.stream(request).final());
  return async () => {
    const stream = client.stream(request);
    let n = 0;
    for await (const event of stream) if (event.type === 'text-delta') n += event.delta.length;
    const final = await stream.final();
    if (n !== (final.text?.length ?? 0)) throw new Error(`text-delta events add up to ${n} characters, final() has ${final.text?.length ?? 0}`);
    return digestOf(final);
  };
}

// ---------------------------------------------------------------------------------------------
// Official SDKs: openai-node, @anthropic-ai/sdk, @google/genai

async function prepareSdk(p: Protocol, raw: boolean, body: Body, chunks: Uint8Array[]): Promise<Run> {
  const fetch = fetchOver(chunks, p);
  const jsonTools = body.toolNames.map((name) => ({ name, schema: toolSchema() }));
  switch (p) {
    case 'openai-chat': {
      const { default: OpenAI } = await import('openai');
      const client = new OpenAI({ apiKey: API_KEY, fetch, maxRetries: 0, baseURL: 'http://127.0.0.1:9/v1' });
      const params = {
        model: MODEL[p],
        messages: [{ role: 'user' as const, content: 'Go.' }],
        tools: jsonTools.map((t) => ({ type: 'function' as const, function: { name: t.name, parameters: t.schema } })),
        stream_options: { include_usage: true },
      };
      if (!raw) {
        return async () => {
          const c = await client.chat.completions.stream(params).finalChatCompletion();
          const m = c.choices[0]?.message;
          const d = emptyDigest();
          d.text = m?.content?.length ?? 0;
          for (const t of m?.tool_calls ?? []) {
            if (t.type !== 'function') continue;
            d.calls++;
            d.args += t.function.arguments.length;
          }
          return d;
        };
      }
      return async () => {
        const d = emptyDigest();
        const s = await client.chat.completions.create({ ...params, stream: true });
        for await (const c of s) {
          const delta = c.choices[0]?.delta;
          if (delta?.content) d.text += delta.content.length;
          for (const t of delta?.tool_calls ?? []) {
            if (t.id) d.calls++;
            d.args += t.function?.arguments?.length ?? 0;
          }
        }
        return d;
      };
    }
    case 'anthropic-messages': {
      const { default: Anthropic } = await import('@anthropic-ai/sdk');
      const client = new Anthropic({ apiKey: API_KEY, fetch, maxRetries: 0, baseURL: 'http://127.0.0.1:9' });
      const params = {
        model: MODEL[p],
        max_tokens: 64000,
        messages: [{ role: 'user' as const, content: 'Go.' }],
        tools: jsonTools.map((t) => ({ name: t.name, input_schema: { type: 'object' as const, additionalProperties: true } })),
      };
      if (!raw) {
        return async () => {
          const m = await client.messages.stream(params).finalMessage();
          const d = emptyDigest();
          for (const b of m.content) {
            if (b.type === 'text') d.text += b.text.length;
            else if (b.type === 'thinking') {
              d.thinking += b.thinking.length;
              d.thinkingParts++;
            } else if (b.type === 'tool_use') {
              d.calls++;
              d.args += JSON.stringify(b.input).length;
            }
          }
          return d;
        };
      }
      return async () => {
        const d = emptyDigest();
        const s = await client.messages.create({ ...params, stream: true });
        for await (const e of s) {
          if (e.type === 'content_block_start' && e.content_block.type === 'tool_use') d.calls++;
          else if (e.type === 'content_block_start' && e.content_block.type === 'thinking') d.thinkingParts++;
          else if (e.type === 'content_block_delta') {
            if (e.delta.type === 'text_delta') d.text += e.delta.text.length;
            else if (e.delta.type === 'thinking_delta') d.thinking += e.delta.thinking.length;
            else if (e.delta.type === 'input_json_delta') d.args += e.delta.partial_json.length;
          }
        }
        return d;
      };
    }
    case 'openai-responses': {
      const { default: OpenAI } = await import('openai');
      const client = new OpenAI({ apiKey: API_KEY, fetch, maxRetries: 0, baseURL: 'http://127.0.0.1:9/v1' });
      const params = {
        model: MODEL[p],
        input: 'Go.',
        tools: jsonTools.map((t) => ({ type: 'function' as const, name: t.name, parameters: t.schema, strict: false })),
      };
      if (!raw) {
        return async () => {
          const r = await client.responses.stream(params).finalResponse();
          const d = emptyDigest();
          for (const item of r.output) {
            if (item.type === 'message') {
              for (const c of item.content) if (c.type === 'output_text') d.text += c.text.length;
            } else if (item.type === 'reasoning') {
              for (const s of item.summary) {
                d.thinking += s.text.length;
                d.thinkingParts++;
              }
            } else if (item.type === 'function_call') {
              d.calls++;
              d.args += item.arguments.length;
            }
          }
          return d;
        };
      }
      return async () => {
        const d = emptyDigest();
        const s = await client.responses.create({ ...params, stream: true });
        for await (const e of s) {
          if (e.type === 'response.output_text.delta') d.text += e.delta.length;
          else if (e.type === 'response.reasoning_summary_text.delta') d.thinking += e.delta.length;
          else if (e.type === 'response.reasoning_summary_part.added') d.thinkingParts++;
          else if (e.type === 'response.function_call_arguments.delta') d.args += e.delta.length;
          else if (e.type === 'response.output_item.added' && e.item.type === 'function_call') d.calls++;
        }
        return d;
      };
    }
    case 'gemini': {
      const { GoogleGenAI } = await import('@google/genai');
      const ai = new GoogleGenAI({ apiKey: API_KEY, httpOptions: { fetch, baseUrl: 'http://127.0.0.1:9' } });
      const tools = [{ functionDeclarations: jsonTools.map((t) => ({ name: t.name, parametersJsonSchema: t.schema })) }];
      return async () => {
        const d = emptyDigest();
        const s = await ai.models.generateContentStream({ model: MODEL[p], contents: 'Go.', config: { tools } });
        for await (const c of s) {
          for (const part of c.candidates?.[0]?.content?.parts ?? []) {
            if (typeof part.text === 'string') {
              if (part.thought) d.thinking += part.text.length;
              else d.text += part.text.length;
            }
            if (part.functionCall) {
              d.calls++;
              d.args += JSON.stringify(part.functionCall.args ?? {}).length;
            }
          }
        }
        if (d.thinking) d.thinkingParts = 1;
        return d;
      };
    }
    case 'ollama':
      throw new Error('no official SDK measured for ollama');
  }
}

// ---------------------------------------------------------------------------------------------
// Vercel AI SDK: the provider's doStream, and streamText over it; the same over wireforge's bridge

async function prepareAi(p: Protocol, streamText: boolean, body: Body, chunks: Uint8Array[], bridge: boolean): Promise<Run> {
  (globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
  const fetch = fetchOver(chunks, p);
  const model = bridge ? await bridgeModel(p, fetch) : await aiModel(p, fetch);
  if (!streamText) {
    const options: Parameters<typeof model.doStream>[0] = {
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'Go.' }] }],
      tools: body.toolNames.map((name) => ({ type: 'function' as const, name, inputSchema: toolSchema() })),
      includeRawChunks: false,
    };
    return async () => {
      const d = emptyDigest();
      const { stream } = await model.doStream(options);
      const reader = stream.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        switch (value.type) {
          case 'text-delta':
            d.text += value.delta.length;
            break;
          case 'reasoning-start':
            d.thinkingParts++;
            break;
          case 'reasoning-delta':
            d.thinking += value.delta.length;
            break;
          case 'tool-call':
            d.calls++;
            d.args += value.input.length;
            break;
          case 'error':
            throw value.error instanceof Error ? value.error : new Error(JSON.stringify(value.error));
        }
      }
      return d;
    };
  }
  const ai = await import('ai');
  const tools = Object.fromEntries(body.toolNames.map((name) => [name, ai.tool({ inputSchema: ai.jsonSchema<Record<string, unknown>>(toolSchema()) })]));
  return async () => {
    const d = emptyDigest();
    const r = ai.streamText({ model, prompt: 'Go.', tools, maxRetries: 0 });
    for await (const part of r.fullStream) {
      switch (part.type) {
        case 'text-delta':
          d.text += part.text.length;
          break;
        case 'reasoning-start':
          d.thinkingParts++;
          break;
        case 'reasoning-delta':
          d.thinking += part.text.length;
          break;
        case 'tool-call':
          d.calls++;
          d.args += JSON.stringify(part.input).length;
          break;
        case 'error':
          throw part.error instanceof Error ? part.error : new Error(String(part.error));
      }
    }
    return d;
  };
}

async function bridgeModel(p: Protocol, fetch: typeof globalThis.fetch) {
  const { languageModel } = await import('../ai-sdk/index.js');
  return languageModel(p, { model: MODEL[p], apiKey: API_KEY, fetch, baseUrl: 'http://127.0.0.1:9/v1' });
}

async function aiModel(p: Protocol, fetch: typeof globalThis.fetch) {
  switch (p) {
    case 'openai-chat': {
      const { createOpenAI } = await import('@ai-sdk/openai');
      return createOpenAI({ apiKey: API_KEY, fetch, baseURL: 'http://127.0.0.1:9/v1' }).chat(MODEL[p]);
    }
    case 'openai-responses': {
      const { createOpenAI } = await import('@ai-sdk/openai');
      return createOpenAI({ apiKey: API_KEY, fetch, baseURL: 'http://127.0.0.1:9/v1' }).responses(MODEL[p]);
    }
    case 'anthropic-messages': {
      const { createAnthropic } = await import('@ai-sdk/anthropic');
      return createAnthropic({ apiKey: API_KEY, fetch, baseURL: 'http://127.0.0.1:9/v1' })(MODEL[p]);
    }
    case 'gemini': {
      const { createGoogleGenerativeAI } = await import('@ai-sdk/google');
      return createGoogleGenerativeAI({ apiKey: API_KEY, fetch, baseURL: 'http://127.0.0.1:9/v1beta' })(MODEL[p]);
    }
    case 'ollama':
      throw new Error('no AI SDK provider measured for ollama');
  }
}
