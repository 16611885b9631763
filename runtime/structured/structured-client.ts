/**
 * Typed structured output over a client: a request with a response schema is planned for the
 * wire (plan.ts), and its response gets `object`, parsed and checked; a stream also gets
 * `object-delta` events with the reply parsed so far. Every other request goes to the client
 * untouched, and a plain stream is the client's own: no cost where no schema was asked for.
 * `createClient` clients come with it; `createClientFor` (the small core) does not, and refuses a
 * schema rather than ignore it.
 */
import type { ProviderAdapter } from '../contract/adapter.js';
import type { ChatRequest, ChatResponse, StreamEvent } from '../contract/unified-model.js';
import { ChatStream } from '../client/chat-stream.js';
import type { Client } from '../client/create-client.js';
import { planStructured, type StructuredPlan } from './plan.js';

/** The partial-JSON reader, loaded by the first stream that needs it (a bundler that splits chunks keeps it out of the first one). */
let reader: Promise<typeof import('./partial-json.js')> | undefined;

/** `client` (made for `adapter`) with typed structured output. */
export function withStructuredOutput(client: Client, adapter: ProviderAdapter): Client {
  const typed: Pick<Client, 'provider'> & { chat: Untyped['chat']; stream: Untyped['stream'] } = {
    provider: client.provider,
    chat(request, call) {
      const plan = planStructured(adapter, request);
      if (!plan) return client.chat(request, call);
      return client.chat(plan.request, call).then((res) => plan.finish(res));
    },
    stream(request, call) {
      const plan = planStructured(adapter, request);
      if (!plan) return client.stream(request, call);
      return structuredStream(client.provider, client.stream(plan.request, call), plan);
    },
  };
  return typed as Client;
}

interface Untyped {
  chat(request: ChatRequest, call?: Parameters<Client['chat']>[1]): Promise<ChatResponse>;
  stream(request: ChatRequest, call?: Parameters<Client['stream']>[1]): ChatStream;
}

/**
 * The inner stream's events, with the reply's partial object after each piece of it (only when
 * it changed), the forced tool's call shown as the text it is, and the finish event held back
 * until the reply is checked: the last `object-delta` is the response's `object`.
 */
function structuredStream(provider: string, inner: ChatStream, plan: StructuredPlan): ChatStream {
  let result: ChatResponse | undefined;
  const source = async function* (emitEvents: boolean): AsyncGenerator<StreamEvent[], void, undefined> {
    if (!emitEvents) {
      result = await plan.finish(await inner.final());
      return;
    }
    const { parsePartialJson } = await (reader ??= import('./partial-json.js'));
    let text = '';
    let shown = '';
    let callIndex: number | undefined;
    let finish: Extract<StreamEvent, { type: 'finish' }> | undefined;
    // The object so far, when it says more than the last one sent.
    const delta = (piece: string): StreamEvent | undefined => {
      text += piece;
      // After an opening code fence (the reader stops at a closing one by itself).
      const fence = /^\s*```[^\n]*(\n|$)/.exec(text);
      const object = parsePartialJson(fence ? (fence[1] ? text.slice(fence[0].length) : '') : text);
      if (object === undefined) return undefined;
      const now = JSON.stringify(object);
      if (now === shown) return undefined;
      shown = now;
      return { type: 'object-delta', object };
    };
    for await (const e of inner) {
      let out: StreamEvent | undefined = e;
      let piece: string | undefined;
      if (e.type === 'start' && plan.warning) out = { ...e, warnings: [...e.warnings, plan.warning] };
      else if (plan.tool === undefined) {
        if (e.type === 'text-delta') piece = e.delta;
      } else if (e.type === 'tool-call-start' && e.name === plan.tool && callIndex === undefined) {
        callIndex = e.index;
        out = undefined;
      } else if (e.type === 'tool-call-delta' && e.index === callIndex) {
        piece = e.delta;
        out = { type: 'text-delta', delta: e.delta };
      } else if (e.type === 'tool-call' && e.index === callIndex) {
        out = undefined;
        // A wire that sends the call whole, without deltas: its arguments are the reply in one piece.
        if (text === '') {
          piece = e.call.arguments;
          out = { type: 'text-delta', delta: piece };
        }
      }
      if (out?.type === 'finish') {
        finish = out;
        continue;
      }
      const d = piece === undefined ? undefined : delta(piece);
      if (out && d) yield [out, d];
      else if (out) yield [out];
      else if (d) yield [d];
    }
    result = await plan.finish(await inner.final());
    const last = JSON.stringify(result.object);
    // The checked object, when the schema library gave back more or other than the text said (defaults, transforms).
    if (result.object !== undefined && last !== shown) yield [{ type: 'object-delta', object: result.object }];
    if (finish) yield [{ ...finish, finishReason: result.finishReason }];
  };
  return new ChatStream(provider, source, () => result!, (reason) => inner.abort(reason));
}
