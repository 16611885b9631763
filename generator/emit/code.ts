/**
 * The only way spec strings become code: every literal goes through JSON.stringify (with the
 * line separators escaped too), every key and member access through these helpers.
 */
import { StructureKind, VariableDeclarationKind, type StatementStructures } from 'ts-morph';
import type { Segment, WirePath } from '../ir/paths.js';

export const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A string/number/boolean/null/object/array value as a TypeScript literal. */
export function lit(value: unknown): string {
  if (value === undefined) return 'undefined';
  return JSON.stringify(value).replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** An object-literal key. */
export function key(k: string): string {
  return IDENT.test(k) && k !== '__proto__' ? k : lit(k);
}

/** Optional-chained read of `path` from `base`: e.g. `e.choices?.[0]?.delta?.content`. */
export function access(base: string, path: WirePath | Segment[]): string {
  const segments = Array.isArray(path) ? path : path.segments;
  let out = base;
  for (const s of segments) {
    if (typeof s === 'number') out += `?.[${s}]`;
    else out += IDENT.test(s) ? `?.${s}` : `?.[${lit(s)}]`;
  }
  return out;
}

/** First present value among several paths. */
export function firstOf(base: string, paths: WirePath[]): string {
  if (paths.length === 0) return 'undefined';
  return paths.map((p) => access(base, p)).join(' ?? ');
}

/** Text safe inside a block comment. */
export function commentText(s: string): string {
  return s.replace(/\*\//g, '*\\/').replace(/[\r\n\u2028\u2029]+/g, ' ');
}

/** An exported `const` statement. */
export function constant(name: string, initializer: string, doc?: string, isExported = true): StatementStructures {
  return {
    kind: StructureKind.VariableStatement,
    isExported,
    declarationKind: VariableDeclarationKind.Const,
    ...(doc ? { docs: [doc] } : {}),
    declarations: [{ name, initializer }],
  };
}
