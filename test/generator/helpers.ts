import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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

/**
 * A temporary project folder with the given spec files, for the CLI tests (cli-*.test.ts): the
 * built-in specs of this repository's runtime are its bases (as in a user's project).
 */
export function cliProject(specs: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'wireforge-cli-'));
  mkdirSync(join(dir, 'specs'));
  for (const [name, text] of Object.entries(specs)) writeFileSync(join(dir, 'specs', name), text);
  return dir;
}

/** This repository's kit, which the modules generated in a CLI test's project import. */
export const KIT = fileURLToPath(new URL('runtime/adapter-kit.js', ROOT));
