/**
 * The default Limiter: counters in this process (one gateway instance, nothing to install).
 * The rule is limiter.ts's; entries are per client name, so memory is bounded by the clients.
 */
import { isSet, refilled, retryAfterSeconds, STREAM_RETRY_MS, waitFor, type Acquired, type LimitedClient, type Limiter } from './limiter.js';

interface Counters {
  requests?: number;
  requestsAt?: number;
  tokens?: number;
  tokensAt?: number;
  streams: number;
}

export function createMemoryLimiter(now: () => number = Date.now): Limiter {
  const counters = new Map<string, Counters>();
  const of = (name: string): Counters => {
    let c = counters.get(name);
    if (!c) counters.set(name, (c = { streams: 0 }));
    return c;
  };
  let leases = 0;
  return {
    async acquire(client: LimitedClient, call: { stream: boolean }): Promise<Acquired> {
      const { requestsPerMinute: rpm, tokensPerMinute: tpm, concurrentStreams: streams } = client.limits;
      const c = of(client.name);
      const t = now();
      let wait = 0;
      let reason: Acquired['reason'];
      const requests = isSet(rpm) ? refilled(rpm, c.requests, c.requestsAt, t) : 0;
      if (isSet(rpm) && requests < 1) [wait, reason] = [waitFor(rpm, requests), 'requests'];
      if (isSet(tpm)) {
        const w = waitFor(tpm, refilled(tpm, c.tokens, c.tokensAt, t));
        if (w > wait) [wait, reason] = [w, 'tokens'];
      }
      if (call.stream && isSet(streams) && c.streams >= streams && !reason) [wait, reason] = [STREAM_RETRY_MS, 'streams'];
      if (reason) return { ok: false, retryAfterSeconds: retryAfterSeconds(wait), reason };
      if (isSet(rpm)) [c.requests, c.requestsAt] = [requests - 1, t];
      if (!call.stream || !isSet(streams)) return { ok: true, retryAfterSeconds: 0 };
      c.streams++;
      return { ok: true, retryAfterSeconds: 0, lease: `m${++leases}` };
    },
    async release(client: LimitedClient, acquired: Acquired): Promise<void> {
      if (acquired.lease === undefined) return;
      const c = of(client.name);
      c.streams = Math.max(0, c.streams - 1);
    },
    async recordTokens(client: LimitedClient, n: number): Promise<void> {
      const tpm = client.limits.tokensPerMinute;
      if (!isSet(tpm) || !(n > 0)) return;
      const c = of(client.name);
      const t = now();
      [c.tokens, c.tokensAt] = [refilled(tpm, c.tokens, c.tokensAt, t) - n, t];
    },
  };
}

