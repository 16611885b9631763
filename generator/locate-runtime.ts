/**
 * Which runtime the generated code is for, and where its built-in specs are. In a user's project
 * that is the installed `wireforge` package: generated modules import its public kit subpath,
 * overlays extend its built-in adapters (`wireforge/providers/<id>`), and the index adds the
 * user's adapters to its registry. Run from this repository's source, it is the repository itself.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface RuntimeLocation {
  /** How generated modules import the kit. */
  kitImport: string;
  /** The runtime's public surface, which a generated index re-exports. */
  entry: string;
  /** The module that exports the built-in `adapters`. */
  adaptersEntry: string;
  /** The server side's public surface (mock server, gateway), which a generated serve index re-exports. */
  serveEntry: string;
  /** The module that exports the built-in `serves`. */
  servesEntry: string;
  /** The file whose exports are the kit's names (its source, or its shipped declarations). */
  kitFile: string;
  /** The built-in spec folder, and how a built-in spec's module is imported. */
  specsDir: string;
  moduleOf: (id: string) => string;
  schemaFile: string;
  /** The spec language's reference (docs/spec-language.md of the package). */
  docsFile: string;
  /** The package's version ('source' for this repository). */
  version: string;
}

const PACKAGE = 'wireforge';
/** This repository, when the generator runs from its source (the kit's source sits beside it). */
const sourceRoot = (() => {
  const root = fileURLToPath(new URL('../', import.meta.url));
  return existsSync(join(root, 'runtime/adapter-kit.ts')) && existsSync(join(root, 'generated/index.ts')) ? root : undefined;
})();

const posix = (p: string): string => p.split('\\').join('/');
const relativeImport = (from: string, to: string): string => {
  const r = posix(relative(from, to));
  return r.startsWith('.') ? r : `./${r}`;
};

/** The runtime as seen from a project folder and the folder generated code goes to. */
export function locateRuntime(cwd: string, outDir: string): RuntimeLocation | undefined {
  const installed = installedPackage(cwd);
  if (installed && (!sourceRoot || realpathSync(installed) !== realpathSync(sourceRoot))) {
    const version = (JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { version?: string }).version ?? '0.0.0';
    return {
      kitImport: `${PACKAGE}/kit`,
      entry: PACKAGE,
      adaptersEntry: PACKAGE,
      serveEntry: `${PACKAGE}/serve`,
      servesEntry: `${PACKAGE}/serve`,
      kitFile: join(installed, 'dist/runtime/adapter-kit.d.ts'),
      specsDir: join(installed, 'specs'),
      moduleOf: (id) => `${PACKAGE}/providers/${id}`,
      // As the project reaches it (node_modules/wireforge), not where a symlink lands: pnpm's
      // store path holds the version and would break on the next upgrade.
      schemaFile: join(linkedPackage(cwd) ?? installed, 'specs/spec.schema.json'),
      docsFile: join(installed, 'docs/spec-language.md'),
      version,
    };
  }
  if (!sourceRoot) return undefined;
  return {
    kitImport: relativeImport(outDir, join(sourceRoot, 'runtime/adapter-kit.js')),
    entry: relativeImport(outDir, join(sourceRoot, 'runtime/index.js')),
    adaptersEntry: relativeImport(outDir, join(sourceRoot, 'generated/index.js')),
    serveEntry: relativeImport(outDir, join(sourceRoot, 'runtime/serve/index.js')),
    servesEntry: relativeImport(outDir, join(sourceRoot, 'generated/serve.js')),
    kitFile: join(sourceRoot, 'runtime/adapter-kit.ts'),
    specsDir: join(sourceRoot, 'specs'),
    moduleOf: (id) => relativeImport(outDir, join(sourceRoot, `generated/${id}.js`)),
    schemaFile: join(sourceRoot, 'specs/spec.schema.json'),
    docsFile: join(sourceRoot, 'docs/spec-language.md'),
    version: 'source',
  };
}

/** `node_modules/wireforge` in the nearest folder from `cwd` up that has one, symlinks not followed. */
function linkedPackage(cwd: string): string | undefined {
  for (let dir = cwd; ; dir = dirname(dir)) {
    const at = join(dir, 'node_modules', PACKAGE);
    if (existsSync(join(at, 'package.json'))) return at;
    if (dirname(dir) === dir) return undefined;
  }
}

function installedPackage(cwd: string): string | undefined {
  try {
    return dirname(createRequire(join(cwd, 'package.json')).resolve(`${PACKAGE}/package.json`));
  } catch {
    return undefined;
  }
}
