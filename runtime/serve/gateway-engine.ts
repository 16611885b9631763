/**
 * The gateway's steps for one request, shared by the single-route gateway (gateway.ts) and the
 * router (router.ts): admit (read and decode the caller's request with the listen spec), forward
 * (send it to one upstream, answer in the listen protocol, event by event), and an upstream
 * failure as the listen protocol's error. docs/serving.md#gateway.
 */
import { ConnectionError, ProviderError, RequestError, TimeoutError, WireforgeError } from '../errors.js';
import type { ChatRequest, ChatResponse, StreamEvent, Warning } from '../contract/unified-model.js';
import type { Client } from '../client/create-client.js';
import type { ServedSpec } from '../contract/serve-codec.js';
import { decodeRequest, type DecodedRequest } from './decode-request.js';
import { eventEncoder, requestedFraming, type EventEncoder } from './encode-events.js';
import { errorTypeFor } from './error-body.js';
import { notServed, servesPath } from './endpoint-path.js';
import { responseBody, type ServedTurn } from './served-turn.js';
import { StreamWriter, type TurnSource, type WireEvent } from './stream-writer.js';
import { dropCacheMarks, type CacheMarkPlaces } from './cache-marks.js';
import { rateLimitHeaders } from './upstream-waits.js';
import { readText } from './read-body.js';
import type { ServedRequest } from './served-request.js';
import { metered, type Admission } from './limits/gateway-limits.js';
import { markEvent, markReasoning, unmarkReasoning } from './dialects.js';
import { sourcedResponse, type BodySource } from './body-source.js';

/** The upstream model: fixed, or made from the one the caller asked for. */
export type UpstreamModel = string | ((requested: string | undefined) => string | undefined) | undefined;

/** The response header that lists what either protocol could not carry, as JSON. */
export const WARNINGS_HEADER = 'x-wireforge-warnings';
/**
 * On every error the gateway answers: `gateway` when the gateway itself refused the request (the
 * caller's token, the body, the path), `upstream` when it is the upstream's answer or failure.
 */
export const ERROR_SOURCE_HEADER = 'x-wireforge-error-source';

/** The body limit of the fetch handler and of the node listener in front of it. */
export const DEFAULT_BODY_LIMIT = 4 * 1024 * 1024;

/** A request the gateway took: the caller's body, as the listen protocol reads it. */
export interface AdmittedRequest {
  body: unknown;
  decoded: DecodedRequest;
  url: URL;
  signal: AbortSignal;
  /** The spec the request was read with and is answered in: the listen spec, or a dialect of it (dialects.ts). */
  spec?: ServedSpec;
  /** Read in a signing dialect: the answer's reasoning goes out marked with its upstream (dialects.ts). */
  signs?: true;
  /** The listener writes the answer's body source itself (ServedRequest.direct). */
  direct?: boolean;
}

/** The spec to read a parsed body with and answer in (a dialect of the listen spec), or a refusal; it may take the gateway's own fields out of the body. */
export type PickSpec = (body: Record<string, unknown>) => { spec: ServedSpec; signs?: (specId: string) => boolean } | Response;

/** How the gateway answers a refusal of its own or an upstream failure, in the listen protocol's shape. */
export type FailWith = (status: number, message: string, headers?: Record<string, string>, source?: 'gateway' | 'upstream', type?: string) => Response;

/**
 * The caller's request read and decoded with the listen spec (`path`: the endpoint path, a route
 * prefix taken off), or the listen protocol's refusal: wrong path, not JSON, too large, unreadable.
 */
export async function admitRequest(listen: ServedSpec, req: ServedRequest, path: string, bodyLimit: number, fail: FailWith, pick?: PickSpec): Promise<AdmittedRequest | Response> {
  const url = new URL(req.url);
  // A wrong baseUrl in the caller is a 404 in the protocol's shape, as the provider would answer it.
  if (!servesPath(listen.adapter, path)) return fail(404, notServed(listen.adapter, path));
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
  let spec = listen;
  let signs: ((specId: string) => boolean) | undefined;
  if (pick && typeof body === 'object' && body !== null && !Array.isArray(body)) {
    const picked = pick(body as Record<string, unknown>);
    if (picked instanceof Response) return picked;
    ({ spec, signs } = picked);
  }
  try {
    const decoded = decodeRequest(spec.adapter, spec.serve, body, path);
    const direct = req.direct === true;
    if (spec === listen) return { body, decoded, url, signal: req.signal, direct };
    // Each assistant turn's reasoning goes back to the spec its marks name, and nowhere else.
    if (signs) unmarkReasoning(decoded.request, spec.adapter.id, signs);
    return { body, decoded, url, signal: req.signal, direct, spec, ...(signs ? { signs: true as const } : {}) };
  } catch (e) {
    if (e instanceof RequestError) return fail(400, e.message);
    throw e;
  }
}

/** One upstream a request can go to: its adapter, a client for it (with a key), and the model to ask for. */
export interface UpstreamTarget {
  upstream: ServedSpec['adapter'];
  client: Client;
  model: UpstreamModel;
  /** Where the upstream reads cache marks (carriesCacheMarks). */
  cacheMarks: CacheMarkPlaces;
}

/**
 * The admitted request sent to one upstream and answered in the listen protocol. An upstream
 * failure before the answer starts (the first streamed event included) is thrown, for the caller
 * to answer or to try another target with (and then to end the admission); after that, it is an
 * error event in the stream. `admission` (a limited client's): the answer's usage is counted and
 * the admission ended once the answer is whole, failed mid-stream or cancelled.
 */
export async function forwardRequest(listenSpec: ServedSpec, target: UpstreamTarget, admitted: AdmittedRequest, redact: (v: string) => string, admission?: Admission): Promise<Response> {
  // A dialect of the listen spec, when the request was read with one, writes the answer.
  const listen = admitted.spec ?? listenSpec;
  const { upstream, client } = target;
  const { decoded, body, url } = admitted;
  const request = upstreamRequest(decoded.request, listen.adapter.id, target.model);
  // Fields only the listen protocol knows (OpenAI's `n`, `logprobs`) mean nothing to another one.
  const own: Warning[] = decoded.unread.map((field) => ({ type: 'dropped', field, message: `${listen.adapter.profile.name} field ${field} has no place in the unified request; it was not sent upstream` }));
  dropCacheMarks(request, target.cacheMarks, upstream.profile.name, own);
  if (request.providerOptions && upstream.id !== listen.adapter.id) {
    for (const k of Object.keys(request.providerOptions)) own.push({ type: 'dropped', field: k, message: `${listen.adapter.profile.name} field ${k} has no counterpart in ${upstream.profile.name}; it was not sent` });
    delete request.providerOptions;
  }
  const call = { signal: admitted.signal };
  if (!decoded.stream) {
    const r = await client.chat(request, call);
    admission?.usage(r.usage);
    admission?.answered?.(r);
    admission?.done();
    // A dialect carries the upstream's reasoning to the caller as its own; a signing one marks it with that upstream, for the caller to send back.
    const message = admitted.spec ? { ...r.message, origin: undefined } : r.message;
    const turn = turnOf({ ...r, message: admitted.signs ? markReasoning(message, upstream.id) : message }, request.model);
    const { body: out, warnings } = responseBody(listen.adapter, listen.serve, { ...turn, request: body });
    return json(out, 200, warningsHeader([...own, ...r.warnings, ...warnings]));
  }
  const stream = client.stream(request, call);
  const upstreamEvents = admitted.signs ? markedEvents(stream[Symbol.asyncIterator](), upstream.id) : stream[Symbol.asyncIterator]();
  // The answer starts once upstream's first event is there: an upstream error before it is an HTTP error.
  const first = await upstreamEvents.next();
  // Metered from the second event: a failure before the first is the caller's to end (it may try another target).
  const events = admission ? metered(upstreamEvents, admission) : upstreamEvents;
  if (!first.done && first.value.type === 'start') admission?.answered?.(first.value);
  if (admission && first.done) {
    admission.usage(null);
    admission.done();
  }
  const abort = admission ? () => (admission.done(), stream.abort()) : stream.abort.bind(stream);
  const foreign = upstream.id !== listen.adapter.id;
  // Reasoning no event carries (a redacted block, an item id) is read from the turn as it stands, at block boundaries.
  const source: TurnSource = { snapshot: () => stream.snapshot() };
  if (admitted.signs) source.reasoning = { mark: upstream.id };
  else if (foreign) source.reasoning = { foreign: upstream.id };
  return streamed(listen, eventEncoder(listen.adapter, requestedFraming(listen.adapter, listen.serve, url)), first, events, request.model, redact, abort, foreign, own, body, admitted.direct === true, source);
}

/** Events with their signatures marked as `specId`'s (a signing dialect's stream; no other stream pays for it). */
function markedEvents(events: AsyncIterator<StreamEvent>, specId: string): AsyncIterator<StreamEvent> {
  return {
    next: async () => {
      const r = await events.next();
      return r.done ? r : { value: markEvent(r.value, specId), done: false };
    },
    return: async (v?: unknown) => (await events.return?.(v)) ?? { value: undefined, done: true },
  };
}

/** The caller's request for upstream: reasoning state from the listen side is marked as its origin's, so another provider drops it. */
function upstreamRequest(r: ChatRequest, listenId: string, model: UpstreamModel): ChatRequest {
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
  direct: boolean,
  source: TurnSource,
): Response {
  const writer = new StreamWriter(listen.adapter, listen.serve, { id: 'gw_1', model: model ?? 'unknown', created: Math.floor(Date.now() / 1000), request }, source);
  let pending: IteratorResult<StreamEvent> | undefined = first;
  // The next event, asked for before the last batch went out (its failure is met when awaited).
  let ahead: Promise<IteratorResult<StreamEvent>> | undefined;
  let done = false;
  // Set by `ahead` once it has settled: an event of the same upstream chunk settles within a microtask.
  let ready = false;
  const settled = () => void (ready = true);
  const batch: WireEvent[] = [];
  const body: BodySource = {
    async pull(controller) {
      try {
        // A pull that enqueues nothing is not called again: read on until an event writes something.
        // The events one upstream chunk brought go out as one chunk (one write), not one each: after
        // an event that wrote something, the next is taken into the batch only if it is already there.
        batch.length = 0;
        while (!done) {
          const next = pending ?? (await (ahead ?? events.next()));
          pending = undefined;
          ahead = undefined;
          if (next.done) {
            done = true;
            for (const w of writer.end()) batch.push(w);
            const tail = batch.length ? encoder.bytes(batch) : undefined;
            if (tail?.length) controller.enqueue(tail);
            const end = encoder.end();
            if (end.length) controller.enqueue(end);
            return controller.close();
          }
          const written = writer.write(foreign ? withoutWire(next.value) : next.value);
          if (!written.length) continue;
          for (const w of written) batch.push(w);
          ready = false;
          ahead = events.next();
          ahead.then(settled, settled);
          await undefined;
          if (!ready) return controller.enqueue(encoder.bytes(batch));
        }
      } catch (e) {
        // Upstream failed mid-stream: an error event in the listen protocol, then the end.
        done = true;
        const status = e instanceof ProviderError && e.status !== undefined ? e.status : 502;
        const message = redact(e instanceof Error ? e.message : String(e));
        const type = errorTypeFor(listen.serve, status);
        // The events batched before the failure go first.
        for (const w of writer.errorEvent({ status, message, type })) batch.push(w);
        controller.enqueue(encoder.bytes(batch));
        controller.close();
      }
    },
    cancel() {
      // The caller went away: so does the upstream request.
      done = true;
      abort();
    },
  };
  // What the upstream request could not carry is known from its start event; the header goes out before the rest.
  const known = [...own, ...(!first.done && first.value.type === 'start' ? first.value.warnings : [])];
  return sourcedResponse(body, { status: 200, headers: { 'content-type': encoder.contentType, 'cache-control': 'no-cache', ...warningsHeader(known) } }, direct);
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
export function upstreamFailure(e: unknown, fail: FailWith, ownKey: string | undefined): Response {
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

export function warningsHeader(warnings: Warning[]): Record<string, string> {
  if (!warnings.length) return {};
  // Header values are ASCII: JSON with every other character escaped.
  const text = JSON.stringify(warnings.map((w) => ({ field: w.field, message: w.message }))).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return { [WARNINGS_HEADER]: text };
}

function json(body: unknown, status: number, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

