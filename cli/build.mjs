// Builds the CLI package: the generator compiled (with the few runtime modules it shares: the
// profile's tables, the kit version), its doc templates and the spec schema it validates with.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = new URL('./', import.meta.url);
const root = new URL('../', import.meta.url);
rmSync(new URL('dist', here), { recursive: true, force: true });
const tsc = createRequire(new URL('package.json', root)).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', new URL('tsconfig.build.json', here).pathname], { stdio: 'inherit' });
pruneRuntime(fileURLToPath(new URL('dist', here)));
cpSync(new URL('generator/emit/templates', root), new URL('dist/generator/emit/templates', here), { recursive: true });
cpSync(new URL('specs/spec.schema.json', root), new URL('dist/specs/spec.schema.json', here));
cpSync(new URL('LICENSE', root), new URL('LICENSE', here));

/**
 * tsc compiles every runtime module the generator's types reach (and the server side's, which
 * the serve commands name as types); the CLI runs only the few the
 * generator imports as values and declares only the types its own declarations name. The rest
 * of dist/runtime (the runtime itself comes from the installed `wireforge` package) is not shipped.
 */
function pruneRuntime(dist) {
  const files = (dir) => readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? files(join(dir, name)) : [join(dir, name)]));
  const all = files(dist);
  const generator = all.filter((f) => f.startsWith(join(dist, 'generator')));
  const keep = new Set([...reached(generator.filter((f) => f.endsWith('.js')), '.js'), ...reached(generator.filter((f) => f.endsWith('.d.ts')), '.d.ts')]);
  // The server side's types (node/, generated/) come along with the serve commands' type imports; its code is the package's too.
  const shipped = ['runtime', 'node', 'generated'].map((d) => join(dist, d));
  for (const f of all) if (shipped.some((d) => f.startsWith(d)) && !keep.has(f)) rmSync(f);
  for (const d of shipped) if (existsSync(d)) removeEmpty(d);
}

function removeEmpty(dir) {
  for (const name of readdirSync(dir)) if (statSync(join(dir, name)).isDirectory()) removeEmpty(join(dir, name));
  if (readdirSync(dir).length === 0) rmSync(dir, { recursive: true });
}

/** The files reached from `starts` by relative imports (`from '…'`, `import('…')`), as `.js` or `.d.ts`. */
function reached(starts, ext) {
  const seen = new Set();
  const todo = [...starts];
  while (todo.length) {
    const file = todo.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const target = resolve(dirname(file), spec).replace(/\.js$/, ext);
      if (statSync(target, { throwIfNoEntry: false })?.isFile()) todo.push(target);
    }
  }
  return seen;
}
