/**
 * The README's TypeScript snippets compile under the strictness a demanding user has (strict,
 * exactOptionalPropertyTypes, noUncheckedIndexedAccess, NodeNext). They are checked in a project
 * of their own made by the real CLI (run in process) (`wireforge new acme --extends openai-chat` + `gen`), so the
 * snippet that imports `./generated/index.js` sees the user's id; `wireforge` is this repository.
 * A snippet may use `client`, which an earlier snippet made (declared here as a global).
 */
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const snippets = [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => ({ code: m[1]!, line: readme.slice(0, m.index).split('\n').length + 1 }));

const dir = mkdtempSync(join(tmpdir(), 'wireforge-readme-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('README snippets', () => {
  it('there are snippets to check (quick start, tools, zod, your own provider)', () => {
    expect(snippets.length).toBeGreaterThanOrEqual(5);
    expect(snippets.some((s) => s.code.includes("from './generated/index.js'"))).toBe(true);
    expect(snippets.some((s) => s.code.includes("from 'zod'"))).toBe(true);
  });

  it('type-check', { timeout: 180_000 }, async () => {
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'readme-user', type: 'module' }));
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
    for (const args of [['new', 'acme', '--extends', 'openai-chat'], ['gen']]) {
      const r = await runCli(dir, ...args);
      expect(r.status, r.stderr).toBe(0);
    }
    writeFileSync(join(dir, 'globals.d.ts'), `import type { Client } from 'wireforge';\ndeclare global {\n  const client: Client;\n}\n`);
    const files = snippets.map((s, i) => {
      const file = join(dir, `snippet-${i}.ts`);
      // `export {}` keeps each snippet a module of its own, as it is in a user's file.
      writeFileSync(file, `${s.code}\nexport {};\n`);
      return file;
    });
    const program = ts.createProgram([join(dir, 'globals.d.ts'), ...files], {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
      strict: true,
      exactOptionalPropertyTypes: true,
      noUncheckedIndexedAccess: true,
      skipLibCheck: true,
      noEmit: true,
      types: ['node'],
      // As the package's exports map them (package.json), to the source.
      paths: { wireforge: [join(root, 'generated/index.ts')], 'wireforge/serve/node': [join(root, 'node/index.ts')], 'wireforge/ai-sdk': [join(root, 'ai-sdk/index.ts')], 'wireforge/*': [join(root, 'generated/*.ts')] },
    });
    // What the user compiles: the snippets and the modules generated into their project (the
    // runtime reaches them as declarations; here it is source, compiled by its own settings).
    // Only those files are checked: asking the whole program (the runtime's source included) for
    // its diagnostics and keeping the user's was most of this test's time.
    const theirs = program.getSourceFiles().filter((f) => f.fileName.startsWith(dir));
    const found = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics(), ...theirs.flatMap((f) => [...program.getSyntacticDiagnostics(f), ...program.getSemanticDiagnostics(f)])];
    expect(theirs.map((f) => f.fileName.slice(dir.length + 1)).sort()).toEqual(expect.arrayContaining(['generated/acme.ts', 'generated/index.ts', 'globals.d.ts', ...files.map((f) => f.slice(dir.length + 1))]));
    const problems = found.filter((d) => d.file === undefined || d.file.fileName.startsWith(dir)).map((d) => {
      const at = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
      const i = d.file ? files.indexOf(d.file.fileName) : -1;
      const where = i >= 0 && at ? `README.md:${snippets[i]!.line + at.line}` : (d.file?.fileName ?? '');
      return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
    });
    expect(problems).toEqual([]);
  });
});
