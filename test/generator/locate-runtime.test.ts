/**
 * Where the generator finds the installed package, as pnpm lays it out: `node_modules/wireforge`
 * a symlink into a store folder named with the version. The scaffold's `$schema` line must name
 * the path the project reaches it by, which survives an upgrade; the store path would not.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { locateRuntime } from '../../generator/locate-runtime.js';

const dir = mkdtempSync(join(tmpdir(), 'wireforge-locate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("the schema is named through node_modules/wireforge, not the store path a symlink lands on", () => {
  const store = join(dir, 'node_modules/.pnpm/wireforge@1.2.3/node_modules/wireforge');
  mkdirSync(join(store, 'specs'), { recursive: true });
  writeFileSync(join(store, 'package.json'), JSON.stringify({ name: 'wireforge', version: '1.2.3' }));
  writeFileSync(join(store, 'specs/spec.schema.json'), '{}');
  const project = join(dir, 'app');
  mkdirSync(join(project, 'node_modules'), { recursive: true });
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'app', type: 'module' }));
  symlinkSync(store, join(project, 'node_modules/wireforge'), 'dir');

  const found = locateRuntime(project, join(project, 'generated'))!;
  expect(found.version).toBe('1.2.3');
  expect(found.schemaFile).toBe(join(project, 'node_modules/wireforge/specs/spec.schema.json'));
  // Read from where it really is (the same file).
  expect(found.specsDir).toContain('.pnpm');
});
