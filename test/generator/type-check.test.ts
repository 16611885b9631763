/** The type-check of emitted files, which keeps one project per process between runs. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { typeCheck } from '../../generator/check/type-check.js';

const dir = mkdtempSync(join(tmpdir(), 'wireforge-typecheck-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('typeCheck', { timeout: 60_000 }, () => {
  it('reports an emitted file that does not type-check, naming it and the place', () => {
    const found = typeCheck(new Map([['bad.ts', "export const n: number = 'text';\n"]]), dir, []);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ code: 'generated-type-error', file: 'bad.ts' });
    expect(found[0]!.message).toMatch(/^the code generated for bad\.ts does not type-check: Type 'string' is not assignable to type 'number'\. \(generated bad\.ts:1:14\)$/);
  });

  it('a later run sees what changed on disk since, and forgets the files of the run before', () => {
    writeFileSync(join(dir, 'dep.ts'), 'export const v = 1;\n');
    const user = new Map([['user.ts', "import { v } from './dep.js';\nexport const s: string = v;\n"]]);
    expect(typeCheck(user, dir, []).map((d) => d.message)).toEqual([expect.stringContaining("Type 'number' is not assignable to type 'string'")]);
    writeFileSync(join(dir, 'dep.ts'), "export const v = 'now a string';\n");
    expect(typeCheck(user, dir, [])).toEqual([]);
    // bad.ts of the first test is no longer part of the program: a file importing it finds nothing.
    const found = typeCheck(new Map([['other.ts', "export { n } from './bad.js';\n"]]), dir, []);
    expect(found.map((d) => d.message)).toEqual([expect.stringContaining("Cannot find module './bad.js'")]);
  });
});
