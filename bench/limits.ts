/**
 * The cost of a limit check per request (docs/serving.md#limits): the gateway's acquire() for a
 * client with a requests-per-minute limit (set high: every check is let in, as most are), in
 * memory and on a real redis-server on 127.0.0.1 (one Lua script per check), in the same
 * process and run. Sequential (each check waits for the one before: its latency) and with 32 in
 * flight (what one gateway under load pays per request). Blocks of each side alternate.
 */
import { createMemoryLimiter } from '../runtime/serve/limits/memory-limiter.js';
import type { LimitedClient, Limiter } from '../runtime/serve/limits/limiter.js';
import { createRedisLimiter } from '../node/limits/redis-limiter.js';
import { startRedisServer } from '../test/helpers/redis-server.js';

export interface LimitsJob {
  mode: 'limits';
  /** Checks per timed block. */
  checks: number;
  rounds: number;
}

export interface LimitsRow {
  ok: boolean;
  /** µs per check, median over rounds: sequential, and with 32 in flight. */
  memory: number;
  redis: number;
  memoryConcurrent: number;
  redisConcurrent: number;
  checks: number;
  rounds: number;
  error?: string;
}

const IN_FLIGHT = 32;

async function block(limiter: Limiter, client: LimitedClient, checks: number, inFlight: number): Promise<number> {
  const t0 = performance.now();
  let refused = 0;
  let next = 0;
  const lane = async () => {
    while (next < checks) {
      next++;
      if (!(await limiter.acquire(client, { stream: false })).ok) refused++;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  const us = ((performance.now() - t0) * 1000) / checks;
  if (refused) throw new Error(`${refused} checks refused: the bench limit is too low`);
  return us;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

export async function limitsBench(job: LimitsJob): Promise<LimitsRow> {
  const server = await startRedisServer();
  let redis: Limiter | undefined;
  try {
    redis = await createRedisLimiter({ url: server.url, onDown: 'closed', onStateChange: () => {} });
    const memory = createMemoryLimiter();
    const client: LimitedClient = { name: 'bench', limits: { requestsPerMinute: 1_000_000_000 } };
    const times = { memory: [] as number[], redis: [] as number[], memoryConcurrent: [] as number[], redisConcurrent: [] as number[] };
    // Warm-up: the script loaded (EVALSHA after the first EVAL), both paths compiled.
    await block(redis, client, 200, 1);
    await block(memory, client, 200, 1);
    for (let r = 0; r < job.rounds; r++) {
      const first = r % 2 === 0;
      for (const side of first ? (['memory', 'redis'] as const) : (['redis', 'memory'] as const)) {
        const l = side === 'memory' ? memory : redis;
        times[side].push(await block(l, client, job.checks, 1));
        times[`${side}Concurrent`].push(await block(l, client, job.checks, IN_FLIGHT));
      }
    }
    return { ok: true, memory: median(times.memory), redis: median(times.redis), memoryConcurrent: median(times.memoryConcurrent), redisConcurrent: median(times.redisConcurrent), checks: job.checks, rounds: job.rounds };
  } finally {
    await redis?.close?.();
    await server.close();
  }
}
