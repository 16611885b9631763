/**
 * `startGateway`: the gateway's fetch handler on node:http (the CLI's `wireforge gateway`). A
 * gateway that holds an upstream key lets no one use it without a credential of their own: on
 * an address other than loopback it needs a client token, or an explicit `insecure`.
 */
import { adapters } from '../generated/index.js';
import { bases, serves } from '../generated/serve.js';
import { checkGatewayConfig, GatewayConfigError, type GatewayConfig } from '../runtime/serve/gateway-config.js';
import type { Limiter } from '../runtime/serve/limits/limiter.js';
import type { RouterContext } from '../runtime/serve/router.js';
import { createGateway, DEFAULT_BODY_LIMIT, type GatewayOptions } from '../runtime/serve/gateway.js';
import { ERROR_SOURCE_HEADER } from '../runtime/serve/gateway-engine.js';
import { byListenPrefix } from '../runtime/serve/listen-prefix.js';
import type { CorsOption } from '../runtime/serve/cors.js';
import { errorResponse } from '../runtime/serve/error-body.js';
import { withCors } from '../runtime/serve/cors.js';
import type { ServedSpec } from '../runtime/contract/serve-codec.js';
import { WireforgeError } from '../runtime/errors.js';
import { listen, type Listening, type ListenOptions } from './listen.js';
import { createNodeFetch } from './http-fetch.js';
import { servedSpec } from './mock-server.js';

export interface GatewayServerOptions extends Omit<GatewayOptions, 'listen' | 'upstream'>, Omit<ListenOptions, 'tooLarge' | 'served'> {
  listen: string | ServedSpec;
  upstream: string | ServedSpec['adapter'];
  /** Serve on a non-loopback address without a client token (anyone who reaches it spends your key). */
  insecure?: boolean;
  /** Keep the clients' limit counters in this Redis (`redis://host:port`), shared by every gateway on it; ioredis must be installed. */
  redis?: string;
  /** When Redis is lost mid-run: `open` lets requests in uncounted (default), `closed` refuses them with 503 (docs/serving.md#limits). */
  limitsOnRedisDown?: 'open' | 'closed';
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/;

/** A gateway config (docs/serving.md#gateway-for-teams) on node:http. */
export interface GatewayConfigServerOptions extends GatewayConfig, Omit<ListenOptions, 'tooLarge' | 'bodyLimit' | 'served'> {
  /** Specs besides the built-in ones, by id (a project's own generated modules). */
  specs?: Record<string, ServedSpec | ServedSpec['adapter']>;
  /** Serve on a non-loopback address with no client tokens (anyone who reaches it spends your keys). */
  insecure?: boolean;
  /** The clients' limit counters when `redis` is not set: this process's by default. */
  limiter?: Limiter;
  /** The tracer for the gateway's spans (docs/serving.md#telemetry); turns them on. */
  tracer?: RouterContext['tracer'];
  /** Called with each routed request's usage record. */
  onUsage?: RouterContext['onUsage'];
}

/** The built-in specs by id: with their serve section when they have one (any can be a target; those can listen too). */
export function builtInSpecs(): Record<string, ServedSpec | ServedSpec['adapter']> {
  const out: Record<string, ServedSpec | ServedSpec['adapter']> = {};
  for (const [id, adapter] of Object.entries(adapters as Record<string, ServedSpec['adapter']>)) {
    const serve = (serves as Record<string, ServedSpec['serve'] | undefined>)[id];
    const base = Object.hasOwn(bases, id) ? bases[id] : undefined;
    out[id] = serve ? { adapter, serve, ...(base ? { extends: base } : {}) } : adapter;
  }
  return out;
}

export async function startGateway(options: GatewayServerOptions | GatewayConfigServerOptions): Promise<Listening> {
  if ('routes' in options) return startRouted(options);
  const host = options.host ?? '127.0.0.1';
  if (!LOOPBACK.test(host) && !options.clientToken && !options.clients?.length && options.upstreamKey !== 'caller' && !options.insecure) {
    throw new WireforgeError(`the gateway would serve ${host} with your upstream key and no client token: set clientToken (--token), or insecure (--insecure) if that is what you want`);
  }
  const spec = servedSpec(options.listen);
  const upstream = typeof options.upstream === 'string' ? (adapters as Record<string, ServedSpec['adapter'] | undefined>)[options.upstream] : options.upstream;
  if (!upstream) throw new WireforgeError(`no built-in spec "${String(options.upstream)}" (known: ${Object.keys(adapters).join(', ')})`);
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  // ── limits on Redis: ioredis is loaded only when `redis` is set ──
  const limiter = options.redis ? await (await import('./limits/redis-limiter.js')).createRedisLimiter({ url: options.redis, onDown: options.limitsOnRedisDown }) : options.limiter;
  // Upstream over node:http unless the options bring a fetch of their own (http-fetch.ts).
  const upstreamFetch = options.client?.fetch ? undefined : createNodeFetch();
  let handler;
  try {
    handler = createGateway({ ...options, listen: spec, upstream, bodyLimit, limiter, ...(upstreamFetch ? { client: { ...options.client, fetch: upstreamFetch } } : {}) });
  } catch (e) {
    upstreamFetch?.close();
    await limiter?.close?.();
    throw e;
  }
  const tooLarge = tooLargeAnswer([{ prefix: '', spec }], bodyLimit, options.cors);
  const served = await listen(handler, { ...options, host, bodyLimit, tooLarge, served: true });
  return { url: served.url, close: async () => (await served.close(), upstreamFetch?.close(), await limiter?.close?.()) };
}

async function startRouted(options: GatewayConfigServerOptions): Promise<Listening> {
  const { specs: own, insecure, host = '127.0.0.1', port, requestTimeoutMs, limiter: given, tracer, onUsage, ...config } = options;
  const specs = { ...builtInSpecs(), ...own };
  // The config first: a config with problems says so before anything connects or listens.
  const problems = checkGatewayConfig(config, { specs, env: process.env });
  if (problems.length) throw new GatewayConfigError(problems);
  // Only a gateway that holds a key needs client tokens beyond loopback (every target `key: caller` holds none).
  const holdsKey = config.routes.some((r) => r.targets.some((t) => t.key !== 'caller'));
  if (!LOOPBACK.test(host) && holdsKey && !config.clients?.length && !insecure) {
    throw new WireforgeError(`the gateway would serve ${host} with your upstream keys and no client tokens: add clients to the config, or insecure (--insecure) if that is what you want`);
  }
  // ── limits on Redis: ioredis is loaded only when `redis` is set ──
  const limiter = config.redis ? await (await import('./limits/redis-limiter.js')).createRedisLimiter({ url: config.redis, onDown: config.limitsOnRedisDown }) : given;
  const upstreamFetch = createNodeFetch();
  const handler = createGateway(config, { specs, fetch: upstreamFetch, ...(limiter ? { limiter } : {}), ...(tracer ? { tracer } : {}), ...(onUsage ? { onUsage } : {}) });
  const bodyLimit = config.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const listens = (typeof config.listen === 'string' ? [config.listen] : config.listen).map((l) => {
    const entry = typeof l === 'string' ? { spec: l } : l;
    return { prefix: entry.path ?? '', spec: servedSpec(typeof entry.spec === 'string' ? (specs[entry.spec] as ServedSpec) : entry.spec) };
  });
  const tooLarge = tooLargeAnswer(listens, bodyLimit, config.cors);
  const served = await listen(handler, { host, bodyLimit, tooLarge, served: true, ...(port !== undefined ? { port } : {}), ...(requestTimeoutMs !== undefined ? { requestTimeoutMs } : {}) });
  return { url: served.url, close: async () => (await served.close(), upstreamFetch.close(), await limiter?.close?.()) };
}

/**
 * The answer to a body over the limit, made outside the handler (the body is never read): in the
 * shape of the listen protocol whose prefix the path has, marked as the gateway's own as every
 * error the handler answers is, with the CORS headers the handler would add.
 */
function tooLargeAnswer(listens: ReadonlyArray<{ prefix: string; spec: ServedSpec }>, bodyLimit: number, cors: CorsOption | undefined): (request: Request) => Promise<Response> {
  const message = `the request body is too large (the gateway takes up to ${bodyLimit} bytes)`;
  const answers = listens.map(({ prefix, spec }) => ({ prefix, answer: withCors(async () => errorResponse(spec.adapter, spec.serve, { status: 413, message }, { [ERROR_SOURCE_HEADER]: 'gateway' }), cors, [spec.adapter.requestIdHeader, ERROR_SOURCE_HEADER]) }));
  // The entry the router would give the path.
  const answerFor = byListenPrefix(answers);
  return async (request) => answerFor(new URL(request.url).pathname).answer(request);
}
