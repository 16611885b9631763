/**
 * The spec ids in specs/ and each one's chain of `extends` (itself first), read from the YAML
 * once, without running the generator: for tests that pick fixtures or scripts by the spec a
 * spec extends.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';

const SPECS = new URL('../../specs/', import.meta.url);
let heads: Map<string, string | undefined> | undefined;

/** Each spec id and the id it extends. */
function specHeads(): Map<string, string | undefined> {
  if (heads) return heads;
  heads = new Map();
  for (const file of readdirSync(SPECS).filter((f) => f.endsWith('.yaml')).sort()) {
    const doc = parse(readFileSync(new URL(file, SPECS), 'utf8')) as { id?: string; extends?: string };
    heads.set(doc.id ?? file.replace(/\.yaml$/, ''), doc.extends);
  }
  return heads;
}

/** Every spec id in specs/, sorted. */
export function specIds(): string[] {
  return [...specHeads().keys()].sort();
}

/** The spec and the specs it extends, nearest first. */
export function specChain(id: string): string[] {
  const chain = [id];
  for (let parent = specHeads().get(id); parent && !chain.includes(parent); parent = specHeads().get(parent)) chain.push(parent);
  return chain;
}
