/** Reads a wire path from untrusted data: anything missing or of the wrong kind is undefined. */
import type { WirePath } from '../contract/profile.js';

/** A JSON object: not null, not an array. */
export const isObject = (v: unknown): v is Record<string, unknown> => {
  return typeof v === 'object' && v !== null && !isArray(v);
};

/*
 * The two tests the runtime makes most, shared under short names: written out at each use they
 * cost the budgeted core bundle (README, "Bundles") a few hundred bytes.
 */
export const isArray = Array.isArray;
export const isString = (v: unknown): v is string => typeof v === 'string';
/** Object.keys, .values, .entries and .hasOwn, and Number.isInteger, for the same reason. */
export const { keys, values, entries, hasOwn } = Object;
export const { isInteger } = Number;

export const readPath = (data: unknown, path: WirePath): unknown => {
  let v = data;
  for (let i = 0; i < path.length; i++) {
    if (typeof v !== 'object' || v === null) return undefined;
    v = (v as Record<string | number, unknown>)[path[i]!];
  }
  return v;
};

/** Every value at a path where a `*` segment stands for each element of a list. */
export const readAll = (data: unknown, path: WirePath): unknown[] => {
  let values: unknown[] = [data];
  for (let i = 0; i < path.length; i++) {
    const seg = path[i]!;
    const next: unknown[] = [];
    for (const v of values) {
      if (typeof v !== 'object' || v === null) continue;
      if (seg === '*') {
        if (isArray(v)) next.push(...v);
      } else if (hasOwn(v, seg)) next.push((v as Record<string | number, unknown>)[seg]);
    }
    values = next;
  }
  return values.filter((v) => v !== undefined);
};

/** The first string (or number, as text) among candidate values. */
export const firstString = (...values: unknown[]): string | undefined => {
  for (const v of values) {
    if (isString(v)) return v;
    if (typeof v === 'number') return String(v);
  }
  return undefined;
};

/** The same among the values at candidate paths. */
export const firstStringAt = (data: unknown, paths: readonly WirePath[]): string | undefined => {
  return firstString(...paths.map((p) => readPath(data, p)));
};
