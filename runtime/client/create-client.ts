/**
 * `createClient(id, options)`: the one entry point. Holds the key in a closure (never on an
 * enumerable property), merges model-level defaults, and runs chat() / stream() through the
 * generated adapter.
 */
import type { ProviderAdapter } from '../contract/adapter.js';
import { TurnAssembler } from '../assemble/turn-assembler.js';
import { RequestError, StreamError, WireforgeError } from '../errors.js';
import { keys, readPath } from '../wire/read-path.js';
import { checkDefaults, checkRequest, unknownKeys } from '../request/check-request.js';
import { isPlainObject, mergeInto, sanitize } from '../request/safe-merge.js';
import { authorize, keyOf, passOption } from '../transport/authorize.js';
import { makeRedactor, messageOf } from '../transport/redact.js';
import { followSignal } from '../transport/abort.js';
import { sendRequest } from '../transport/send-request.js';
import type { CallOptions, ChatRequest, ChatResponse, ClientOptions, ResponseSchema, StructuredResponse } from '../contract/unified-model.js';
import { buildHeaders, buildUrl } from './build-http.js';
import { ChatStream } from './chat-stream.js';
import { nothingRead, readBodyText, readStream } from './read-stream.js';

/**
 * `S` is the request's response schema, when it has one (`responseFormat: { type: 'json', schema }`):
 * the response's `object` is typed from it. Clients from `createClient` read it
 * (runtime/structured); `createClientFor` alone refuses such a request (docs/unified-model.md#structured-output).
 */
export interface Client {
  readonly provider: string;
  chat<const S extends ResponseSchema = never>(request: ChatRequest<S>, options?: CallOptions): Promise<StructuredResponse<S>>;
  stream<const S extends ResponseSchema = never>(request: ChatRequest<S>, options?: CallOptions): ChatStream<StructuredResponse<S>>;
}

const DEFAULT_TIMEOUT_MS = 600_000;

/** ClientOptions' keys (a typo, or `baseURL` from another SDK, must not fall back to the spec's URL). */
const CLIENT_OPTIONS = Object.fromEntries('apiKey model baseUrl fetch headers allowAuthOverride timeoutMs idleTimeoutMs maxRetries defaults endpoint getToken aws'.split(' ').map((k) => [k]));
const CALL_OPTIONS = { signal: 0, headers: 0 };

export const createClientFor = (adapter: ProviderAdapter, options: ClientOptions = {}): Client => {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  const { id, endpoint: ep } = adapter;
  unknownKeys(id, options, CLIENT_OPTIONS, 'options.');
  if (options.defaults) checkDefaults(id, options.defaults);
  const { baseUrl } = options;
  // The client's baseUrl, else the spec's: an empty one is none, and some specs have no default.
  if (!(baseUrl ?? ep.baseUrl) || (ep.baseUrlRequired && !baseUrl)) {
    throw new RequestError(id, 'baseUrl', `${id} needs a baseUrl: ${passOption(id, 'baseUrl')}`);
  }
  const redact = makeRedactor();
  // An empty key (a blank line in an env file) is none.
  const key = keyOf(adapter, options, env);
  // defineAdapter made sure the unit is there when the spec declares options.
  const endpoint = ep.options && adapter.codec.uses!.endpointOptions!(adapter, options.endpoint, env, baseUrl, ep.auth.sigv4 !== undefined && key === undefined);
  // Endpoint options passed to a spec that declares none.
  const unused = endpoint ? undefined : keys(options.endpoint ?? {})[0];
  if (unused !== undefined) throw new RequestError(id, `endpoint.${unused}`, `${id} takes no endpoint options`);
  const { apiKey, sign } = authorize(adapter, options, key, env, endpoint ?? {}, redact);
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const idleTimeoutMs = options.idleTimeoutMs ?? timeoutMs;
  const maxRetries = options.maxRetries ?? 2;

  const prepare = (request: ChatRequest, call: CallOptions | undefined, stream: boolean) => {
    checkRequest(id, request);
    if (call) unknownKeys(id, call, CALL_OPTIONS, 'callOptions.');
    const merged = withDefaults(request, options);
    // A model in the URL path is asked for by its urlTemplate when it is missing.
    if (merged.model === undefined && adapter.profile.request.model !== undefined) throw new RequestError(id, 'model', `no model: set it on the request or ${passOption(id, 'model')}`);
    const built = adapter.buildRequest(merged, stream ? 'stream' : 'blocking');
    const url = buildUrl(adapter, baseUrl, stream, endpoint ? { ...endpoint, ...built.pathParams } : built.pathParams);
    const headers = buildHeaders(ep, apiKey, stream, [options.headers, call?.headers], options.allowAuthOverride === true);
    // Made before the call; it only holds state until the readers feed it.
    const assembler = new TurnAssembler(adapter.rules, { streaming: stream, warnings: built.warnings, redact, model: built.model });
    return { built, assembler, send: { url, headers, body: JSON.stringify(built.body), fetch: doFetch, timeoutMs, maxRetries, signal: call?.signal, redact, sign } };
  };

  const client: Untyped = {
    provider: id,

    async chat(request, call) {
      const { assembler: a, send } = prepare(request, call, false);
      const sent = await sendRequest(adapter, send);
      try {
        let body: unknown;
        const text = await readBodyText({ adapter, sent, idleTimeoutMs });
        // A body that is not a turn, with the start of what came instead.
        const notATurn = (reason: string) => new StreamError({ provider: id, reason, excerpt: redact(text.slice(0, 120)) });
        try {
          body = JSON.parse(text);
        } catch {
          // No `cause`: JSON.parse's message quotes the body, which may echo the key.
          throw notATurn(text === '' ? 'empty response body' : 'response body is not JSON');
        }
        // A body without a field the spec requires is not a turn (an error page, a changed API): say which.
        const missing = adapter.profile.required?.response.find((p) => readPath(body, p) === undefined);
        if (missing !== undefined) {
          throw notATurn(`the response body has no \`${missing.join('.')}\`, which every ${adapter.name} response carries`);
        }
        adapter.readResponse(a, body as never);
        a.setRaw(redact(body));
        a.closeAll();
        if (a.isEmpty) {
          const error = notATurn(nothingRead('the response'));
          error.partial = a.result();
          throw error;
        }
        return a.result();
      } catch (error) {
        if (call?.signal?.aborted) throw call.signal.reason;
        if (error instanceof WireforgeError) throw error;
        throw new WireforgeError(`${id}: ${redact(messageOf(error))}`, { provider: id, cause: error });
      } finally {
        sent.dispose();
      }
    },

    stream(request, call) {
      // The stream's own controller: its abort() and the caller's signal both stop it.
      const own = new AbortController();
      const outer = call?.signal;
      const { built, assembler: a, send } = prepare(request, { ...call, signal: own.signal }, true);
      const source = async function* (emitEvents: boolean) {
        a.emit = emitEvents;
        // Followed only while the stream is read: a stream never read leaves nothing on the caller's signal.
        const unfollow = followSignal(outer, own);
        try {
          const sent = await sendRequest(adapter, send);
          yield* readStream({ adapter, sent, assembler: a, warnings: built.warnings, idleTimeoutMs, signal: own.signal, redact });
        } finally {
          unfollow();
        }
      };
      return new ChatStream(id, source, () => a.result(), (reason) => own.abort(reason));
    },
  };
  // The schema typing is the structured layer's; this client returns plain responses (and refuses a schema).
  return client as Client;
};

/** The client as this module implements it, before the schema typing. */
interface Untyped {
  readonly provider: string;
  chat(request: ChatRequest, options?: CallOptions): Promise<ChatResponse>;
  stream(request: ChatRequest, options?: CallOptions): ChatStream;
}

/** Model-level defaults under the request: a request value that is set wins; providerOptions merge key by key. */
const withDefaults = (request: ChatRequest, options: ClientOptions): ChatRequest => {
  const defaults = options.defaults ?? {};
  const out: ChatRequest = { ...defaults, ...definedOnly(request) } as ChatRequest;
  out.model = request.model ?? defaults.model ?? options.model;
  if (defaults.providerOptions || request.providerOptions) {
    const clean = (o: unknown) => (isPlainObject(o) ? (sanitize(o) as Record<string, unknown>) : {});
    const merged = clean(defaults.providerOptions);
    mergeInto(merged, clean(request.providerOptions), false);
    out.providerOptions = merged;
  }
  if (defaults.reasoning && request.reasoning) out.reasoning = { ...defaults.reasoning, ...definedOnly(request.reasoning) };
  return out;
};

const definedOnly = <T extends object>(o: T): Partial<T> => {
  const out: Partial<T> = {};
  for (const k of keys(o) as Array<keyof T>) if (o[k] !== undefined) out[k] = o[k];
  return out;
};
