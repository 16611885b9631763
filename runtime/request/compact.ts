/**
 * A wire object, or undefined when none of its values is set (so its parent leaves it out).
 * Unset keys stay as undefined: JSON.stringify leaves them out, and deleting them would slow
 * the object down.
 */
export const compact = <T extends Record<string, unknown>>(o: T): T | undefined => {
  for (const k in o) if (o[k] !== undefined) return o;
  return undefined;
};

/** Apply `fn` only to a value that is set. */
export const ifSet = <T, R>(value: T | undefined, fn: (v: T) => R): R | undefined => {
  return value === undefined ? undefined : fn(value);
};

/**
 * `o` without `keys`: an overlay's data is its base's less the keys the overlay removes (a key
 * set to undefined would still be one, to a strict type and to a loop over a map's entries).
 */
export const omit = <T extends object, K extends keyof T>(o: T, ...keys: K[]): Omit<T, K> => {
  const out = { ...o };
  for (const k of keys) delete out[k];
  return out;
};
