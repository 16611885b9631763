/**
 * The project's own specs for `wireforge serve` and `wireforge gateway`: generated from its spec
 * folder in memory (as `wireforge gen` does, without the type check), compiled to JavaScript in a
 * folder inside the project (where the `wireforge` package resolves as it does for the project's
 * own modules), imported, and the folder removed. From the specs rather than the generated
 * folder: what is served is what the specs say now, whether the project generates .ts or --js.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ts } from 'ts-morph';
import { formatDiagnostic } from './diagnostics.js';
import { kitNames } from './emit/kit-names.js';
import type { RuntimeLocation } from './locate-runtime.js';
import { generate, type SpecSource } from './pipeline.js';
import type { ServedSpec } from '../runtime/contract/serve-codec.js';

/** Where the compiled modules go for a moment: beside the project's packages, or (this repository's source) anywhere. */
export function scratchFolder(cwd: string, fromSource: boolean): string {
  const parent = fromSource ? tmpdir() : join(cwd, 'node_modules', '.cache', 'wireforge');
  mkdirSync(parent, { recursive: true });
  return mkdtempSync(join(parent, 'serve-'));
}

/**
 * Each spec of the project's, by id, loaded. `sources`: the project's and the runtime's (as read
 * for `folder`, where the modules are written); `folder` is removed before this returns.
 */
export async function loadOwnSpecs(sources: SpecSource[], runtime: RuntimeLocation, folder: string): Promise<Map<string, ServedSpec>> {
  try {
    const own = new Set(sources.filter((s) => s.module === undefined).map((s) => s.file));
    if (!own.size) return new Map();
    const result = await generate(sources, {
      runtimeImport: runtime.kitImport,
      runtimeEntry: runtime.entry,
      builtInEntry: runtime.adaptersEntry,
      serveEntry: runtime.serveEntry,
      builtInServes: runtime.servesEntry,
      kitNames: kitNames(runtime.kitFile),
    });
    if (result.diagnostics.length) {
      throw new Error(`${result.diagnostics.map(formatDiagnostic).join('\n')}\n${result.diagnostics.length} problem(s) in the project's specs: nothing served (wireforge validate shows them)`);
    }
    const owned = result.irs.filter((ir) => own.has(ir.files[0]!));
    // A module for each spec, the indexes left out: the server side takes a spec's exports directly.
    // This repository's source runs under a TypeScript loader (tsx, vitest): its modules stay .ts.
    const ext = runtime.version === 'source' ? '.ts' : '.js';
    for (const [name, text] of result.files) {
      if (name === 'index.ts' || name === 'serve.ts') continue;
      const code = ext === '.ts' ? text : ts.transpileModule(text, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ES2022 } }).outputText;
      writeFileSync(join(folder, name.replace(/\.ts$/, ext)), code);
    }
    const loaded = new Map<string, ServedSpec>();
    for (const { id, base } of owned) {
      const mod = (await import(pathToFileURL(join(folder, `${id}${ext}`)).href)) as ServedSpec;
      // The spec it extends: the gateway answers in it as a dialect of that one (docs/serving.md#dialects).
      loaded.set(id, { adapter: mod.adapter, serve: mod.serve, ...(base ? { extends: base } : {}) });
    }
    return loaded;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
