/** One test of the condition vocabulary as a TypeScript expression over `v`. */
import type { Test } from '../../runtime/contract/profile.js';
import { lit } from './code.js';

export function testCode(t: Test, v: string): string {
  if ('eq' in t) return `${v} === ${lit(t.eq)}`;
  // A few values compare directly (no array made per event); more go through a list.
  if ('in' in t) return t.in.length <= 4 ? `(${t.in.map((x) => `${v} === ${lit(x)}`).join(' || ')})` : `(${lit(t.in)} as unknown[]).includes(${v})`;
  if ('exists' in t) return t.exists ? `${v} != null` : `${v} == null`;
  if ('matches' in t) return `(typeof ${v} === "string" && new RegExp(${lit(t.matches)}).test(${v}))`;
  if ('eq' in t.not) return `${v} !== ${lit(t.not.eq)}`;
  return `!(${testCode(t.not, v)})`;
}
