import { readdirSync, readFileSync } from 'node:fs';
import { generate, type GenerateResult, type SpecSource } from '../../generator/pipeline.js';

export const ROOT = new URL('../../', import.meta.url);

export function repoSpecs(): SpecSource[] {
  const dir = new URL('specs/', ROOT);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => ({ file: `specs/${f}`, text: readFileSync(new URL(f, dir), 'utf8') }));
}

export const MINI = { file: 'test/generator/mini.yaml', text: readFileSync(new URL('mini.yaml', import.meta.url), 'utf8') };

let repoResult: Promise<GenerateResult> | undefined;
/** One run of the pipeline over the repository's specs per worker, shared by the checks that only read it. */
export function repoGenerated(): Promise<GenerateResult> {
  repoResult ??= generate(repoSpecs());
  return repoResult;
}
