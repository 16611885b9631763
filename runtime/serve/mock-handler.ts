/**
 * A mock provider as a standard fetch handler (`(Request) => Promise<Response>`): it serves one
 * spec's wire at that spec's own path and auth, answers with scripted turns matched by request
 * content, plays faults (an HTTP error in the provider's shape, retry-after, an error inside the
 * stream, a stream cut mid-event, latency, a stall), and records every request it decoded.
 * docs/serving.md#mock-server. Runs wherever fetch does; node/ adds a node:http listener.
 */
import { RequestError } from '../errors.js';
import type { ChatRequest, Message } from '../contract/unified-model.js';
import { decodeRequest } from './decode-request.js';
import { brokenRule } from './request-rules.js';
import { kindItems } from './kind-items.js';
import { readPath } from '../wire/read-path.js';
import { eventEncoder, requestedFraming } from './encode-events.js';
import { errorResponse, errorTypeFor, type ServedError } from './error-body.js';
import { notServed, servesPath } from './endpoint-path.js';
import { callerKey, sameSecret } from './caller-key.js';
import type { ServedSpec } from '../contract/serve-codec.js';
import { responseBody, type ServedTurn } from './served-turn.js';
import { StreamWriter, type MadeItemId, type WireEvent } from './stream-writer.js';
import { servedTurn, turnEvents } from './turn-events.js';
import { withCors, type CorsOption } from './cors.js';
import type { MockFault, MockMatch, MockStep } from './mock-script.js';
import { checkStep, streamedFaultOnBlocking } from './mock-check.js';

export type { MockFault, MockMatch, MockStep } from './mock-script.js';

/** What the mock recorded of one request. */
export interface RecordedCall {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
  /** The request as the spec reads it, when it could. */
  request?: ChatRequest;
  stream?: boolean;
  /** The client went away before the answer was complete. */
  aborted?: boolean;
}

export interface MockOptions {
  /** Steps tried in order; the first that matches answers. Default: one text turn. */
  script?: MockStep[] | ((call: RecordedCall) => MockStep);
  /** When set, requests must carry this key in the spec's auth header (else 401 in the provider's shape). */
  apiKey?: string;
  /** Text pieces per delta (code points). Default 8. */
  chunk?: number;
  /** Between stream events. Default 0. */
  delayMs?: number;
  /** The response's model when the request names none. */
  model?: string;
  /** Answer browsers: preflights, and CORS headers on every answer (`true`: any origin, or a list). Off by default. */
  cors?: CorsOption;
}

export interface MockHandler {
  fetch(request: Request): Promise<Response>;
  readonly calls: RecordedCall[];
}

const CREATED = 1767225600;

/**
 * A streamed item's id, with the prefixes OpenAI's items have (`msg_`, `rs_`, `fc_`): not the
 * `<response id>_<index>` a gateway makes up for items its upstream did not name, so a test of
 * ids passed through cannot pass on ids that agree by chance.
 */
const ITEM_PREFIX = { text: 'msg', thinking: 'rs', call: 'fc' } as const;
const mockItemId: MadeItemId = (kind, index, id) => `${ITEM_PREFIX[kind]}_${id}_${index}`;

/**
 * The ids the mock's stream gives a turn's items, by position, for its blocking body to name them
 * alike: its blocks come as the body lists them (reasoning, parts, text, calls).
 */
function mockItemIds(turn: ServedTurn): string[] {
  const m = turn.message;
  const ids: string[] = [];
  const add = (kind: keyof typeof ITEM_PREFIX | undefined, count: number) => {
    for (let k = 0; k < count; k++) ids.push(kind ? mockItemId(kind, ids.length, turn.id) : `${turn.id}_${ids.length}`);
  };
  add('thinking', m.thinking?.length ?? 0);
  add(undefined, m.parts?.filter((p) => p.type === 'opaque').length ?? 0);
  add('text', m.content ? 1 : 0);
  add('call', m.toolCalls?.length ?? 0);
  return ids;
}

export function createMockHandler(spec: ServedSpec, options: MockOptions = {}): MockHandler {
  const { adapter, serve } = spec;
  const calls: RecordedCall[] = [];
  const used = new Map<MockStep, number>();
  // Calls served so far, by name and arguments: a wire without call ids (Gemini) gets them back.
  const served = new Map<string, string>();
  let n = 0;
  const fail = (status: number, message: string, extra: Partial<ServedError> = {}, headers: Record<string, string> = {}) => errorResponse(adapter, serve, { status, message, ...extra }, headers);
  const chunk = options.chunk ?? 8;
  /** A turn's stream events as the spec writes them (also what a fault's position is checked against). */
  const streamOf = (turn: ServedTurn) => {
    // The scripted turn is its own source: its reasoning with no text (no event carries it) is read there.
    const writer = new StreamWriter(adapter, serve, { id: turn.id, model: turn.model, created: CREATED, request: turn.request }, { snapshot: () => turn, whole: true }, mockItemId);
    const events: WireEvent[] = [];
    for (const e of turnEvents(turn, chunk)) events.push(...writer.write(e));
    events.push(...writer.end());
    return { writer, events };
  };
  const count = (step: MockStep) => streamOf(kindItems(adapter, servedTurn(step.reply ?? {}, { id: 'mock_0', model: options.model ?? 'mock-model', created: CREATED }))).events.length;
  // A scripted step that cannot do what it says is refused now, not served as a clean answer later.
  if (Array.isArray(options.script)) options.script.forEach((step, i) => checkStep(adapter.id, step, `script[${i}].`, count));

  const handle = async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    const headers: Record<string, string> = {};
    req.headers.forEach((v, k) => (headers[k] = v));
    const text = await req.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      return fail(400, 'the body is not valid JSON');
    }
    const call: RecordedCall = { method: req.method, path: url.pathname + url.search, headers, body };
    calls.push(call);
    // Until the answer is complete; then the listener goes (one signal may serve many requests).
    const aborted = () => (call.aborted = true);
    req.signal.addEventListener('abort', aborted, { once: true });
    const done = () => req.signal.removeEventListener('abort', aborted);
    // A streamed answer takes `done` over and calls it when its body ends.
    let handed = false;
    const handOver = () => ((handed = true), done);
    try {
      return await answer(req, url, call, headers, body, handOver);
    } finally {
      if (!handed) done();
    }
  };

  const answer = async (req: Request, url: URL, call: RecordedCall, headers: Record<string, string>, body: unknown, handOver: () => () => void): Promise<Response> => {
    if (req.method !== 'POST') return fail(405, `${req.method} is not served; send POST`);
    if (!servesPath(adapter, url.pathname)) return fail(404, notServed(adapter, url.pathname));
    if (options.apiKey !== undefined && !sameSecret(callerKey(spec, (h) => headers[h]) ?? '', options.apiKey)) return fail(401, 'invalid API key');
    // What the provider itself refuses (an item without the one that must follow it, a call left unanswered).
    const broken = brokenRule(serve.requestRules, readPath(body, adapter.profile.request.messages.to));
    if (broken) return fail(400, broken);
    let decoded;
    try {
      decoded = decodeRequest(adapter, serve, body, url.pathname);
    } catch (e) {
      if (e instanceof RequestError) return fail(400, e.message);
      throw e;
    }
    call.request = restoreIds(decoded.request, served);
    call.stream = decoded.stream;
    const step = pickStep(options.script, call, used) ?? { reply: { text: 'Hello from the mock.' } };
    if (typeof options.script === 'function') {
      try {
        checkStep(adapter.id, step, 'script(call).', count);
      } catch (e) {
        return fail(500, e instanceof Error ? e.message : String(e));
      }
    }
    const fault = step.fault ?? {};
    // A stream fault on a request that does not stream would pass as a clean answer: it is an error instead.
    const misplaced = decoded.stream ? undefined : streamedFaultOnBlocking(step.fault);
    if (misplaced) return fail(400, `${adapter.id} mock: ${misplaced}`);
    if (fault.latencyMs) await sleep(fault.latencyMs, req.signal);
    if (fault.status !== undefined) {
      const extra: Record<string, string> = fault.retryAfter === undefined ? {} : { 'retry-after': String(fault.retryAfter) };
      return fail(fault.status, fault.message ?? `mock error ${fault.status}`, { type: fault.type, code: fault.code }, extra);
    }
    const id = `mock_${++n}`;
    const turn: ServedTurn = { ...kindItems(adapter, servedTurn(step.reply ?? {}, { id, model: decoded.request.model ?? options.model ?? 'mock-model', created: CREATED })), request: body };
    for (const c of turn.message.toolCalls ?? []) served.set(callKey(c.name, c.arguments), c.id);
    if (!decoded.stream) return json(responseBody(adapter, serve, { ...turn, itemIds: mockItemIds(turn) }).body, 200);
    const { writer, events } = streamOf(turn);
    return streamResponse(spec, writer, events, fault, options.delayMs ?? 0, req.signal, handOver(), requestedFraming(spec.adapter, spec.serve, url));
  };
  return { fetch: withCors(handle, options.cors, [adapter.requestIdHeader, adapter.profile.errors.typeHeader]), calls };
}

function callKey(name: string, args: string): string {
  try {
    return `${name}\u0000${JSON.stringify(JSON.parse(args))}`;
  } catch {
    return `${name}\u0000${args}`;
  }
}

/** Calls this mock served that come back without their ids get them again, with their results. */
function restoreIds(req: ChatRequest, served: Map<string, string>): ChatRequest {
  const renamed = new Map<string, string>();
  const known = new Set(served.values());
  for (const m of req.messages) {
    if (m.role !== 'assistant') continue;
    for (const c of m.toolCalls ?? []) {
      const id = served.get(callKey(c.name, c.arguments));
      if (id !== undefined && !known.has(c.id)) {
        renamed.set(c.id, id);
        c.id = id;
      }
    }
  }
  for (const m of req.messages) if (m.role === 'tool' && renamed.has(m.toolCallId)) m.toolCallId = renamed.get(m.toolCallId)!;
  return req;
}

function pickStep(script: MockOptions['script'], call: RecordedCall, used: Map<MockStep, number>): MockStep | undefined {
  if (typeof script === 'function') return script(call);
  for (const step of script ?? []) {
    if ((used.get(step) ?? 0) >= (step.times ?? Infinity)) continue;
    if (step.when && !holds(step.when, call)) continue;
    used.set(step, (used.get(step) ?? 0) + 1);
    return step;
  }
  return undefined;
}

function holds(m: MockMatch, call: RecordedCall): boolean {
  const req = call.request;
  if (!req) return false;
  if (m.model !== undefined && req.model !== m.model) return false;
  if (m.stream !== undefined && call.stream !== m.stream) return false;
  if (m.toolResultFor !== undefined && !req.messages.some((x) => x.role === 'tool' && x.toolCallId === m.toolResultFor)) return false;
  if (m.lastUserText !== undefined) {
    const last = [...req.messages].reverse().find((x): x is Extract<Message, { role: 'user' }> => x.role === 'user');
    const text = last === undefined ? '' : typeof last.content === 'string' ? last.content : last.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
    if (typeof m.lastUserText === 'string' ? !text.includes(m.lastUserText) : !m.lastUserText.test(text)) return false;
  }
  return true;
}

/** `done` is called once the body has ended or been cancelled. */
function streamResponse(spec: ServedSpec, writer: StreamWriter, events: WireEvent[], fault: MockFault, delayMs: number, signal: AbortSignal, done: () => void, framing: 'json-array' | undefined): Response {
  const encoder = eventEncoder(spec.adapter, framing);
  let i = 0;
  const end = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    done();
    controller.close();
  };
  const body = new ReadableStream<Uint8Array>({
    cancel: done,
    async pull(controller) {
      if (signal.aborted) return end(controller);
      if (i > 0 && delayMs) await sleep(delayMs, signal);
      if (i === 1 && fault.stallMs) await sleep(fault.stallMs, signal);
      if (fault.errorAfter !== undefined && i === fault.errorAfter) {
        const type = fault.type ?? errorTypeFor(spec.serve, 500);
        controller.enqueue(encoder.bytes(writer.errorEvent({ status: 500, message: fault.message ?? 'mock stream error', type, code: fault.code })));
        return end(controller);
      }
      if (fault.truncateAfter !== undefined && i === fault.truncateAfter) {
        const next = events[i] ? encoder.bytes([events[i]!]) : new Uint8Array(0);
        controller.enqueue(next.subarray(0, Math.max(1, Math.floor(next.length / 2))));
        return end(controller);
      }
      if (i >= events.length) {
        const tail = encoder.end();
        if (tail.length) controller.enqueue(tail);
        return end(controller);
      }
      // Without a delay or a fault to place, events go out in batches (a network chunk holds many).
      const batch = delayMs || fault.errorAfter !== undefined || fault.truncateAfter !== undefined || fault.stallMs ? 1 : 64;
      controller.enqueue(encoder.bytes(events.slice(i, (i += batch))));
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': encoder.contentType, 'cache-control': 'no-cache' } });
}

function json(body: unknown, status: number): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** A wait that ends early on abort; its listener goes when it ends either way (a stream may wait thousands of times on one signal). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const end = () => {
      clearTimeout(t);
      signal.removeEventListener('abort', end);
      resolve();
    };
    const t = setTimeout(end, ms);
    signal.addEventListener('abort', end, { once: true });
  });
}
