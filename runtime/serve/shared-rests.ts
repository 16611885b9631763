/**
 * Key rests told between gateway instances: when a pool's key gets a 429 in one instance, every
 * instance on the same store rests it (node/limits: Redis pub/sub), so each does not spend a
 * request of its own to learn it. A key is told by a fingerprint (a truncated SHA-256 of it),
 * never by itself. docs/serving.md#key-pools.
 */
import type { KeyPool } from './key-pool.js';

export interface SharedRests {
  /** Tells the other instances: the key with this fingerprint rests `ms` from now. */
  tell(id: string, ms: number): void;
  /** Hears what the other instances tell. */
  hear(on: (id: string, ms: number) => void): void;
}

/** A key's fingerprint: 16 hex digits of SHA-256 over a fixed label and the key. */
export async function keyFingerprint(key: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`wireforge key rest\n${key}`));
  return [...new Uint8Array(digest, 0, 8)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Wires these pools to the shared rests: a 429 here is told, and a rest told elsewhere rests the key here too. */
export function shareRests(pools: readonly KeyPool[], rests: SharedRests): void {
  const places = new Map<string, Array<[KeyPool, number]>>();
  const ids = Promise.all(
    pools.map(async (pool) => {
      const own = await Promise.all(pool.keys.map(keyFingerprint));
      own.forEach((id, at) => places.set(id, [...(places.get(id) ?? []), [pool, at]]));
      return own;
    }),
  );
  pools.forEach((pool, i) => {
    pool.onCool = (at, ms) => void ids.then((all) => rests.tell(all[i]![at]!, ms));
  });
  rests.hear((id, ms) => {
    for (const [pool, at] of places.get(id) ?? []) pool.restFor(at, ms);
  });
}
