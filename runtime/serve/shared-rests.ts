/**
 * Key rests told between gateway instances: when a pool's key gets a 429 in one instance, every
 * instance on the same store rests it (node/limits: Redis pub/sub), so each does not spend a
 * request of its own to learn it. A key is told by a fingerprint (a truncated SHA-256 of its
 * target and it), never by itself. docs/serving.md#key-pools.
 */
import type { KeyPool } from './key-pool.js';

export interface SharedRests {
  /** Tells the other instances: the key with this fingerprint rests `ms` from now. */
  tell(id: string, ms: number): void;
  /** Hears what the other instances tell. */
  hear(on: (id: string, ms: number) => void): void;
}

/** A key's fingerprint in its target (`scope`): 16 hex digits of SHA-256 over a fixed label, the scope and the key. */
export async function keyFingerprint(scope: string, key: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`wireforge key rest\n${scope}\n${key}`));
  return [...new Uint8Array(digest, 0, 8)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** A target's key pool, and what names the target the same in every instance (spec, base URL, model). */
export interface SharedPool {
  pool: KeyPool;
  scope: string;
}

/**
 * Wires these pools to the shared rests: a 429 here is told, and a rest told elsewhere rests the
 * key here too — in the same target only, as a pool rests its keys (upstream limits are per model).
 */
export function shareRests(pools: readonly SharedPool[], rests: SharedRests): void {
  const places = new Map<string, Array<[KeyPool, number]>>();
  const ids = Promise.all(
    pools.map(async ({ pool, scope }) => {
      const own = await Promise.all(pool.keys.map((k) => keyFingerprint(scope, k)));
      own.forEach((id, at) => places.set(id, [...(places.get(id) ?? []), [pool, at]]));
      return own;
    }),
  );
  pools.forEach(({ pool }, i) => {
    pool.onCool = (at, ms) => void ids.then((all) => rests.tell(all[i]![at]!, ms));
  });
  // A rest heard before this instance's fingerprints are made waits for them.
  rests.hear((id, ms) => {
    void ids.then(() => {
      for (const [pool, at] of places.get(id) ?? []) pool.restFor(at, ms);
    });
  });
}
