/**
 * The condition vocabulary (`when:`) evaluated over request values or continuity facts. Spec
 * patterns (`matches`) are compiled once and kept.
 */
import type { Condition, Test } from '../contract/profile.js';

export function holds(when: Condition, value: (subject: string) => unknown): boolean {
  for (const subject in when) if (!passes(when[subject]!, value(subject))) return false;
  return true;
}

export function passes(t: Test, v: unknown): boolean {
  if ('eq' in t) return v === t.eq;
  if ('in' in t) return (t.in as readonly unknown[]).includes(v);
  if ('exists' in t) return (v !== undefined && v !== null) === t.exists;
  if ('matches' in t) return typeof v === 'string' && pattern(t.matches).test(v);
  return !passes(t.not, v);
}

const patterns = new Map<string, RegExp>();
function pattern(source: string): RegExp {
  let re = patterns.get(source);
  if (re === undefined) patterns.set(source, (re = new RegExp(source)));
  return re;
}
