/**
 * `pnpm gen`: specs/*.yaml → generated/. `pnpm gen --check`: regenerate in memory and fail if
 * generated/ differs. The only module of the generator that touches the disk.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { formatDiagnostic } from './diagnostics.js';
import { generate } from './pipeline.js';

const USAGE = 'usage: gen [--check] [--specs DIR] [--out DIR] [--docs DIR] [--runtime-import SPECIFIER] [--timings]';

function args(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      strict: true,
      options: {
        check: { type: 'boolean', default: false },
        timings: { type: 'boolean', default: false },
        specs: { type: 'string', default: 'specs' },
        out: { type: 'string', default: 'generated' },
        // Where generated docs go; empty to skip.
        docs: { type: 'string', default: 'docs' },
        'runtime-import': { type: 'string' },
      },
    }).values;
  } catch (e) {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n${USAGE}\n`);
    process.exit(2);
  }
}

async function main(): Promise<void> {
  const a = args(process.argv.slice(2));
  const options = { check: a.check, timings: a.timings, specs: a.specs, out: a.out, docs: a.docs, runtimeImport: a['runtime-import'] };
  const cwd = process.cwd();
  const specDir = resolve(cwd, options.specs);
  const outDir = resolve(cwd, options.out);
  const sources = readdirSync(specDir)
    .filter((f) => f.endsWith('.yaml') || f.endsWith('.yml'))
    .sort()
    .map((f) => ({ file: relative(cwd, join(specDir, f)).split('\\').join('/'), text: readFileSync(join(specDir, f), 'utf8') }));
  const t0 = performance.now();
  // By default generated code imports the runtime this generator ships with, from wherever it is written.
  // Files are type-checked before they are written (--check writes nothing, and only compares).
  const kit = fileURLToPath(new URL('../runtime/adapter-kit.js', import.meta.url));
  const runtimeImport = options.runtimeImport ?? relative(outDir, kit).split('\\').join('/');
  const result = await generate(sources, { runtimeImport: runtimeImport.startsWith('.') || runtimeImport.startsWith('/') ? runtimeImport : `./${runtimeImport}`, typeCheckAt: options.check ? undefined : outDir });
  if (result.diagnostics.length) {
    for (const d of result.diagnostics) process.stderr.write(`${formatDiagnostic(d)}\n`);
    process.stderr.write(`\n${result.diagnostics.length} problem(s); nothing written.\n`);
    process.exit(1);
  }
  const existing = existsSync(outDir) ? readdirSync(outDir).filter((f) => f.endsWith('.ts')) : [];
  const stale = existing.filter((f) => !result.files.has(f));
  const docsDir = options.docs ? resolve(cwd, options.docs) : undefined;
  const outputs: Array<[string, string, string]> = [
    ...[...result.files].map(([n, t]): [string, string, string] => [join(outDir, n), `${options.out}/${n}`, t]),
    ...(docsDir ? [...result.docs].map(([n, t]): [string, string, string] => [join(docsDir, n), `${options.docs}/${n}`, t]) : []),
  ];
  if (options.check) {
    const changed = outputs.filter(([path, , text]) => !existsSync(path) || readFileSync(path, 'utf8') !== text).map(([, shown]) => shown);
    if (changed.length || stale.length) {
      for (const n of changed) process.stderr.write(`out of date: ${n}\n`);
      for (const n of stale) process.stderr.write(`stale (no spec): ${options.out}/${n}\n`);
      process.stderr.write('generated/ or docs/ does not match the specs: run `pnpm gen`.\n');
      process.exit(1);
    }
    process.stdout.write(`generated/ is up to date (${result.files.size} files).\n`);
    return;
  }
  mkdirSync(outDir, { recursive: true });
  if (docsDir) mkdirSync(docsDir, { recursive: true });
  for (const n of stale) rmSync(join(outDir, n));
  for (const [path, , text] of outputs) if (!existsSync(path) || readFileSync(path, 'utf8') !== text) writeFileSync(path, text);
  const ms = Math.round(performance.now() - t0);
  process.stdout.write(`wrote ${result.files.size} files to ${options.out}/${docsDir ? ` and ${result.docs.size} to ${options.docs}/` : ''} from ${sources.length} specs in ${ms} ms${stale.length ? `; removed ${stale.length} stale` : ''}\n`);
  if (options.timings) for (const [stage, t] of Object.entries(result.timings)) process.stdout.write(`  ${stage.padEnd(9)} ${t.toFixed(1)} ms\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
