/**
 * `pnpm gen`: specs/*.yaml → generated/. `pnpm gen --check`: regenerate in memory and fail if
 * generated/ differs. The only module of the generator that touches the disk.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { formatDiagnostic } from './diagnostics.js';
import { generate } from './pipeline.js';

interface Args {
  check: boolean;
  specs: string;
  out: string;
  runtimeImport?: string;
  timings: boolean;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { check: false, specs: 'specs', out: 'generated', timings: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--check') args.check = true;
    else if (a === '--timings') args.timings = true;
    else if (a === '--specs') args.specs = argv[++i]!;
    else if (a === '--out') args.out = argv[++i]!;
    else if (a === '--runtime-import') args.runtimeImport = argv[++i]!;
    else {
      process.stderr.write(`unknown argument ${a}\nusage: gen [--check] [--specs DIR] [--out DIR] [--runtime-import SPECIFIER] [--timings]\n`);
      process.exit(2);
    }
  }
  return args;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const cwd = process.cwd();
  const specDir = resolve(cwd, args.specs);
  const outDir = resolve(cwd, args.out);
  const sources = readdirSync(specDir)
    .filter((f) => f.endsWith('.yaml') || f.endsWith('.yml'))
    .sort()
    .map((f) => ({ file: relative(cwd, join(specDir, f)).split('\\').join('/'), text: readFileSync(join(specDir, f), 'utf8') }));
  const t0 = performance.now();
  const result = await generate(sources, { runtimeImport: args.runtimeImport });
  if (result.diagnostics.length) {
    for (const d of result.diagnostics) process.stderr.write(`${formatDiagnostic(d)}\n`);
    process.stderr.write(`\n${result.diagnostics.length} problem(s); nothing written.\n`);
    process.exit(1);
  }
  const existing = existsSync(outDir) ? readdirSync(outDir).filter((f) => f.endsWith('.ts')) : [];
  const stale = existing.filter((f) => !result.files.has(f));
  if (args.check) {
    const changed = [...result.files].filter(([name, text]) => !existsSync(join(outDir, name)) || readFileSync(join(outDir, name), 'utf8') !== text).map(([n]) => n);
    if (changed.length || stale.length) {
      for (const n of changed) process.stderr.write(`out of date: ${args.out}/${n}\n`);
      for (const n of stale) process.stderr.write(`stale (no spec): ${args.out}/${n}\n`);
      process.stderr.write('generated/ does not match the specs: run `pnpm gen`.\n');
      process.exit(1);
    }
    process.stdout.write(`generated/ is up to date (${result.files.size} files).\n`);
    return;
  }
  mkdirSync(outDir, { recursive: true });
  for (const n of stale) rmSync(join(outDir, n));
  for (const [name, text] of result.files) {
    const path = join(outDir, name);
    if (!existsSync(path) || readFileSync(path, 'utf8') !== text) writeFileSync(path, text);
  }
  const ms = Math.round(performance.now() - t0);
  process.stdout.write(`wrote ${result.files.size} files to ${args.out}/ from ${sources.length} specs in ${ms} ms${stale.length ? `; removed ${stale.length} stale` : ''}\n`);
  if (args.timings) for (const [stage, t] of Object.entries(result.timings)) process.stdout.write(`  ${stage.padEnd(9)} ${t.toFixed(1)} ms\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
