/**
 * The spec's sentinels are resolved by the generator: `$nothing` (a form or key that sends
 * nothing) never reaches generated code, and the runtime has no check for it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

function tsFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => join(e.parentPath, e.name));
}

it('no $nothing in generated/ or runtime/', () => {
  const files = [...tsFiles('generated'), ...tsFiles('runtime')];
  expect(files.length).toBeGreaterThan(50);
  const holding = files.filter((f) => readFileSync(f, 'utf8').includes('$nothing')).map((f) => f.slice(root.length));
  expect(holding).toEqual([]);
});
