/** Drop undefined keys; an object left empty becomes undefined so its parent drops it too. */
export function compact<T extends Record<string, unknown>>(o: T): T | undefined {
  let empty = true;
  for (const k in o) {
    if (o[k] === undefined) delete o[k];
    else empty = false;
  }
  return empty ? undefined : o;
}

/** Apply `fn` only to a value that is set. */
export function ifSet<T, R>(value: T | undefined, fn: (v: T) => R): R | undefined {
  return value === undefined ? undefined : fn(value);
}
