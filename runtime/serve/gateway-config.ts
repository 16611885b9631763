/**
 * The gateway for teams as one config object (the CLI reads it from YAML): listen protocols on
 * their own path prefixes, client tokens, routes from a public model name or pattern to an
 * ordered list of targets, and the shared settings. Checked whole before the gateway starts:
 * every problem comes back with its JSON pointer (the CLI turns it into file:line:col), so a bad
 * config never becomes a failure at the first request. docs/serving.md#gateway-for-teams.
 */
import type { ModelListShape, ServedSpec } from '../contract/serve-codec.js';
import { WireforgeError } from '../errors.js';
import { didYouMean } from '../closest-name.js';
import type { CorsOption } from './cors.js';

export type { ModelListShape };

/** Where a target's key comes from: an environment variable, a pool of keys, or the caller's own key. */
export type KeySource = { env: string } | { keys: string[] } | 'caller';

export interface GatewayConfigListen {
  /** The protocol callers speak here: a built-in spec id, or a spec's generated exports. */
  spec: string | ServedSpec;
  /** The path prefix (`/openai`); the root when left out (one listen protocol only). */
  path?: string;
  /** The model list's shape on this prefix; default: the listen spec's `serve.models` (`false`: none). */
  models?: ModelListShape | false;
  /**
   * Dialects a request may ask for here with `wireforge: { dialect }` in its body: ids of specs
   * that extend this listen spec (docs/serving.md#dialects). None when left out.
   */
  dialects?: string[];
}


/** What the limiter reads for one client token (validated here, enforced by the limiter; 0: no limit). */
export interface GatewayConfigLimits {
  requestsPerMinute?: number;
  tokensPerMinute?: number;
  concurrentStreams?: number;
}

export interface GatewayConfigClient {
  name: string;
  /** At least 16 characters; or the environment variable that holds it. */
  token: string | { env: string };
  /** Route names (each route's `model`) this client may use; all when left out. */
  routes?: string[];
  limits?: GatewayConfigLimits;
}

export interface GatewayConfigTarget {
  /** The upstream: a built-in spec id, or a spec's generated adapter (or exports). */
  spec: string | ServedSpec['adapter'] | ServedSpec;
  /** The upstream model; the caller's when left out (useful under a pattern route). */
  model?: string;
  baseUrl?: string;
  /** Default: the upstream spec's environment variable. */
  key?: KeySource;
}

export interface GatewayConfigRoute {
  /** The public model name callers send, or a pattern with `*` (any run of characters) and `?` (one). */
  model: string;
  targets: GatewayConfigTarget[];
  /** The names a pattern route shows in model lists (each must match the pattern). */
  list?: string[];
  /**
   * A spec id that extends one of the listen protocols: its callers on that protocol are read and
   * answered in it (OpenRouter's reasoning_details, DeepSeek's reasoning_content through Chat
   * Completions). docs/serving.md#dialects.
   */
  dialect?: string;
}

export interface GatewayConfig {
  listen: string | Array<string | GatewayConfigListen>;
  clients?: GatewayConfigClient[];
  routes: GatewayConfigRoute[];
  cors?: CorsOption;
  bodyLimit?: number;
  timeoutMs?: number;
  maxRetries?: number;
  /** For the limiter: counters in Redis at this URL (in memory without it). */
  redis?: string;
  /** For the limiter: what a request gets while Redis cannot be reached. */
  limitsOnRedisDown?: 'open' | 'closed';
  /** OpenTelemetry spans, one per routed request (docs/serving.md#telemetry): `true`, or `{ name }` for the tracer's name (default `wireforge`). */
  telemetry?: boolean | { name?: string };
  /** One usage record per routed request as a JSON line on stdout (`createGateway(config, { onUsage })` takes a callback). */
  usageLog?: 'stdout';
}

/** How the config's spec ids and key variables are found. */
export interface ConfigContext {
  /** Specs by id, besides those given inline. */
  specs: Readonly<Record<string, ServedSpec | ServedSpec['adapter']>>;
  env: Readonly<Record<string, string | undefined>>;
}

export type ConfigProblemCode = 'unknown-key' | 'wrong-type' | 'missing-field' | 'bad-value' | 'unknown-spec' | 'unset-env' | 'unknown-route';

export interface ConfigProblem {
  code: ConfigProblemCode;
  /** JSON pointer into the config. */
  pointer: string;
  message: string;
  hint?: string;
}

/** A config with problems: each with its pointer; the message lists them all. */
export class GatewayConfigError extends WireforgeError {
  override name = 'GatewayConfigError';
  declare readonly problems: ConfigProblem[];
  constructor(problems: ConfigProblem[]) {
    super(`the gateway config has ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n${problems.map((p) => `  ${p.pointer || '/'} ${p.code} ${p.message}${p.hint ? `; ${p.hint}` : ''}`).join('\n')}`);
    Object.assign(this, { problems });
  }
}

/** The keys each object of the config takes (the JSON Schema in specs/gateway.schema.json lists the same; a test holds them equal). */
export const CONFIG_KEYS = {
  config: ['listen', 'clients', 'routes', 'cors', 'bodyLimit', 'timeoutMs', 'maxRetries', 'redis', 'limitsOnRedisDown', 'telemetry', 'usageLog'],
  telemetry: ['name'],
  listen: ['spec', 'path', 'models', 'dialects'],
  client: ['name', 'token', 'routes', 'limits'],
  limits: ['requestsPerMinute', 'tokensPerMinute', 'concurrentStreams'],
  route: ['model', 'targets', 'list', 'dialect'],
  target: ['spec', 'model', 'baseUrl', 'key'],
} as const;

const MODEL_SHAPES: readonly ModelListShape[] = ['openai', 'anthropic', 'gemini', 'ollama'];

type Called = NonNullable<ReturnType<typeof adapterOf>>;
/**
 * What a dialect must read as its listen protocol does (decode-request.ts): where the model is (a
 * body path, or the URL by the paths' templates) and what says a stream (a stream path, or the body).
 */
const callsOf = (a: Called) => {
  const { path, streamPath } = a.endpoint;
  const byPath = streamPath !== undefined && streamPath !== path;
  if (!a.profile.request.model) return `${path}${byPath ? ` / ${streamPath}` : ''} with the model in the path`;
  return `with the model at ${a.profile.request.model.join('.')}${byPath ? `, a stream on ${streamPath}` : ''}`;
};
const sameCalls = (a: Called, b: Called) => callsOf(a) === callsOf(b);

/** A route pattern as a regular expression: `*` any run, `?` one character, the rest literal. */
export function routePattern(model: string): RegExp | undefined {
  if (!/[*?]/.test(model)) return undefined;
  return new RegExp(`^${model.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`);
}

type Obj = Record<string, unknown>;
/** Own entries only: a spec id or variable named `constructor` or `__proto__` is not found on Object's prototype. */
export const specIn = (specs: ConfigContext['specs'], id: string) => (Object.hasOwn(specs, id) ? specs[id] : undefined);
export const envIn = (env: ConfigContext['env'], name: string) => (Object.hasOwn(env, name) && typeof env[name] === 'string' ? env[name] : undefined);
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const ptr = (base: string, key: string | number) => `${base}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;

/** Every problem of a config; none means the gateway can start. */
export function checkGatewayConfig(config: unknown, ctx: ConfigContext): ConfigProblem[] {
  const out: ConfigProblem[] = [];
  const add = (code: ConfigProblemCode, pointer: string, message: string, hint?: string) => out.push(hint ? { code, pointer, message, hint } : { code, pointer, message });
  const keys = (v: unknown, at: string, allowed: readonly string[], required: readonly string[], what: string): v is Obj => {
    if (!isObj(v)) {
      add('wrong-type', at, `${what} must be an object`);
      return false;
    }
    for (const k of Object.keys(v)) if (!allowed.includes(k)) add('unknown-key', ptr(at, k), `unknown key "${k}" in ${what}`, didYouMean(k, allowed) ?? `known: ${allowed.join(', ')}`);
    for (const k of required) if (v[k] === undefined) add('missing-field', at, `${what} needs "${k}"`);
    return true;
  };
  const count = (v: unknown, at: string, least: number) => {
    if (v !== undefined && !(typeof v === 'number' && Number.isSafeInteger(v) && v >= least)) add('wrong-type', at, `must be a whole number${least ? ` of at least ${least}` : ''}, not ${JSON.stringify(v)}`);
  };
  const text = (v: unknown, at: string): v is string => {
    if (typeof v === 'string' && v.length) return true;
    add('wrong-type', at, `must be a non-empty string, not ${JSON.stringify(v)}`);
    return false;
  };
  const envSet = (v: unknown, at: string) => {
    if (!text(v, at)) return;
    if (!envIn(ctx.env, v)) add('unset-env', at, `environment variable ${v} is not set where the gateway runs`);
  };
  const known = Object.keys(ctx.specs);
  const specAt = (v: unknown, at: string, served: boolean): void => {
    if (typeof v === 'string') {
      const found = specIn(ctx.specs, v);
      if (!found) add('unknown-spec', at, `no spec "${v}"`, didYouMean(v, known) ?? `known: ${known.join(', ')}`);
      else if (served && !('serve' in found)) add('bad-value', at, `spec "${v}" has no serve section: it cannot be a listen protocol`);
    } else if (!isObj(v) || !('id' in v || 'adapter' in v)) add('wrong-type', at, 'must be a spec id or a spec’s generated exports');
  };

  /** A listen entry's spec id, when it names a spec the config can serve. */
  const listenId = (v: unknown): string | undefined => (typeof v === 'string' ? v : isObj(v) && isObj(v.adapter) && typeof v.adapter.id === 'string' ? v.adapter.id : undefined);
  /** A dialect: a served spec that extends one of `over` (the listen specs it may answer for). */
  const dialectAt = (v: unknown, at: string, over: string[]): void => {
    if (!text(v, at)) return;
    const found = specIn(ctx.specs, v);
    if (!found) return void add('unknown-spec', at, `no spec "${v}"`, didYouMean(v, known) ?? `known: ${known.join(', ')}`);
    if (!('serve' in found)) return void add('bad-value', at, `spec "${v}" has no serve section: it cannot answer callers`);
    const base = over.find((id) => extendsSpec(ctx.specs, v, id));
    if (base) {
      // A dialect reads the listen protocol's requests: the same paths, the model in the same place.
      const [d, l] = [adapterOf(found), adapterOf(specIn(ctx.specs, base))];
      if (d && l && !sameCalls(d, l)) add('bad-value', at, `spec "${v}" extends ${base} but reads a request ${callsOf(d)}, where ${base} reads it ${callsOf(l)}: a caller of ${base} cannot be read in it`);
      return;
    }
    const chain = baseChain(ctx.specs, v);
    const dialects = known.filter((id) => over.some((l) => extendsSpec(ctx.specs, id, l) && sameCalls(adapterOf(specIn(ctx.specs, id))!, adapterOf(specIn(ctx.specs, l))!)));
    add('bad-value', at, `spec "${v}" ${chain.length ? `extends ${chain.join(' → ')}` : 'extends no spec'}, not ${over.length === 1 ? `the listen protocol ${over[0]}` : `a listen protocol of this gateway (${over.join(', ')})`}: it cannot be a dialect here`, didYouMean(v, dialects) ?? (dialects.length ? `dialects here: ${dialects.join(', ')}` : undefined));
  };

  if (!keys(config, '', CONFIG_KEYS.config, ['listen', 'routes'], 'the gateway config')) return out;
  const c = config;

  // listen: one id, or a list, each on its own path when there are several.
  const listen = typeof c.listen === 'string' ? [c.listen] : c.listen;
  if (c.listen !== undefined && !Array.isArray(listen)) add('wrong-type', '/listen', 'must be a spec id or a list of listen entries');
  else if (Array.isArray(listen)) {
    if (!listen.length) add('bad-value', '/listen', 'lists no protocol');
    const paths = new Map<string, string>();
    listen.forEach((l, i) => {
      const at = typeof c.listen === 'string' ? '/listen' : ptr('/listen', i);
      if (typeof l === 'string') return specAt(l, at, true);
      if (!keys(l, at, CONFIG_KEYS.listen, ['spec'], 'a listen entry')) return;
      specAt(l.spec, ptr(at, 'spec'), true);
      const path = l.path ?? '';
      if (typeof path !== 'string' || (path !== '' && !/^\/[^?#]*[^/]$/.test(path))) add('bad-value', ptr(at, 'path'), `must be a path prefix like "/openai" (starting with "/", not ending with one), not ${JSON.stringify(path)}`);
      else if (paths.has(path)) add('bad-value', ptr(at, 'path'), `path "${path || '/'}" is already the prefix of ${paths.get(path)}: each listen protocol needs its own`);
      else paths.set(path, at);
      if (l.models !== undefined && l.models !== false && !MODEL_SHAPES.includes(l.models as ModelListShape)) add('bad-value', ptr(at, 'models'), `takes ${MODEL_SHAPES.join(', ')} or false, not ${JSON.stringify(l.models)}`);
      if (l.dialects === undefined) return;
      if (!Array.isArray(l.dialects)) return add('wrong-type', ptr(at, 'dialects'), 'must be a list of spec ids');
      const own = listenId(l.spec);
      l.dialects.forEach((d, j) => dialectAt(d, ptr(ptr(at, 'dialects'), j), own === undefined ? [] : [own]));
    });
  }

  // routes
  const names: string[] = [];
  const listenIds = Array.isArray(listen) ? listen.map((l) => listenId(typeof l === 'string' ? l : isObj(l) ? l.spec : undefined)).filter((id): id is string => id !== undefined) : [];
  if (!Array.isArray(c.routes)) add('wrong-type', '/routes', 'must be a list of routes');
  else {
    if (!c.routes.length) add('bad-value', '/routes', 'lists no route');
    c.routes.forEach((r, i) => {
      const at = ptr('/routes', i);
      if (!keys(r, at, CONFIG_KEYS.route, ['model', 'targets'], 'a route')) return;
      if (text(r.model, ptr(at, 'model'))) {
        if (names.includes(r.model)) add('bad-value', ptr(at, 'model'), `route "${r.model}" is defined twice`);
        names.push(r.model);
      }
      if (r.list !== undefined) {
        const pattern = typeof r.model === 'string' ? routePattern(r.model) : undefined;
        if (!Array.isArray(r.list)) add('wrong-type', ptr(at, 'list'), 'must be a list of model names');
        else if (!pattern) add('bad-value', ptr(at, 'list'), 'only a pattern route lists names of its own (a named route lists its name)');
        else r.list.forEach((n, j) => void (text(n, ptr(ptr(at, 'list'), j)) && !pattern.test(n) && add('bad-value', ptr(ptr(at, 'list'), j), `"${n}" does not match the route's pattern "${String(r.model)}"`)));
      }
      if (r.dialect !== undefined) dialectAt(r.dialect, ptr(at, 'dialect'), listenIds);
      if (!Array.isArray(r.targets) || !r.targets.length) return void (r.targets !== undefined && add('wrong-type', ptr(at, 'targets'), 'must be a non-empty list of targets'));
      r.targets.forEach((t, j) => checkTarget(t, ptr(ptr(at, 'targets'), j)));
    });
  }

  function checkTarget(t: unknown, at: string): void {
    if (!keys(t, at, CONFIG_KEYS.target, ['spec'], 'a target')) return;
    specAt(t.spec, ptr(at, 'spec'), false);
    if (t.model !== undefined) text(t.model, ptr(at, 'model'));
    if (t.baseUrl !== undefined && text(t.baseUrl, ptr(at, 'baseUrl')) && !/^https?:\/\/[^/]/.test(t.baseUrl)) add('bad-value', ptr(at, 'baseUrl'), `must be an http(s) URL, not ${JSON.stringify(t.baseUrl)}`);
    const key = t.key;
    const kat = ptr(at, 'key');
    if (key === undefined) {
      // The upstream spec's own variable, as a client would read it.
      const adapter = typeof t.spec === 'string' ? adapterOf(specIn(ctx.specs, t.spec)) : isObj(t.spec) ? adapterOf(t.spec as unknown as ServedSpec) : undefined;
      const env = adapter?.endpoint.apiKeyEnv;
      if (env && !envIn(ctx.env, env)) add('unset-env', at, `the target has no key: environment variable ${env} (the spec's own) is not set`, 'set it, or give key: { env: NAME }, key: { keys: [...] } or key: caller');
    } else if (key === 'caller') {
      if (Array.isArray(c.clients) && c.clients.length) add('bad-value', kat, "a target that takes the caller's key cannot sit behind client tokens: both travel in the same header");
    } else if (isObj(key)) {
      const k = Object.keys(key);
      if (k.length !== 1 || (k[0] !== 'env' && k[0] !== 'keys')) add('bad-value', kat, 'takes { env: NAME }, { keys: [...] } or caller');
      else if (k[0] === 'env') envSet(key.env, ptr(kat, 'env'));
      else if (!Array.isArray(key.keys) || !key.keys.length) add('wrong-type', ptr(kat, 'keys'), 'must be a non-empty list of keys');
      else key.keys.forEach((v, n) => void (typeof v !== 'string' || v.length < 8 ? add('wrong-type', ptr(ptr(kat, 'keys'), n), 'must be a key (a string of at least 8 characters)') : undefined));
    } else add('wrong-type', kat, 'takes { env: NAME }, { keys: [...] } or caller');
  }

  // clients
  if (c.clients !== undefined) {
    if (!Array.isArray(c.clients)) add('wrong-type', '/clients', 'must be a list of clients');
    else {
      const clientNames = new Set<string>();
      c.clients.forEach((cl, i) => {
        const at = ptr('/clients', i);
        if (!keys(cl, at, CONFIG_KEYS.client, ['name', 'token'], 'a client')) return;
        if (text(cl.name, ptr(at, 'name'))) {
          if (clientNames.has(cl.name)) add('bad-value', ptr(at, 'name'), `client "${cl.name}" is defined twice`);
          clientNames.add(cl.name);
        }
        const tat = ptr(at, 'token');
        if (isObj(cl.token)) {
          if (keys(cl.token, tat, ['env'], ['env'], 'a token source')) envSet(cl.token.env, ptr(tat, 'env'));
          const v = typeof cl.token.env === 'string' ? envIn(ctx.env, cl.token.env) : undefined;
          if (v && v.length < 16) add('bad-value', ptr(tat, 'env'), `the token in ${String(cl.token.env)} is shorter than 16 characters`);
        } else if (typeof cl.token !== 'string' || cl.token.length < 16) add('bad-value', tat, 'must be a token of at least 16 characters, or { env: NAME }');
        if (cl.routes !== undefined) {
          if (!Array.isArray(cl.routes)) add('wrong-type', ptr(at, 'routes'), 'must be a list of route names');
          else cl.routes.forEach((n, j) => void (typeof n !== 'string' || !names.includes(n) ? add('unknown-route', ptr(ptr(at, 'routes'), j), `no route "${String(n)}"`, didYouMean(String(n), names) ?? `routes: ${names.join(', ')}`) : undefined));
        }
        if (cl.limits !== undefined && keys(cl.limits, ptr(at, 'limits'), CONFIG_KEYS.limits, [], 'limits')) {
          for (const k of CONFIG_KEYS.limits) count(cl.limits[k], ptr(ptr(at, 'limits'), k), 0);
        }
      });
    }
  }

  // shared settings
  if (c.cors !== undefined && typeof c.cors !== 'boolean' && typeof c.cors !== 'string' && !(Array.isArray(c.cors) && c.cors.every((o) => typeof o === 'string'))) add('wrong-type', '/cors', 'takes true (any origin) or a list of origins');
  count(c.bodyLimit, '/bodyLimit', 1);
  count(c.timeoutMs, '/timeoutMs', 1);
  count(c.maxRetries, '/maxRetries', 0);
  if (c.redis !== undefined && text(c.redis, '/redis') && !/^rediss?:\/\//.test(c.redis)) add('bad-value', '/redis', 'must be a redis:// or rediss:// URL');
  if (c.limitsOnRedisDown !== undefined && c.limitsOnRedisDown !== 'open' && c.limitsOnRedisDown !== 'closed') add('bad-value', '/limitsOnRedisDown', `takes open or closed, not ${JSON.stringify(c.limitsOnRedisDown)}`);
  if (c.telemetry !== undefined && typeof c.telemetry !== 'boolean' && keys(c.telemetry, '/telemetry', CONFIG_KEYS.telemetry, [], 'telemetry') && c.telemetry.name !== undefined) text(c.telemetry.name, '/telemetry/name');
  if (c.usageLog !== undefined && c.usageLog !== 'stdout') add('bad-value', '/usageLog', `takes stdout, not ${JSON.stringify(c.usageLog)}`);
  return out;
}

/** The specs `id` extends, nearest first (a cycle stops at the first repeat). */
function baseChain(specs: ConfigContext['specs'], id: string): string[] {
  const out: string[] = [];
  for (let at = specIn(specs, id); at && 'extends' in at && typeof at.extends === 'string' && !out.includes(at.extends); at = specIn(specs, at.extends)) out.push(at.extends);
  return out;
}

/** Spec `id` extends `base`, directly or through its bases: a dialect of it (docs/serving.md#dialects). */
export function extendsSpec(specs: ConfigContext['specs'], id: string, base: string): boolean {
  return baseChain(specs, id).includes(base);
}

/** A spec's adapter, whether given as its adapter or as its generated exports. */
export function adapterOf(spec: ServedSpec | ServedSpec['adapter'] | undefined): ServedSpec['adapter'] | undefined {
  if (!spec) return undefined;
  return 'adapter' in spec ? spec.adapter : spec;
}
