/**
 * Several keys for one target, taken round-robin; a key the upstream answered 429 for rests for
 * the wait the upstream asked (its `retry-after`), then comes back. Keys stay in here: callers
 * see a key's place in the pool, never the key. docs/serving.md#key-pools.
 */

/** The rest given to a key refused with 429 and no `retry-after`. */
export const DEFAULT_COOLDOWN_MS = 30_000;
/** The longest rest: a wait beyond it (an upstream's, or one told by another instance) is cut to it. */
export const MAX_COOLDOWN_MS = 10 * 60_000;

export class KeyPool {
  private next = 0;
  private readonly restUntil: number[];
  constructor(
    readonly keys: readonly string[],
    private readonly now: () => number = Date.now,
  ) {
    this.restUntil = keys.map(() => 0);
  }

  /** The next key not resting (its place in the pool), or undefined when all rest. */
  take(): number | undefined {
    const t = this.now();
    for (let i = 0; i < this.keys.length; i++) {
      const at = (this.next + i) % this.keys.length;
      if (this.restUntil[at]! <= t) {
        this.next = at + 1;
        return at;
      }
    }
    return undefined;
  }

  /** Told of each 429 here (shared-rests.ts tells the other instances). */
  onCool: ((at: number, ms: number) => void) | undefined;

  /** The key at this place got a 429: it rests for `ms` (the upstream's wait), or the default. */
  cool(at: number, ms: number | undefined): void {
    const rest = ms !== undefined && ms >= 0 ? Math.min(ms, MAX_COOLDOWN_MS) : DEFAULT_COOLDOWN_MS;
    this.restFor(at, rest);
    this.onCool?.(at, rest);
  }

  /** The key at this place rests `ms` from now, or longer if it already does (a rest told by another instance). */
  restFor(at: number, ms: number): void {
    if (!(ms >= 0)) return;
    this.restUntil[at] = Math.max(this.restUntil[at]!, this.now() + Math.min(ms, MAX_COOLDOWN_MS));
  }

  /** Until the first resting key comes back, in ms (0 when one is free). */
  wait(): number {
    return Math.max(0, Math.min(...this.restUntil) - this.now());
  }
}
