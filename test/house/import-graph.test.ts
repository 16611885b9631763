/**
 * The house plan holds: no import circle in runtime/, generator/ or node/ (type imports and
 * `export … from` included), the contract imports nothing outside itself, and every import goes
 * to a floor the importing folder's README allows (the table below, checked against the READMEs).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { circlePath, circles, floorOf, importGraph } from '../helpers/import-graph.js';

const root = resolve(import.meta.dirname, '../..');
const TREES = ['runtime', 'generator', 'node', 'ai-sdk'];
/** Trees whose files at the top are floors of their own (the others are one floor). */
const FLOORED = ['runtime', 'generator'];
const graph = importGraph(root, TREES);

/** Folder (or top-level file) → the floors it may import; `x/*` is every floor of x. Kept equal to the READMEs. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  'runtime/contract': [],
  'runtime/errors.ts': ['runtime/contract'],
  'runtime/kit-version.ts': [],
  'runtime/closest-name.ts': [],
  'runtime/profile-facts.ts': ['runtime/contract'],
  'runtime/wire': ['runtime/contract'],
  'runtime/framing': ['runtime/contract', 'runtime/errors.ts'],
  'runtime/transport': ['runtime/contract', 'runtime/errors.ts'],
  'runtime/request': ['runtime/contract', 'runtime/errors.ts', 'runtime/wire'],
  'runtime/assemble': ['runtime/contract', 'runtime/errors.ts', 'runtime/request', 'runtime/wire'],
  'runtime/adapter.ts': ['runtime/contract', 'runtime/errors.ts', 'runtime/kit-version.ts', 'runtime/profile-facts.ts', 'runtime/wire', 'runtime/request', 'runtime/assemble'],
  'runtime/client': ['runtime/contract', 'runtime/errors.ts', 'runtime/wire', 'runtime/framing', 'runtime/transport', 'runtime/request', 'runtime/assemble'],
  'runtime/tools': ['runtime/contract', 'runtime/errors.ts', 'runtime/transport', 'runtime/request', 'runtime/client'],
  'runtime/structured': ['runtime/contract', 'runtime/errors.ts', 'runtime/wire', 'runtime/request', 'runtime/client', 'runtime/tools'],
  'runtime/telemetry': ['runtime/contract', 'runtime/errors.ts', 'runtime/client'],
  'runtime/registry.ts': ['runtime/contract', 'runtime/errors.ts', 'runtime/client', 'runtime/structured', 'runtime/telemetry'],
  'runtime/serve': ['runtime/contract', 'runtime/errors.ts', 'runtime/closest-name.ts', 'runtime/wire', 'runtime/framing', 'runtime/transport', 'runtime/request', 'runtime/client', 'runtime/telemetry'],
  'runtime/adapter-kit.ts': ['runtime/*'],
  'runtime/index.ts': ['runtime/*'],
  node: ['runtime/contract', 'runtime/errors.ts', 'runtime/serve', 'generated'],
  'ai-sdk': ['runtime/contract', 'runtime/errors.ts', 'runtime/request', 'runtime/client', 'runtime/wire', 'generated'],
  'generator/diagnostics.ts': ['runtime/closest-name.ts'],
  'generator/locate-runtime.ts': [],
  'generator/memory-project.ts': [],
  'generator/load': ['generator/diagnostics.ts', 'generator/ir', 'runtime/contract'],
  'generator/validate': ['generator/diagnostics.ts', 'generator/load'],
  'generator/resolve': ['generator/diagnostics.ts', 'generator/load'],
  'generator/ir': ['generator/load', 'generator/resolve', 'runtime/contract', 'runtime/profile-facts.ts', 'runtime/serve'],
  'generator/check': ['generator/diagnostics.ts', 'generator/memory-project.ts', 'generator/load', 'generator/ir', 'runtime/contract', 'runtime/request'],
  'generator/emit': ['generator/ir', 'generator/check', 'runtime/contract', 'runtime/kit-version.ts', 'runtime/profile-facts.ts', 'runtime/serve'],
  'generator/format': ['generator/memory-project.ts'],
  'generator/pipeline.ts': ['generator/*'],
  'generator/cli-serve.ts': ['generator/locate-runtime.ts', 'node'],
  'generator/own-specs.ts': ['generator/*', 'runtime/contract'],
  'generator/scaffold-spec.ts': ['runtime/contract'],
  'generator/cli.ts': ['generator/*', 'runtime/contract'],
};

const floor = (file: string) => floorOf(file, FLOORED);
const allows = (from: string, to: string) =>
  (MAY_IMPORT[from] ?? []).some((f) => f === to || (f.endsWith('/*') && to.startsWith(f.slice(0, -1))));

describe('the import graph reader', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wireforge-graph-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (file: string, text: string) => {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  };

  it('sees type imports, re-exports and literal dynamic imports, and names each circle', () => {
    write('t/a.ts', "import type { B } from './b.js';\nexport type A = B;\n");
    write('t/b.ts', "export * from './sub/c.js';\nexport type B = string;\n");
    write('t/sub/c.ts', "export const load = () => import('../a.js');\nimport 'node:fs';\nimport ts from 'typescript';\n");
    write('t/d.ts', "// import { x } from './a.js' is a comment, not an edge\nexport const s = \"import './a.js'\";\n");
    const g = importGraph(dir, ['t']);
    expect(g.get('t/a.ts')).toEqual(['t/b.ts']);
    expect(g.get('t/b.ts')).toEqual(['t/sub/c.ts']);
    expect(g.get('t/sub/c.ts')).toEqual(['t/a.ts']);
    expect(g.get('t/d.ts')).toEqual([]);
    const found = circles(g);
    expect(found).toEqual([['t/a.ts', 't/b.ts', 't/sub/c.ts']]);
    expect(circlePath(g, found[0]!)).toBe('t/a.ts → t/b.ts → t/sub/c.ts → t/a.ts');
  });

  it('reads the house: known edges of each kind are there', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get('runtime/adapter.ts')).toContain('runtime/contract/adapter.ts');
    // A type-only import, and an `export … from`.
    expect(graph.get('runtime/errors.ts')).toContain('runtime/contract/codec.ts');
    expect(graph.get('runtime/adapter-kit.ts')).toContain('runtime/contract/codec.ts');
    expect(graph.get('node/mock-server.ts')).toContain('generated/index.ts');
    expect(floor('runtime/request/build-request.ts')).toBe('runtime/request');
    expect(floor('runtime/adapter.ts')).toBe('runtime/adapter.ts');
    expect(floor('node/listen.ts')).toBe('node');
    expect(floor('generated/index.ts')).toBe('generated');
  });
});

describe('the house plan', () => {
  it('has no import circle in runtime/, generator/ or node/', () => {
    expect(circles(graph).map((c) => circlePath(graph, c))).toEqual([]);
  });

  it('keeps the contract at the bottom: it imports nothing outside itself', () => {
    const outside = [...graph].flatMap(([f, ds]) => (f.startsWith('runtime/contract/') ? ds.filter((d) => !d.startsWith('runtime/contract/')).map((d) => `${f} → ${d}`) : []));
    expect(outside).toEqual([]);
  });

  it('puts every file on a floor the table knows', () => {
    const unknown = [...new Set([...graph.keys()].map(floor))].filter((f) => !(f in MAY_IMPORT));
    expect(unknown).toEqual([]);
  });

  it('has every import go to a floor its folder may import', () => {
    const bad: string[] = [];
    for (const [file, deps] of graph) {
      for (const dep of deps) {
        const from = floor(file);
        const to = floor(dep);
        if (from !== to && !allows(from, to)) bad.push(`${file} → ${dep} (${from} may not import ${to})`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('says in the READMEs what the table says', () => {
    const said: Record<string, string[]> = {};
    const names = (text: string) => (/^nothing/.test(text) ? [] : [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!));
    for (const tree of FLOORED) {
      // The files at the top of a tree: `- \`name.ts\` may import: …` in the tree's README.
      const readme = readFileSync(join(root, tree, 'README.md'), 'utf8');
      for (const m of readme.matchAll(/^- `([^`]+)` may import: (.*)\.$/gm)) said[`${tree}/${m[1]}`] = names(m[2]!);
    }
    for (const f of Object.keys(MAY_IMPORT).filter((f) => !f.endsWith('.ts'))) {
      const m = /^May import: (.*)\.$/m.exec(readFileSync(join(root, f, 'README.md'), 'utf8'));
      expect(m, `${f}/README.md says what it may import`).not.toBeNull();
      said[f] = names(m![1]!);
    }
    const sorted = (r: Record<string, readonly string[]>) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, [...v].sort()]).sort());
    expect(sorted(said)).toEqual(sorted(MAY_IMPORT));
  });
});
