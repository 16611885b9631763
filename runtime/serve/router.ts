/**
 * The gateway for teams: a router in front of the single-route gateway's steps (admit, forward).
 * It finds the listen protocol by path prefix, the client by its token, the route by the model
 * the caller names, and tries the route's targets in order until one answers; a failure worth
 * another try moves on to the next target (another protocol included) before the first byte went
 * out, never after. It also answers the model lists. Everything here happens before the answer
 * starts: the stream path is the single-route gateway's. docs/serving.md#gateway-for-teams.
 */
import { createClientFor, type Client } from '../client/create-client.js';
import { ConnectionError, ProviderError, TimeoutError } from '../errors.js';
import { makeRedactor } from '../transport/redact.js';
import { serverWait } from '../transport/send-request.js';
import type { ClientOptions } from '../contract/unified-model.js';
import type { ServedSpec } from '../contract/serve-codec.js';
import { didYouMean } from '../closest-name.js';
import { callerKey, sameSecret } from './caller-key.js';
import { withCors } from './cors.js';
import { errorResponse } from './error-body.js';
import { carriesCacheMarks } from './cache-marks.js';
import { EXPOSED_LIMITS } from './upstream-waits.js';
import { admitRequest, forwardRequest, upstreamFailure, DEFAULT_BODY_LIMIT, ERROR_SOURCE_HEADER, WARNINGS_HEADER, type AdmittedRequest, type FailWith } from './gateway-engine.js';
import { askedDialect, OWN_FIELD } from './dialects.js';
import { requestedModel } from './decode-request.js';
import { adapterOf, checkGatewayConfig, envIn, extendsSpec, specIn, GatewayConfigError, routePattern, type ConfigContext, type GatewayConfig, type GatewayConfigTarget, type ModelListShape } from './gateway-config.js';
import { KeyPool } from './key-pool.js';
import { shareRests } from './shared-rests.js';
import { gatewayLimits, type Admission, type GatewayClient } from './limits/gateway-limits.js';
import type { Limiter } from './limits/limiter.js';
import type { ServedRequest } from './served-request.js';
import { MODEL_LISTS, modelListAsk } from './model-list.js';
import { byListenPrefix } from './listen-prefix.js';
import { gatewayTelemetry, type GatewayTelemetryContext, type RequestWatch } from './gateway-telemetry.js';

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

/** The target that answered, as `<spec>/<model>`. */
export const TARGET_HEADER = 'x-wireforge-target';
/** The attempts before it (a target, or one key of its pool), in order, each as `<spec>/<model> <status or failure>`, comma-separated. */
export const FALLBACKS_HEADER = 'x-wireforge-fallbacks';

interface Listener {
  spec: ServedSpec;
  prefix: string;
  models: ModelListShape | false;
  fail: FailWith;
  sendIn: string;
  /** Dialects a request may ask for here (`wireforge: { dialect }`), by spec id. */
  dialects: Map<string, ServedSpec>;
}

interface Target {
  upstream: ServedSpec['adapter'];
  model: string | undefined;
  cacheMarks: ReturnType<typeof carriesCacheMarks>;
  /** A pool of the gateway's keys (one key from a variable is a pool of one); none: the caller's key. */
  pool: KeyPool | undefined;
  clients: Map<number, Client>;
  options: ClientOptions;
}

interface Route {
  name: string;
  pattern: RegExp | undefined;
  listed: string[];
  targets: Target[];
  /** The route's dialect, for callers on each listen protocol it extends. */
  dialects: Map<Listener, ServedSpec>;
}

/** What the router is made with besides the config: how it finds specs and variables, and where limit counters live. */
export interface RouterContext extends ConfigContext, GatewayTelemetryContext {
  /** The clients' limit counters: this process by default (node's startGateway passes a Redis one when `redis` is set). */
  limiter?: Limiter;
  /** The upstream transport (node's startGateway passes one over node:http); the global fetch by default. */
  fetch?: typeof globalThis.fetch;
}

/** The gateway for a config: checked first (a GatewayConfigError lists every problem), then served. */
export function createRouter(config: GatewayConfig, ctx: RouterContext): (request: ServedRequest) => Promise<Response> {
  const problems = checkGatewayConfig(config, ctx);
  if (problems.length) throw new GatewayConfigError(problems);
  const bodyLimit = config.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const redact = makeRedactor();
  const tokens = (config.clients ?? []).map((c) => {
    const token = typeof c.token === 'string' ? c.token : envIn(ctx.env, c.token.env)!;
    redact.add?.(token);
    return { token, client: { name: c.name, token, ...(c.limits ? { limits: c.limits } : {}) } as GatewayClient, routes: c.routes ? new Set(c.routes) : undefined };
  });
  const admit = tokens.some((t) => t.client.limits) ? gatewayLimits(ctx.limiter) : undefined;
  // Spans and usage records (gateway-telemetry.ts): undefined, and nothing watched, when neither is on.
  const telemetry = gatewayTelemetry(config, ctx);
  const shared: ClientOptions = { maxRetries: config.maxRetries ?? 0, ...(config.timeoutMs !== undefined ? { timeoutMs: config.timeoutMs } : {}), ...(ctx.fetch ? { fetch: ctx.fetch } : {}) };

  const routes: Route[] = config.routes.map((r) => ({
    name: r.model,
    pattern: routePattern(r.model),
    listed: routePattern(r.model) ? (r.list ?? []) : [r.model],
    targets: r.targets.map((t) => target(t)),
    dialects: new Map(),
  }));
  function target(t: GatewayConfigTarget): Target {
    const upstream = adapterOf(typeof t.spec === 'string' ? specIn(ctx.specs, t.spec) : t.spec)!;
    const env = upstream.endpoint.apiKeyEnv;
    const key = t.key ?? (env ? { env } : undefined);
    const keys = key === undefined || key === 'caller' ? undefined : 'keys' in key ? key.keys : [envIn(ctx.env, key.env)!];
    for (const k of keys ?? []) redact.add?.(k);
    return {
      upstream,
      model: t.model,
      cacheMarks: carriesCacheMarks(upstream),
      pool: keys ? new KeyPool(keys) : undefined,
      clients: new Map(),
      options: { ...shared, ...(t.baseUrl ? { baseUrl: t.baseUrl } : {}) },
    };
  }
  // Several instances on one store rest a key together (shared-rests.ts).
  if (ctx.limiter?.rests) shareRests(routes.flatMap((r) => r.targets.flatMap((t) => (t.pool ? [{ pool: t.pool, scope: `${t.upstream.id} ${t.options.baseUrl ?? ''} ${t.model ?? ''}` }] : []))), ctx.limiter.rests);
  const exact = new Map(routes.filter((r) => !r.pattern).map((r) => [r.name, r]));
  const listed = [...new Set(routes.flatMap((r) => r.listed))];

  const listeners: Listener[] = (typeof config.listen === 'string' ? [config.listen] : config.listen).map((l) => {
    const entry = typeof l === 'string' ? { spec: l } : l;
    const spec = (typeof entry.spec === 'string' ? specIn(ctx.specs, entry.spec) : entry.spec) as ServedSpec;
    const fail: FailWith = (status, message, headers = {}, source = 'gateway', type) => errorResponse(spec.adapter, spec.serve, { status, message: redact(message), type }, { [ERROR_SOURCE_HEADER]: source, ...headers });
    const { header, scheme } = spec.adapter.endpoint.auth;
    const dialects = new Map((entry.dialects ?? []).map((id) => [id, specIn(ctx.specs, id) as ServedSpec]));
    return { spec, prefix: entry.path ?? '', models: entry.models ?? spec.serve.models ?? 'openai', fail, sendIn: `the ${header} header${scheme ? ` (${scheme} <token>)` : ''}`, dialects };
  });
  // A route's dialect answers the callers of each listen protocol it extends; others get their own.
  config.routes.forEach((r, i) => {
    if (r.dialect === undefined) return;
    for (const l of listeners) if (extendsSpec(ctx.specs, r.dialect, l.spec.adapter.id)) routes[i]!.dialects.set(l, specIn(ctx.specs, r.dialect) as ServedSpec);
  });
  const routeDialects = routes.some((r) => r.dialects.size > 0);
  const listenerFor = byListenPrefix(listeners);

  const handler = async (req: ServedRequest): Promise<Response> => {
    const path = new URL(req.url).pathname;
    const l = listenerFor(path);
    const sub = path.startsWith(`${l.prefix}/`) ? path.slice(l.prefix.length) : path;
    try {
      return await handle(req, l, sub);
    } catch (e) {
      return l.fail(500, `the gateway failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  const expose = [WARNINGS_HEADER, ERROR_SOURCE_HEADER, TARGET_HEADER, FALLBACKS_HEADER, ...listeners.flatMap((l) => [l.spec.adapter.requestIdHeader, l.spec.adapter.profile.errors.typeHeader]), ...EXPOSED_LIMITS];
  return withCors(handler, config.cors, expose);

  async function handle(req: ServedRequest, l: Listener, path: string): Promise<Response> {
    const key = callerKey(l.spec, (h) => req.headers.get(h));
    const models = l.models === false ? undefined : MODEL_LISTS[l.models];
    const ask = req.method === 'GET' && models ? modelListAsk(models, path) : undefined;
    if (ask && models) {
      const client = authorize(key, l);
      if (client instanceof Response) return client;
      const mayUse = (n: string) => !client.routes || client.routes.has(routeOf(n)?.name ?? '');
      if ('one' in ask) {
        // Any model a route takes (a pattern's included), as the caller may use it: `models.retrieve(id)`.
        if (!routeOf(ask.one) || !mayUse(ask.one)) {
          const hint = didYouMean(ask.one, listed.filter(mayUse));
          return l.fail(404, `no route for model "${ask.one}"${hint ? `; ${hint}` : ''}`);
        }
        return json(models.entry(ask.one));
      }
      const names = listed.filter(mayUse);
      return json(models.body(names.map(models.entry), names));
    }
    if (req.method !== 'POST') return l.fail(405, `${req.method} is not served; send POST${models ? ` (or GET ${l.prefix}${models.paths[0]} for the model list)` : ''}`);
    const client = authorize(key, l);
    if (client instanceof Response) return client;
    const admitted = await admitRequest(l.spec, req, path, bodyLimit, l.fail, (body) => answerIn(l, body, path));
    if (admitted instanceof Response) return admitted;
    const asked = admitted.decoded.request.model;
    const route = asked === undefined ? undefined : routeOf(asked);
    if (!route) {
      const hint = asked === undefined ? undefined : didYouMean(asked, listed);
      return l.fail(404, `${asked === undefined ? 'the request names no model' : `no route for model "${asked}"`}${hint ? `; ${hint}` : ''} (routes: ${routes.map((r) => r.name).join(', ')})`);
    }
    if (client.routes && !client.routes.has(route.name)) return l.fail(403, `client "${client.client!.name}" may not use model "${asked}"`);
    // ── limits per client token (runtime/serve/limits): one admission for the request, whichever target answers ──
    const limited = admit && client.client ? await admit(client.client, admitted.decoded.stream) : undefined;
    const watch = telemetry ? await telemetry.watch({ route: route.name, model: asked!, ...(client.client ? { client: client.client.name } : {}), stream: admitted.decoded.stream }, limited?.ok ? limited : undefined, (h) => req.headers.get(h)) : undefined;
    if (limited && !limited.ok) {
      const refusal = l.fail(limited.status, limited.message, { 'retry-after': String(limited.retryAfterSeconds) });
      watch?.refused(refusal.status);
      watch?.done();
      return refusal;
    }
    const admission = watch ?? limited;
    let res: Response;
    try {
      res = await attempt(l, route, admitted, key, admission, watch);
    } catch (e) {
      // The gateway itself failed (the handler answers 500): the span and record still end.
      watch?.refused(500, e instanceof Error ? e.name : 'Error');
      watch?.done();
      throw e;
    }
    // No target answered: the request is over.
    if (!res.headers.has(TARGET_HEADER)) {
      watch?.refused(res.status, lastFailure.get(res), res.headers.get(FALLBACKS_HEADER)?.split(', ') ?? []);
      admission?.done();
    }
    return res;
  }

  /** The client whose token the caller sent (anyone when the config names no clients), or the 401. */
  function authorize(key: string | undefined, l: Listener): { client: GatewayClient | undefined; routes: Set<string> | undefined } | Response {
    if (!tokens.length) return { client: undefined, routes: undefined };
    if (key === undefined) return l.fail(401, `the gateway needs a client token: send it in ${l.sendIn}`);
    // Every token compared, so the time taken does not say which one came close.
    let found: (typeof tokens)[number] | undefined;
    for (const t of tokens) if (sameSecret(key, t.token)) found = t;
    return found ?? l.fail(401, `the gateway refused the token sent in ${l.sendIn}`);
  }

  /**
   * The spec a request is read with and answered in (dialects.ts): the one its `wireforge` field
   * asks for, else its route's dialect for this listen protocol, else the listen spec. Under a
   * dialect that carries reasoning's signatures, the reasoning the gateway answers with is marked
   * with the spec that made it, and goes back only there (dialects.ts); under one that carries
   * only its text, it is the dialect's own.
   */
  function answerIn(l: Listener, body: Record<string, unknown>, path: string): { spec: ServedSpec; signs?: (specId: string) => boolean } | Response {
    const asked = Object.hasOwn(body, OWN_FIELD) ? askedDialect(body, l.spec, l.dialects) : undefined;
    if (asked && 'refused' in asked) return l.fail(400, asked.refused);
    if (!asked && !routeDialects) return { spec: l.spec };
    const model = requestedModel(l.spec.adapter, body, path);
    const route = model === undefined ? undefined : routeOf(model);
    const spec = asked ?? route?.dialects.get(l) ?? l.spec;
    return spec !== l.spec && carriesSignatures(spec) ? { spec, signs: knownSpec } : { spec };
  }

  function knownSpec(id: string): boolean {
    return specIn(ctx.specs, id) !== undefined;
  }

  function routeOf(model: string): Route | undefined {
    return exact.get(model) ?? routes.find((r) => r.pattern?.test(model));
  }

  async function attempt(l: Listener, route: Route, admitted: AdmittedRequest, callerKeyValue: string | undefined, admission: Admission | undefined, watch: RequestWatch | undefined): Promise<Response> {
    const tried: string[] = [];
    const asked = admitted.decoded.request.model;
    let last: unknown;
    let lastTarget: Target | undefined;
    // Where the last failure was listed: the answer itself when no target came after it.
    let lastAt = -1;
    for (const t of route.targets) {
      const label = `${t.upstream.id}/${t.model ?? asked}`;
      // A pool is tried key after key while its keys get 429s; then the next target.
      for (let asked429 = false; ; asked429 = true) {
        const place = t.pool?.take();
        if (t.pool && place === undefined) {
          // Resting before this request: say so (after its own 429s here, those say it).
          if (!asked429) {
            tried.push(`${label} keys-resting`);
            watch?.fellBack(label, 'keys-resting');
          }
          break;
        }
        if (!t.pool && callerKeyValue) redact.add?.(callerKeyValue, true);
        const client = place === undefined ? createClientFor(t.upstream, { ...t.options, apiKey: callerKeyValue }) : clientAt(t, place);
        try {
          // Told before: a blocking answer ends the watch inside forwardRequest.
          watch?.trying(label, t.upstream.id, tried);
          const res = await forwardRequest(l.spec, { upstream: t.upstream, client, model: t.model ?? asked, cacheMarks: t.cacheMarks }, admitted, redact, admission);
          res.headers.set(TARGET_HEADER, label);
          if (tried.length) res.headers.set(FALLBACKS_HEADER, tried.join(', '));
          return res;
        } catch (e) {
          last = e;
          lastTarget = t;
          if (!worthAnotherTry(e)) return failedWith(withTried(upstreamFailure(e, l.fail, t.pool ? t.upstream.profile.name : undefined), tried), e);
          lastAt = tried.push(`${label} ${failureOf(e)}`) - 1;
          watch?.fellBack(label, failureOf(e));
          if (place !== undefined && e instanceof ProviderError && e.status === 429) {
            t.pool!.cool(place, serverWait(e.headers) ?? e.retryAfterMs);
            continue;
          }
          break;
        }
      }
    }
    if (last !== undefined && lastAt === tried.length - 1) tried.pop();
    if (last === undefined) {
      // Every target's keys rest: the caller waits for the first to come back.
      const wait = Math.min(...route.targets.map((t) => t.pool?.wait() ?? 0));
      return withTried(l.fail(429, `every key of route "${route.name}" is resting after a 429; try again in ${Math.ceil(wait / 1000)} s`, { 'retry-after': String(Math.max(1, Math.ceil(wait / 1000))) }), tried);
    }
    return failedWith(withTried(upstreamFailure(last, l.fail, lastTarget?.pool ? lastTarget.upstream.profile.name : undefined), tried), last);
  }
}

/** A dialect whose request forms read reasoning's signature back (OpenRouter's reasoning_details; not DeepSeek's reasoning_content). */
const signed = new WeakMap<ServedSpec, boolean>();
function carriesSignatures(spec: ServedSpec): boolean {
  let v = signed.get(spec);
  if (v === undefined) signed.set(spec, (v = /"\$signature"/.test(JSON.stringify(spec.serve.request ?? {}))));
  return v;
}

/** The failure behind an answer no target gave, for its usage record and span (`error.type`). */
const lastFailure = new WeakMap<Response, string>();
function failedWith(res: Response, e: unknown): Response {
  lastFailure.set(res, failureOf(e));
  return res;
}

function clientAt(t: Target, place: number): Client {
  let c = t.clients.get(place);
  if (!c) t.clients.set(place, (c = createClientFor(t.upstream, { ...t.options, apiKey: t.pool!.keys[place] })));
  return c;
}

/** A failure another target may not have: no connection, no first byte in time, 429, 5xx (529 overloaded included). */
function worthAnotherTry(e: unknown): boolean {
  if (e instanceof ConnectionError || e instanceof TimeoutError) return true;
  if (!(e instanceof ProviderError)) return false;
  // An error event before any content (Anthropic's overloaded_error) has no status: its retryable flag says.
  return e.status === undefined ? e.retryable : e.status === 429 || e.status >= 500;
}

function failureOf(e: unknown): string {
  if (e instanceof ProviderError) return e.status === undefined ? 'error-event' : String(e.status);
  return e instanceof TimeoutError ? 'timeout' : 'connection';
}

function withTried(res: Response, tried: string[]): Response {
  if (tried.length) res.headers.set(FALLBACKS_HEADER, tried.join(', '));
  return res;
}
