/**
 * Limits per client token (docs/serving.md#limits): requests per minute, tokens per minute
 * (from the usage each response reports) and concurrent streams. The gateway asks a Limiter
 * before it calls upstream; the in-memory one is the default, a Redis one (node/limits) shares
 * the counts between gateway instances. Both follow the same rule, written out here once.
 *
 * The rule: a per-minute limit L is a bucket of L that refills continuously at L per 60 s. A
 * request takes 1 from the requests bucket; reported tokens are taken from the tokens bucket
 * after the answer (it may go below zero: the usage is only known then). A request is let in
 * when each bucket holds at least 1; else the wait is the time until it does. No window edges:
 * L requests at once, then one more every 60/L seconds.
 */
import type { SharedRests } from '../shared-rests.js';

export interface ClientLimits {
  requestsPerMinute?: number;
  tokensPerMinute?: number;
  concurrentStreams?: number;
}

/** A caller of the gateway as the limiter knows it: its name (the counters' key) and limits. */
export interface LimitedClient {
  name: string;
  limits: ClientLimits;
}

export interface Acquired {
  ok: boolean;
  /** When refused: seconds until a retry can succeed (at least 1). */
  retryAfterSeconds: number;
  /** Which limit refused it; `unavailable` when the counters could not be reached (Redis down, policy `closed`). */
  reason?: 'requests' | 'tokens' | 'streams' | 'unavailable';
  /** A stream's slot, handed back to release(). */
  lease?: string;
}

export interface Limiter {
  acquire(client: LimitedClient, call: { stream: boolean }): Promise<Acquired>;
  /** Gives back a stream's slot (a no-op for a blocking request). */
  release(client: LimitedClient, acquired: Acquired): Promise<void>;
  /** Counts the tokens an answer reported against the client's tokens per minute. */
  recordTokens(client: LimitedClient, n: number): Promise<void>;
  close?(): Promise<void>;
  /** Key rests shared with the other instances on the same store (Redis's limiter has them). */
  rests?: SharedRests;
}

export const MINUTE_MS = 60_000;
/** The retry-after of a refusal by concurrent streams: when one ends is not known. */
export const STREAM_RETRY_MS = 1_000;

/** A bucket of `limit` last at `level` at time `at` (ms), refilled to `now`. */
export function refilled(limit: number, level: number | undefined, at: number | undefined, now: number): number {
  if (level === undefined || at === undefined) return limit;
  return Math.min(limit, level + ((now - at) * limit) / MINUTE_MS);
}

/** Ms until a bucket of `limit` at `level` holds 1. */
export function waitFor(limit: number, level: number): number {
  return level >= 1 ? 0 : Math.ceil(((1 - level) * MINUTE_MS) / limit);
}

export const retryAfterSeconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));

/** A limit is set when it is a positive number; absent or 0 means none. */
export const isSet = (n: number | undefined): n is number => n !== undefined && n > 0;
