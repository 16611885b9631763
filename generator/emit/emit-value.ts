/**
 * Plain data (a profile) as a TypeScript expression, and an overlay's data as its differences
 * over the base's: equal parts are the base's own (`{ ...openaiChat.profile, id: 'groq' }`).
 */
import { IDENT, key, lit } from './code.js';

export function valueExpr(v: unknown): string {
  if (v === undefined) return 'undefined';
  if (Array.isArray(v)) return `[${v.map(valueExpr).join(', ')}]`;
  if (isPlainObject(v)) {
    const entries = Object.entries(v).filter(([, x]) => x !== undefined);
    return entries.length ? `{ ${entries.map(([k, x]) => `${key(k)}: ${valueExpr(x)}`).join(', ')} }` : '{}';
  }
  return lit(v);
}

/** `cur` written as `baseRef` where equal, as a spread of it with the changed keys where both are objects. */
export function diffExpr(baseRef: string, base: unknown, cur: unknown): string {
  if (deepEqual(base, cur)) return baseRef;
  if (!isPlainObject(base) || !isPlainObject(cur)) return valueExpr(cur);
  const removed = Object.keys(base).filter((k) => base[k] !== undefined && cur[k] === undefined);
  const changed: string[] = [];
  for (const [k, v] of Object.entries(cur)) {
    if (v === undefined || deepEqual(base[k], v)) continue;
    changed.push(`${key(k)}: ${base[k] === undefined ? valueExpr(v) : diffExpr(member(baseRef, k), base[k], v)}`);
  }
  // Keys the overlay removes are left out of the base's object, not the rest of it copied.
  const from = removed.length ? `omit(${[baseRef, ...removed.map(lit)].join(', ')})` : baseRef;
  const spread = changed.length ? `{ ...${from}, ${changed.join(', ')} }` : from;
  // A small object is clearer written out than as its base's with most keys changed (another
  // variant of a union, a mapped param become a dropped one, among them).
  const whole = valueExpr(cur);
  return whole.length <= spread.length ? whole : spread;
}

export function member(ref: string, k: string): string {
  return IDENT.test(k) ? `${ref}.${k}` : `${ref}[${lit(k)}]`;
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    return ka.length === kb.length && ka.every((k) => deepEqual(a[k], b[k]));
  }
  return false;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
