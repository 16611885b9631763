/**
 * A gateway as a standard fetch handler: requests in one spec's protocol (listen) are read with
 * that spec, sent upstream through the normal client of another (retries, timeouts, abort when
 * the caller goes away), and answered in the listen protocol, event by event. Errors come back
 * in the listen protocol's shape with the upstream status; what either side could not carry is
 * listed in a response header. docs/serving.md#gateway.
 */
import { createClientFor } from '../client/create-client.js';
import { RequestError, WireforgeError } from '../errors.js';
import { makeRedactor } from '../transport/redact.js';
import type { ClientOptions } from '../contract/unified-model.js';
import { errorResponse } from './error-body.js';
import { notServed, servesPath } from './endpoint-path.js';
import { withCors, type CorsOption } from './cors.js';
import { callerKey, sameSecret } from './caller-key.js';
import type { ServedSpec } from '../contract/serve-codec.js';
import { carriesCacheMarks } from './cache-marks.js';
import { EXPOSED_LIMITS } from './upstream-waits.js';
import { admitRequest, forwardRequest, upstreamFailure, DEFAULT_BODY_LIMIT, ERROR_SOURCE_HEADER, WARNINGS_HEADER, type FailWith, type UpstreamModel } from './gateway-engine.js';
import { createRouter, type RouterContext } from './router.js';
import type { GatewayConfig } from './gateway-config.js';
import { checkClients, clientFor, gatewayLimits, type GatewayClient } from './limits/gateway-limits.js';
import type { Limiter } from './limits/limiter.js';
import type { ServedRequest } from './served-request.js';

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
  model?: UpstreamModel;
  /** Answer browsers: preflights, and CORS headers on every answer (`true`: any origin, or a list). Off by default. */
  cors?: CorsOption;
  /** Callers by token, each with a name and its limits (docs/serving.md#limits); a token is then required. */
  clients?: GatewayClient[];
  /** Where the clients' limit counters live: this process by default; `startGateway` passes a Redis one when `redis` is set. */
  limiter?: Limiter;
}

/** The headers, limit and steps of one request: gateway-engine.ts. */
export { WARNINGS_HEADER, ERROR_SOURCE_HEADER, DEFAULT_BODY_LIMIT } from './gateway-engine.js';

/**
 * The gateway: one listen protocol in front of one upstream (`GatewayOptions`), or a config of
 * routes, targets and clients (`GatewayConfig`, docs/serving.md#gateway-for-teams), whose spec ids
 * are looked up in `specs` (node's startGateway gives the built-in ones).
 */
export function createGateway(options: GatewayOptions | GatewayConfig, context?: Partial<RouterContext>): (request: ServedRequest) => Promise<Response> {
  if ('routes' in options) return createRouter(options, { ...context, specs: context?.specs ?? {}, env: context?.env ?? processEnv() ?? {} });
  return singleRoute(options);
}

function processEnv(): Record<string, string | undefined> | undefined {
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
}

function singleRoute(options: GatewayOptions): (request: ServedRequest) => Promise<Response> {
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
  const env = processEnv();
  const envKey = upstream.endpoint.apiKeyEnv ? env?.[upstream.endpoint.apiKeyEnv] : undefined;
  const redact = makeRedactor(options.client?.apiKey, envKey, options.clientToken, ...clients.map((c) => c.token));
  // The upstream's own error type goes back only to callers of the same wire; others get the listen protocol's for the status.
  const sameWire = upstream.id === listen.adapter.id;
  const fail: FailWith = (status, message, headers = {}, source = 'gateway', type) =>
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

  async function handle(req: ServedRequest): Promise<Response> {
    if (req.method !== 'POST') return fail(405, `${req.method} is not served; send POST`);
    const path = new URL(req.url).pathname;
    if (!servesPath(listen.adapter, path)) return fail(404, notServed(listen.adapter, path));
    const key = callerKey(listen, (h) => req.headers.get(h));
    if (needsToken && key === undefined) return fail(401, `the gateway needs its token: send it in ${sendIn}`);
    const caller = clients.length ? clientFor(clients, key!) : undefined;
    if (needsToken && !caller && !(options.clientToken !== undefined && sameSecret(key!, options.clientToken))) return fail(401, `the gateway refused the token sent in ${sendIn}`);
    if (keyFromCaller && !key) return fail(401, `send your ${upstream.profile.name} key in ${sendIn}: this gateway passes it upstream`);
    const admitted = await admitRequest(listen, req, path, bodyLimit, fail);
    if (admitted instanceof Response) return admitted;
    if (keyFromCaller) redact.add?.(key, true);
    const client = shared ?? createClientFor(upstream, { ...clientOptions, apiKey: key });
    // ── limits per client token (runtime/serve/limits): refused before anything goes upstream ──
    const admission = caller && admit ? await admit(caller, admitted.decoded.stream) : undefined;
    if (admission && !admission.ok) return fail(admission.status, admission.message, { 'retry-after': String(admission.retryAfterSeconds) });
    try {
      return await forwardRequest(listen, { upstream, client, model: options.model, cacheMarks }, admitted, redact, admission);
    } catch (e) {
      admission?.done();
      return upstreamFailure(e, fail, keyFromCaller ? undefined : upstream.profile.name);
    }
  }
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

