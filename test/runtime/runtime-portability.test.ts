/** runtime/ must run wherever fetch and web streams exist: no Node-only imports, no Node globals. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('runtime portability', () => {
  const roots = ['runtime', 'generated'].map((d) => fileURLToPath(new URL(`../../${d}/`, import.meta.url)));
  const all = roots.flatMap(files);

  it('has files to check', () => expect(all.length).toBeGreaterThan(10));

  it.each(all.map((f) => [f.replace(/^.*\/(runtime|generated)\//, '$1/'), f]))('%s imports no Node modules or globals', (_name, file) => {
    const text = readFileSync(file, 'utf8');
    expect(text).not.toMatch(/from\s+['"]node:/);
    expect(text).not.toMatch(/from\s+['"](fs|path|http|https|os|crypto|stream|buffer|util|events)['"]/);
    expect(text).not.toMatch(/\bBuffer\./);
    expect(text).not.toMatch(/\brequire\(/);
  });
});
