/**
 * The spec ids in specs/ and each one's chain of `extends` (itself first), read from the YAML
 * without running the generator: for tests that pick fixtures of the spec a spec extends.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';

const SPECS = new URL('../../specs/', import.meta.url);

export function specIds(): string[] {
  return readdirSync(SPECS)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => f.slice(0, -'.yaml'.length))
    .sort();
}

export function specChain(id: string): string[] {
  const chain = [id];
  for (let cur = id; ; ) {
    const parent = (parse(readFileSync(new URL(`${cur}.yaml`, SPECS), 'utf8')) as { extends?: string }).extends;
    if (!parent || chain.includes(parent)) return chain;
    chain.push(parent);
    cur = parent;
  }
}
