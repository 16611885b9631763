/**
 * The gateway's side of limits: which client a token is, and an admission per request that
 * counts its tokens and gives its stream slot back once (docs/serving.md#limits).
 */
import { WireforgeError } from '../../errors.js';
import type { ChatResponse, StreamEvent, Usage } from '../../contract/unified-model.js';
import { sameSecret } from '../caller-key.js';
import type { ClientLimits, LimitedClient, Limiter } from './limiter.js';
import { createMemoryLimiter } from './memory-limiter.js';

/** A caller of the gateway: a name (in counters and usage records, never the token), its token, its limits. */
export interface GatewayClient {
  name: string;
  /** What the caller sends in the listen protocol's auth header; at least 16 characters. */
  token: string;
  limits?: ClientLimits;
}

export interface Admission {
  ok: boolean;
  retryAfterSeconds: number;
  /** The refusal's status and message (429, or 503 when the counters cannot be reached and the policy is `closed`). */
  status: number;
  message: string;
  /** Counts the usage an answer reported. */
  usage(u: Usage | null | undefined): void;
  /** The request is over (answered, failed or cancelled): its stream slot goes back. Once only. */
  done(): void;
  /** For telemetry (serve/gateway-telemetry.ts): what the answer says (a stream's start, then its finish). */
  answered?(r: Partial<Pick<ChatResponse, 'id' | 'model' | 'finishReason'>>): void;
  /** For telemetry: the answer failed after it started (mid-stream). */
  failed?(e: unknown): void;
}

const LIMIT_FIELDS = ['requestsPerMinute', 'tokensPerMinute', 'concurrentStreams'] as const;

export function checkClients(clients: readonly GatewayClient[], provider: string): void {
  const names = new Set<string>();
  clients.forEach((c, i) => {
    const at = `clients[${i}]`;
    if (typeof c.name !== 'string' || !c.name) throw new WireforgeError(`${at}.name: each client needs a name`, { provider });
    if (names.has(c.name)) throw new WireforgeError(`${at}.name: "${c.name}" is already the name of another client`, { provider });
    names.add(c.name);
    if (typeof c.token !== 'string' || c.token.length < 16) throw new WireforgeError(`${at}.token: the token of client "${c.name}" must be at least 16 characters`, { provider });
    for (const f of LIMIT_FIELDS) {
      const n = c.limits?.[f];
      if (n !== undefined && !(Number.isInteger(n) && n >= 0)) throw new WireforgeError(`${at}.limits.${f}: must be a whole number ≥ 0 (0: no limit), not ${JSON.stringify(n)}`, { provider });
    }
  });
}

/** The client whose token this is; every token is compared, so the time does not tell which matched. */
export function clientFor(clients: readonly GatewayClient[], key: string): GatewayClient | undefined {
  let found: GatewayClient | undefined;
  for (const c of clients) if (sameSecret(key, c.token) && !found) found = c;
  return found;
}

const LIMIT_NAMES = { requests: 'requests per minute', tokens: 'tokens per minute', streams: 'concurrent streams' } as const;

export function gatewayLimits(limiter: Limiter = createMemoryLimiter()) {
  return async function admit(client: GatewayClient, stream: boolean): Promise<Admission | undefined> {
    if (!client.limits) return undefined;
    const limited: LimitedClient = { name: client.name, limits: client.limits };
    const got = await limiter.acquire(limited, { stream });
    let over = false;
    const admission: Admission = {
      ok: got.ok,
      retryAfterSeconds: got.retryAfterSeconds,
      status: got.reason === 'unavailable' ? 503 : 429,
      message:
        got.reason === 'unavailable'
          ? 'the gateway cannot reach its limit counters; try again shortly'
          : `client "${client.name}" is over its ${got.reason ? LIMIT_NAMES[got.reason] : 'limit'}; retry after ${got.retryAfterSeconds} s`,
      usage(u) {
        const n = u ? (u.totalTokens ?? u.inputTokens + u.outputTokens) : 0;
        // Counting must not fail the answer; a lost count is the limiter's to report.
        if (n > 0) limiter.recordTokens(limited, n).catch(() => {});
      },
      done() {
        if (over) return;
        over = true;
        if (got.lease !== undefined) limiter.release(limited, got).catch(() => {});
      },
    };
    return admission;
  };
}

/** A stream's events, its usage counted and its slot given back when it ends or fails (only for a limited client). */
export function metered(events: AsyncIterator<StreamEvent>, admission: Admission): AsyncIterator<StreamEvent> {
  let usage: Usage | null = null;
  return {
    async next() {
      try {
        const r = await events.next();
        if (r.done) {
          admission.usage(usage);
          admission.done();
        } else if (r.value.type === 'finish' || r.value.type === 'usage') {
          usage = r.value.usage ?? usage;
          if (r.value.type === 'finish') admission.answered?.({ finishReason: r.value.finishReason });
        }
        return r;
      } catch (e) {
        admission.failed?.(e);
        admission.usage(usage);
        admission.done();
        throw e;
      }
    },
  };
}
