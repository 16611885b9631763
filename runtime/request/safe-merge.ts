/**
 * Merging user objects (providerOptions, headers, defaults) into ours. Keys that could reach a
 * prototype are never copied, and every result is a fresh plain object.
 */
import { isArray, isObject, keys } from '../wire/read-path.js';

/** Keys never copied from user or wire objects (they could reach a prototype): import this set, do not repeat it. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

export const isPlainObject = (v: unknown): v is Record<string, unknown> => {
  if (!isObject(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/** A deep copy of `v` without forbidden keys. */
export const sanitize = (v: unknown): unknown => {
  if (isArray(v)) return v.map(sanitize);
  if (!isPlainObject(v)) return v;
  const out: Record<string, unknown> = {};
  for (const k of keys(v)) if (!FORBIDDEN_KEYS.has(k)) out[k] = sanitize(v[k]);
  return out;
};

/**
 * `source` into `target`, key by key: plain objects merge (copied, so the profile's own objects
 * are never written through later); other values replace, except when `fill`, where a value the
 * target already has stays (`onKept` hears of it).
 */
export const mergeInto = (target: Record<string, unknown>, source: Record<string, unknown>, fill: boolean, prefix = '', onKept?: (path: string) => void): void => {
  for (const k of keys(source)) {
    const v = source[k];
    if (v === undefined || FORBIDDEN_KEYS.has(k)) continue;
    const t = target[k];
    if (isPlainObject(v) && (t === undefined || isPlainObject(t) || !fill)) mergeInto(isPlainObject(t) ? t : (target[k] = {}), v, fill, `${prefix}${k}.`, onKept);
    else if (t === undefined || !fill) target[k] = v;
    else onKept?.(`${prefix}${k}`);
  }
};
