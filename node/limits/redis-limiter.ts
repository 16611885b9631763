/**
 * Limits on Redis (docs/serving.md#limits): several gateway instances share one count. Each
 * check and each update is one Lua script (EVALSHA, EVAL when the server does not have it yet),
 * so it is atomic, and uses the Redis server's clock, so instances with skewed clocks agree.
 * The rule is runtime/serve/limits/limiter.ts's, written in Lua.
 *
 * ioredis is an optional peer dependency, imported here only when `redis` is configured.
 * Commands fail at once while the connection is down (no offline queue, no retries per
 * command): then `onDown` decides, `open` (let the request in) or `closed` (503).
 */
import { randomUUID } from 'node:crypto';
import { WireforgeError } from '../../runtime/errors.js';
import type { SharedRests } from '../../runtime/serve/shared-rests.js';
import { isSet, MINUTE_MS, retryAfterSeconds, STREAM_RETRY_MS, type Acquired, type LimitedClient, type Limiter } from '../../runtime/serve/limits/limiter.js';

export interface RedisLimiterOptions {
  /** `redis://[user:password@]host:port[/db]` (or `rediss://`). */
  url: string;
  /** When Redis cannot be reached mid-run: `open` lets requests in uncounted (default), `closed` refuses them with 503. */
  onDown?: 'open' | 'closed';
  /** Key prefix (several gateways on one Redis). Default `wireforge:limits:`. */
  prefix?: string;
  /** A stream's slot is freed after this even if its gateway died without giving it back. Default 10 minutes. */
  streamLeaseMs?: number;
  /** Told once when Redis goes away and once when it is back (default: a line on stderr). Never given a URL with its password. */
  onStateChange?: (up: boolean, error?: Error) => void;
}

// KEYS: buckets (hash), stream leases (sorted set by expiry). ARGV: rpm, tpm, streams, stream?, lease, lease ms.
// Returns { ok, wait ms, reason }.
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local rpm, tpm, maxs = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local function level(field, cap)
  local v = redis.call('HMGET', KEYS[1], field, field .. 't')
  if not v[1] then return cap end
  return math.min(cap, tonumber(v[1]) + (now - tonumber(v[2])) * cap / ${MINUTE_MS})
end
local function waitfor(cap, l)
  if l >= 1 then return 0 end
  return math.ceil((1 - l) * ${MINUTE_MS} / cap)
end
local wait, reason, r = 0, '', 0
if rpm > 0 then
  r = level('r', rpm)
  if r < 1 then wait, reason = waitfor(rpm, r), 'requests' end
end
if tpm > 0 then
  local w = waitfor(tpm, level('k', tpm))
  if w > wait then wait, reason = w, 'tokens' end
end
local leased = ARGV[4] == '1' and maxs > 0
if leased then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
  if reason == '' and redis.call('ZCARD', KEYS[2]) >= maxs then wait, reason = ${STREAM_RETRY_MS}, 'streams' end
end
if reason ~= '' then return {0, wait, reason} end
if rpm > 0 then
  redis.call('HSET', KEYS[1], 'r', tostring(r - 1), 'rt', now)
  if redis.call('PTTL', KEYS[1]) < ${MINUTE_MS + 1000} then redis.call('PEXPIRE', KEYS[1], ${MINUTE_MS + 1000}) end
end
if leased then
  redis.call('ZADD', KEYS[2], now + tonumber(ARGV[6]), ARGV[5])
  redis.call('PEXPIRE', KEYS[2], tonumber(ARGV[6]))
end
return {1, 0, ''}
`;

// KEYS: buckets. ARGV: tpm, tokens. The bucket may go below zero; it is kept until refilled.
const RECORD = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local tpm, n = tonumber(ARGV[1]), tonumber(ARGV[2])
local v = redis.call('HMGET', KEYS[1], 'k', 'kt')
local l = tpm
if v[1] then l = math.min(tpm, tonumber(v[1]) + (now - tonumber(v[2])) * tpm / ${MINUTE_MS}) end
l = l - n
redis.call('HSET', KEYS[1], 'k', tostring(l), 'kt', now)
local ttl = math.ceil((tpm - l) * ${MINUTE_MS} / tpm) + 1000
if redis.call('PTTL', KEYS[1]) < ttl then redis.call('PEXPIRE', KEYS[1], ttl) end
return 1
`;

interface Scripts {
  wfAcquire(buckets: string, leases: string, ...args: (string | number)[]): Promise<[number, number, string]>;
  wfRecord(buckets: string, ...args: (string | number)[]): Promise<number>;
  zrem(key: string, member: string): Promise<number>;
  publish(channel: string, message: string): Promise<number>;
  subscribe(channel: string): Promise<unknown>;
  duplicate(override?: Record<string, unknown>): Scripts;
  quit(): Promise<unknown>;
  disconnect(): void;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  defineCommand(name: string, def: { numberOfKeys: number; lua: string }): void;
  connect(): Promise<void>;
}

/** A rest another instance told, or undefined for anything else on the channel. */
function parseRest(text: unknown): { id: string; ms: number; from: string } | undefined {
  try {
    const m = JSON.parse(String(text)) as { id?: unknown; ms?: unknown; from?: unknown };
    return typeof m.id === 'string' && typeof m.ms === 'number' && Number.isFinite(m.ms) && m.ms >= 0 && typeof m.from === 'string' ? { id: m.id, ms: m.ms, from: m.from } : undefined;
  } catch {
    return undefined;
  }
}

/** The URL as it may be shown: without its password. */
export function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'the configured Redis URL';
  }
}

export async function createRedisLimiter(options: RedisLimiterOptions): Promise<Limiter> {
  let Redis: new (url: string, options: Record<string, unknown>) => Scripts;
  try {
    const mod = (await import('ioredis')) as unknown as { Redis: typeof Redis };
    Redis = mod.Redis;
  } catch {
    throw new WireforgeError('limits on Redis (`redis` in the gateway config) need the ioredis package: install it beside wireforge (npm install ioredis)');
  }
  const shown = shownUrl(options.url);
  const onDown = options.onDown ?? 'open';
  if (onDown !== 'open' && onDown !== 'closed') throw new WireforgeError(`limitsOnRedisDown must be 'open' or 'closed', not ${JSON.stringify(onDown)}`);
  const prefix = options.prefix ?? 'wireforge:limits:';
  const leaseMs = options.streamLeaseMs ?? 10 * MINUTE_MS;
  const tell = options.onStateChange ?? ((up, e) => console.error(up ? `wireforge gateway: Redis at ${shown} is back; limits are shared again` : `wireforge gateway: Redis at ${shown} cannot be reached (${e?.message ?? 'no connection'}); limits ${onDown === 'open' ? 'are not enforced (limitsOnRedisDown: open)' : 'refuse every request with 503 (limitsOnRedisDown: closed)'} until it is back`));
  const redis = new Redis(options.url, {
    lazyConnect: true,
    // Fail each command at once while disconnected, so a request never waits on a dead Redis.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 1000,
    connectTimeout: 2000,
    // Reconnect for ever, at most a second apart.
    retryStrategy: (times: number) => Math.min(times * 100, 1000),
  });
  redis.defineCommand('wfAcquire', { numberOfKeys: 2, lua: ACQUIRE });
  redis.defineCommand('wfRecord', { numberOfKeys: 1, lua: RECORD });
  let up = true;
  let started = false;
  const down = (e: unknown) => {
    if (!up || !started) return;
    up = false;
    tell(false, e instanceof Error ? e : undefined);
  };
  redis.on('ready', () => {
    if (up) return;
    up = true;
    tell(true);
  });
  // ioredis reports connection errors as events; without a listener they are thrown.
  redis.on('error', (e) => down(e));
  try {
    await redis.connect();
  } catch (e) {
    redis.disconnect();
    // At start, a Redis that cannot be reached is a configuration error, not an outage.
    throw new WireforgeError(`the gateway cannot reach Redis at ${shown} for its limits: ${e instanceof Error ? e.message : String(e)}`);
  }
  started = true;
  const keys = (name: string) => [`${prefix}{${name}}:b`, `${prefix}{${name}}:s`] as const;
  // Key rests go to every instance by pub/sub (a message, not a stored count: a rest missed while
  // Redis is away costs an instance one 429 of its own). Our own messages come back: skipped.
  const channel = `${prefix}rests`;
  const me = randomUUID();
  let listener: Scripts | undefined;
  const rests: SharedRests = {
    tell(id, ms) {
      void redis.publish(channel, JSON.stringify({ id, ms, from: me })).catch(down);
    },
    hear(on) {
      // Its own connection (a subscriber takes no other command), subscribing each time it is ready:
      // at start, and after every reconnect, whenever Redis was away. Its errors are not the limits'
      // outage (the main connection tells that); a rest missed meanwhile costs one 429 here.
      const sub = (listener ??= redis.duplicate({ enableOfflineQueue: true, lazyConnect: false, maxRetriesPerRequest: null }));
      sub.on('error', () => {});
      sub.on('ready', () => void sub.subscribe(channel).catch(() => {}));
      sub.on('message', (_: unknown, text: unknown) => {
        const m = parseRest(text);
        if (m && m.from !== me) on(m.id, m.ms);
      });
    },
  };
  return {
    rests,
    async acquire(client: LimitedClient, call: { stream: boolean }): Promise<Acquired> {
      const { requestsPerMinute: rpm, tokensPerMinute: tpm, concurrentStreams: streams } = client.limits;
      const leased = call.stream && isSet(streams);
      const lease = leased ? randomUUID() : '';
      const [b, s] = keys(client.name);
      try {
        const [ok, wait, reason] = await redis.wfAcquire(b, s, rpm ?? 0, tpm ?? 0, streams ?? 0, leased ? '1' : '0', lease, leaseMs);
        if (!ok) return { ok: false, retryAfterSeconds: retryAfterSeconds(wait), reason: reason as Acquired['reason'] };
        return leased ? { ok: true, retryAfterSeconds: 0, lease } : { ok: true, retryAfterSeconds: 0 };
      } catch (e) {
        down(e);
        return onDown === 'open' ? { ok: true, retryAfterSeconds: 0 } : { ok: false, retryAfterSeconds: 1, reason: 'unavailable' };
      }
    },
    async release(client: LimitedClient, acquired: Acquired): Promise<void> {
      if (acquired.lease === undefined) return;
      // A slot not given back (Redis away) frees itself when its lease runs out.
      await redis.zrem(keys(client.name)[1], acquired.lease).catch(down);
    },
    async recordTokens(client: LimitedClient, n: number): Promise<void> {
      const tpm = client.limits.tokensPerMinute;
      if (!isSet(tpm) || !(n > 0)) return;
      await redis.wfRecord(keys(client.name)[0], tpm, n).then(undefined, down);
    },
    async close(): Promise<void> {
      await listener?.quit().catch(() => listener?.disconnect());
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
