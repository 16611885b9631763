/**
 * A gateway as a standard fetch handler: requests in one spec's protocol (listen) are read with
 * that spec, sent upstream through the normal client of another (retries, timeouts, abort when
 * the caller goes away), and answered in the listen protocol, event by event. Errors come back
 * in the listen protocol's shape with the upstream status; what either side could not carry is
 * listed in a response header. docs/serving.md#gateway.
 */
import { createClientFor } from '../client/create-client.js';
import { ConnectionError, ProviderError, RequestError, TimeoutError, WireforgeError } from '../errors.js';
import { makeRedactor } from '../transport/redact.js';
import type { ChatRequest, ClientOptions, ChatResponse, StreamEvent, Warning } from '../contract/unified-model.js';
import { decodeRequest } from './decode-request.js';
import { eventEncoder, requestedFraming, type EventEncoder } from './encode-events.js';
import { errorResponse, errorTypeFor } from './error-body.js';
import { notServed, servesPath } from './endpoint-path.js';
import { withCors, type CorsOption } from './cors.js';
import { callerKey, sameSecret } from './caller-key.js';
import type { ServedSpec } from '../contract/serve-codec.js';
import { responseBody, type ServedTurn } from './served-turn.js';
import { StreamWriter } from './stream-writer.js';
import { carriesCacheMarks, dropCacheMarks } from './cache-marks.js';
import { EXPOSED_LIMITS, rateLimitHeaders } from './upstream-waits.js';
import { readText } from './read-body.js';
import { checkClients, clientFor, gatewayLimits, metered, type GatewayClient } from './limits/gateway-limits.js';
import type { Limiter } from './limits/limiter.js';

export interface GatewayOptions {
  /** The protocol callers speak. */
  listen: ServedSpec;
  /** The provider the gateway calls. */
  upstream: ServedSpec['adapter'];
  /**
   * Client options for the upstream (key, baseUrl, `maxRetries`, `timeoutMs`, fetch). `maxRetries`
   * defaults to 0 here: the caller's SDK retries, with the upstream's `retry-after` passed on to it
   * (docs/serving.md#retries-and-timeouts).
   */
  client?: ClientOptions;
  /** Largest request body read, counted as it streams in; a larger one is a 413 in the listen protocol's shape, and nothing goes upstream. Default 4 MiB. */
  bodyLimit?: number;
  /**
   * Where the upstream key comes from: `'gateway'` (the client options or the upstream spec's
   * environment variable, default), or `'caller'` (the key the caller sent in the listen
   * protocol's auth header is used upstream).
   */
  upstreamKey?: 'gateway' | 'caller';
  /** When set, callers must send it in the listen protocol's auth header (else 401 in its shape). */
  clientToken?: string;
  /** The upstream model: fixed, or made from the one the caller asked for. */
  model?: string | ((requested: string | undefined) => string | undefined);
  /** Answer browsers: preflights, and CORS headers on every answer (`true`: any origin, or a list). Off by default. */
  cors?: CorsOption;
  /** Callers by token, each with a name and its limits (docs/serving.md#limits); a token is then required. */
  clients?: GatewayClient[];
  /** Where the clients' limit counters live: this process by default; `startGateway` passes a Redis one when `redis` is set. */
  limiter?: Limiter;
}

/** The response header that lists what either protocol could not carry, as JSON. */
export const WARNINGS_HEADER = 'x-wireforge-warnings';
/**
 * On every error the gateway answers: `gateway` when the gateway itself refused the request (the
 * caller's token, the body, the path), `upstream` when it is the upstream's answer or failure.
 */
export const ERROR_SOURCE_HEADER = 'x-wireforge-error-source';

/** The body limit of the fetch handler and of the node listener in front of it. */
export const DEFAULT_BODY_LIMIT = 4 * 1024 * 1024;

export function createGateway(options: GatewayOptions): (request: Request) => Promise<Response> {
  const { listen, upstream } = options;
  const keyFromCaller = options.upstreamKey === 'caller';
  if (options.clientToken !== undefined && options.clientToken.length < 16) throw new WireforgeError('the gateway client token must be at least 16 characters', { provider: listen.adapter.id });
  // The caller's auth header cannot hold both a gateway token and an upstream key.
  const clients = options.clients ?? [];
  checkClients(clients, listen.adapter.id);
  const needsToken = options.clientToken !== undefined || clients.length > 0;
  const admit = clients.some((c) => c.limits) ? gatewayLimits(options.limiter) : undefined;
  if (needsToken && keyFromCaller) throw new WireforgeError('a gateway that takes the upstream key from its callers cannot also ask them for a client token in the same header', { provider: listen.adapter.id });
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  // No upstream retries unless asked for: retried by the caller's SDK too, one 429 would become nine requests.
  const clientOptions: ClientOptions = { maxRetries: 0, ...options.client };
  const shared = keyFromCaller ? undefined : gatewayClient(upstream, clientOptions);
  const cacheMarks = carriesCacheMarks(upstream);
  // The keys the upstream client will use: given, or the upstream spec's environment variable.
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  const envKey = upstream.endpoint.apiKeyEnv ? env?.[upstream.endpoint.apiKeyEnv] : undefined;
  const redact = makeRedactor(options.client?.apiKey, envKey, options.clientToken, ...clients.map((c) => c.token));
  // The upstream's own error type goes back only to callers of the same wire; others get the listen protocol's for the status.
  const sameWire = upstream.id === listen.adapter.id;
  const fail = (status: number, message: string, headers: Record<string, string> = {}, source: 'gateway' | 'upstream' = 'gateway', type?: string): Response =>
    errorResponse(listen.adapter, listen.serve, { status, message: redact(message), type: sameWire ? type : undefined }, { [ERROR_SOURCE_HEADER]: source, ...headers });
  // The header the gateway reads the caller's credential from, as its 401 names it.
  const { header: authHeader, scheme } = listen.adapter.endpoint.auth;
  const sendIn = `the ${authHeader} header${scheme ? ` (${scheme} <token>)` : ''}`;

  return withCors(
    async (req) => {
      try {
        return await handle(req);
      } catch (e) {
        // A failure of the gateway itself (a body nested too deep to copy, say): the caller still gets the protocol's error.
        return fail(500, `the gateway failed: ${e instanceof Error ? e.message : String(e)}`);
      }
    },
    options.cors,
    [WARNINGS_HEADER, ERROR_SOURCE_HEADER, listen.adapter.requestIdHeader, listen.adapter.profile.errors.typeHeader, ...EXPOSED_LIMITS],
  );

  async function handle(req: Request): Promise<Response> {
    const url = new URL(req.url);
    if (req.method !== 'POST') return fail(405, `${req.method} is not served; send POST`);
    // A wrong baseUrl in the caller is a 404 in the protocol's shape, as the provider would answer it.
    if (!servesPath(listen.adapter, url.pathname)) return fail(404, notServed(listen.adapter, url.pathname));
    const key = callerKey(listen, (h) => req.headers.get(h));
    if (needsToken && key === undefined) return fail(401, `the gateway needs its token: send it in ${sendIn}`);
    const caller = clients.length ? clientFor(clients, key!) : undefined;
    if (needsToken && !caller && !(options.clientToken !== undefined && sameSecret(key!, options.clientToken))) return fail(401, `the gateway refused the token sent in ${sendIn}`);
    if (keyFromCaller && !key) return fail(401, `send your ${upstream.profile.name} key in ${sendIn}: this gateway passes it upstream`);
    const type = req.headers.get('content-type') ?? '';
    if (!/^application\/(.*\+)?json\b/i.test(type)) return fail(400, `the body must be JSON (content-type application/json), not ${JSON.stringify(type)}`);
    const text = await readText(req, bodyLimit);
    if (text === undefined) return fail(413, `the request body is too large (the gateway takes up to ${bodyLimit} bytes)`);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return fail(400, 'the body is not valid JSON');
    }
    let decoded;
    try {
      decoded = decodeRequest(listen.adapter, listen.serve, body, url.pathname);
    } catch (e) {
      if (e instanceof RequestError) return fail(400, e.message);
      throw e;
    }
    const request = upstreamRequest(decoded.request, listen.adapter.id, options.model);
    // Fields only the listen protocol knows (OpenAI's `n`, `logprobs`) mean nothing to another one.
    const own: Warning[] = decoded.unread.map((field) => ({ type: 'dropped', field, message: `${listen.adapter.profile.name} field ${field} has no place in the unified request; it was not sent upstream` }));
    dropCacheMarks(request, cacheMarks, upstream.profile.name, own);
    if (request.providerOptions && upstream.id !== listen.adapter.id) {
      for (const k of Object.keys(request.providerOptions)) own.push({ type: 'dropped', field: k, message: `${listen.adapter.profile.name} field ${k} has no counterpart in ${upstream.profile.name}; it was not sent` });
      delete request.providerOptions;
    }
    if (keyFromCaller) redact.add?.(key, true);
    const client = shared ?? createClientFor(upstream, { ...clientOptions, apiKey: key });
    const call = { signal: req.signal };
    // ── limits per client token (runtime/serve/limits): refused before anything goes upstream ──
    const admission = caller && admit ? await admit(caller, decoded.stream) : undefined;
    if (admission && !admission.ok) return fail(admission.status, admission.message, { 'retry-after': String(admission.retryAfterSeconds) });
    try {
      if (!decoded.stream) {
        const r = await client.chat(request, call);
        admission?.usage(r.usage);
        admission?.done();
        const { body: out, warnings } = responseBody(listen.adapter, listen.serve, { ...turnOf(r, request.model), request: body });
        return json(out, 200, warningsHeader([...own, ...r.warnings, ...warnings]));
      }
      const stream = client.stream(request, call);
      const events = admission ? metered(stream[Symbol.asyncIterator](), admission) : stream[Symbol.asyncIterator]();
      const abort = admission ? () => (admission.done(), stream.abort()) : stream.abort.bind(stream);
      // The answer starts once upstream's first event is there: an upstream error before it is an HTTP error.
      const first = await events.next();
      return streamed(listen, eventEncoder(listen.adapter, requestedFraming(listen.adapter, listen.serve, url)), first, events, request.model, redact, abort, upstream.id !== listen.adapter.id, own, body);
    } catch (e) {
      admission?.done();
      return upstreamFailure(e, fail, keyFromCaller ? undefined : upstream.profile.name);
    }
  }
}

/** The caller's request for upstream: reasoning state from the listen side is marked as its own, so another provider drops it. */
function upstreamRequest(r: ChatRequest, listenId: string, model: GatewayOptions['model']): ChatRequest {
  const messages = r.messages.map((m) => (m.role === 'assistant' && !m.origin ? { ...m, origin: { provider: listenId } } : m));
  const chosen = typeof model === 'function' ? model(r.model) : (model ?? r.model);
  const out: ChatRequest = { ...r, messages };
  if (chosen === undefined) delete out.model;
  else out.model = chosen;
  return out;
}

function turnOf(r: ChatResponse, model: string | undefined): ServedTurn {
  return {
    id: r.id ?? 'gw_1',
    model: r.model ?? model ?? 'unknown',
    created: Math.floor(Date.now() / 1000),
    message: r.message,
    finishReason: r.finishReason,
    usage: r.usage,
  };
}

function streamed(
  listen: ServedSpec,
  encoder: EventEncoder,
  first: IteratorResult<StreamEvent>,
  events: AsyncIterator<StreamEvent>,
  model: string | undefined,
  redact: (v: string) => string,
  abort: () => void,
  foreign: boolean,
  own: Warning[],
  // The caller's request body: the listen protocol's response echoes its settings (`$request`).
  request: unknown,
): Response {
  const writer = new StreamWriter(listen.adapter, listen.serve, { id: 'gw_1', model: model ?? 'unknown', created: Math.floor(Date.now() / 1000), request });
  let pending: IteratorResult<StreamEvent> | undefined = first;
  let done = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        // A pull that enqueues nothing is not called again: read on until an event writes something.
        while (!done) {
          const next = pending ?? (await events.next());
          pending = undefined;
          if (next.done) {
            done = true;
            const tail = encoder.bytes(writer.end());
            if (tail.length) controller.enqueue(tail);
            const end = encoder.end();
            if (end.length) controller.enqueue(end);
            return controller.close();
          }
          const written = writer.write(foreign ? withoutWire(next.value) : next.value);
          if (written.length) return controller.enqueue(encoder.bytes(written));
        }
      } catch (e) {
        // Upstream failed mid-stream: an error event in the listen protocol, then the end.
        done = true;
        const status = e instanceof ProviderError && e.status !== undefined ? e.status : 502;
        const message = redact(e instanceof Error ? e.message : String(e));
        const type = errorTypeFor(listen.serve, status);
        controller.enqueue(encoder.bytes(writer.errorEvent({ status, message, type })));
        controller.close();
      }
    },
    cancel() {
      // The caller went away: so does the upstream request.
      done = true;
      abort();
    },
  });
  // What the upstream request could not carry is known from its start event; the header goes out before the rest.
  const known = [...own, ...(!first.done && first.value.type === 'start' ? first.value.warnings : [])];
  return new Response(body, { status: 200, headers: { 'content-type': encoder.contentType, 'cache-control': 'no-cache', ...warningsHeader(known) } });
}

/** A part in the upstream's own wire form is not the listen protocol's: it goes without it (and is left out, with a warning). */
function withoutWire(e: StreamEvent): StreamEvent {
  if (e.type !== 'part' || !('wire' in e.part) || e.part.wire === undefined) return e;
  const { wire: _wire, ...part } = e.part;
  return { type: 'part', part: part as typeof e.part };
}

/**
 * An upstream failure as the listen protocol's error: its status, or 502/504 when there was no
 * answer. The upstream refusing the gateway's own key (`ownKey`: the upstream's name) is a 502:
 * passed on as a 401, it would read as the caller's token refused. The upstream's waits and
 * rate-limit headers go with it.
 */
function upstreamFailure(e: unknown, fail: (status: number, message: string, headers: Record<string, string>, source: 'gateway' | 'upstream', type?: string) => Response, ownKey: string | undefined): Response {
  if (e instanceof ProviderError) {
    const message = e.providerMessage || e.message;
    if (ownKey !== undefined && (e.status === 401 || e.status === 403)) return fail(502, `${ownKey} refused the gateway's key (HTTP ${e.status}): ${message}`, {}, 'upstream');
    return fail(e.status ?? 502, message, rateLimitHeaders(e), 'upstream', e.type);
  }
  if (e instanceof TimeoutError) return fail(504, e.message, {}, 'upstream');
  if (e instanceof ConnectionError) return fail(502, e.message, {}, 'upstream');
  // The request as the gateway made it, refused before it was sent.
  if (e instanceof RequestError) return fail(400, e.message, {}, 'gateway');
  if (e instanceof WireforgeError) return fail(502, e.message, {}, 'upstream');
  throw e;
}

/** The upstream client, or what to do when the gateway has no key for it (not createClient's advice). */
function gatewayClient(upstream: GatewayOptions['upstream'], options: ClientOptions | undefined) {
  try {
    return createClientFor(upstream, options);
  } catch (e) {
    if (!(e instanceof RequestError) || e.field !== 'apiKey') throw e;
    const env = upstream.endpoint.apiKeyEnv;
    throw new RequestError(upstream.id, 'apiKey', `the gateway has no key for ${upstream.profile.name}: ${env ? `set ${env} where it runs, ` : ''}give one in client.apiKey, or pass each caller's key upstream (upstreamKey: 'caller')`);
  }
}

function warningsHeader(warnings: Warning[]): Record<string, string> {
  if (!warnings.length) return {};
  // Header values are ASCII: JSON with every other character escaped.
  const text = JSON.stringify(warnings.map((w) => ({ field: w.field, message: w.message }))).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return { [WARNINGS_HEADER]: text };
}

function json(body: unknown, status: number, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}
