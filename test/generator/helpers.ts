import { readdirSync, readFileSync } from 'node:fs';
import type { SpecSource } from '../../generator/pipeline.js';

export const ROOT = new URL('../../', import.meta.url);

export function repoSpecs(): SpecSource[] {
  const dir = new URL('specs/', ROOT);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => ({ file: `specs/${f}`, text: readFileSync(new URL(f, dir), 'utf8') }));
}

export const MINI = { file: 'test/generator/mini.yaml', text: readFileSync(new URL('mini.yaml', import.meta.url), 'utf8') };
