#!/usr/bin/env node
/**
 * The `wireforge` command: `gen` (specs → adapters), `check` (exit 1 when generated code is
 * stale), `validate <file…>` (a spec's problems, located), `new <id>` (a spec from scratch,
 * every section commented) or `new <id> --extends <base>` (a scaffold listing what becomes of
 * every unified field). The only module of the generator that
 * touches the disk. `pnpm gen` in this repository is `wireforge gen`. In a user's project the
 * specs are the user's folder plus the built-in ones of the installed runtime package (bases to
 * extend, never regenerated there).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { didYouMean, formatDiagnostic } from './diagnostics.js';
import { kitNames } from './emit/kit-names.js';
import { locateRuntime, type RuntimeLocation } from './locate-runtime.js';
import { generate, type SpecSource } from './pipeline.js';
import { toJavaScript } from './format/to-javascript.js';
import { gatewayCommand, gatewayConfigCommand, serveCommand, type GatewayArgs, type GatewayConfigArgs, type SpecLookup } from './cli-serve.js';
import { parseSpec, positionOf } from './load/parse-spec.js';
import { loadOwnSpecs, scratchFolder } from './own-specs.js';
import type { ServedSpec } from '../runtime/contract/serve-codec.js';
import { scratchSpec } from './scaffold-spec.js';
import { PARAM_FIELDS } from '../runtime/contract/param-fields.js';
import type { ParamRule } from '../runtime/contract/profile.js';

const COMMANDS: Record<string, { usage: string; about: string }> = {
  gen: { usage: 'wireforge gen [--specs DIR] [--out DIR] [--docs DIR] [--js] [--notes own|all|none] [--runtime-import SPECIFIER] [--timings] [--check]', about: 'generate adapters (and docs) from the spec files; --js writes .js and .d.ts for a JavaScript project' },
  check: { usage: 'wireforge check [--specs DIR] [--out DIR] [--docs DIR] [--js] [--runtime-import SPECIFIER]', about: 'exit 1 when the generated files do not match the specs (for CI)' },
  validate: { usage: 'wireforge validate <file.yaml>… [--specs DIR]', about: 'report the problems of spec files, with file, line and field' },
  new: { usage: 'wireforge new <id> [--extends <base>] [--specs DIR]', about: 'write a spec from scratch (every section, commented), or one that extends another, listing what becomes of every unified field' },
  serve: { usage: 'wireforge serve <id>… [--specs DIR] [--port N] [--script steps.json] [--key KEY] [--cors | --cors-origin ORIGIN…]', about: "mock servers on 127.0.0.1 for built-in specs and the project's own, answering from a script (docs/serving.md)" },
  gateway: {
    usage: 'wireforge gateway --config gateway.yaml [--specs DIR] [--port N] [--host H] [--insecure]\n       wireforge gateway --listen <id> --upstream <id> [--specs DIR] [--upstream-url URL] [--port N] [--host H] [--token T] [--key-from env|caller] [--max-retries N] [--timeout-ms MS] [--body-limit BYTES] [--insecure] [--cors | --cors-origin ORIGIN…]',
    about: 'accept one protocol, call another (docs/serving.md); --config: routes, fallbacks, key pools and client tokens from one file (docs/serving.md#gateway-for-teams); a key held by the gateway needs a client token off loopback',
  },
};

/** Where a command runs and writes: the process's own, or a caller's (the tests run commands in process). */
export interface CliIO {
  cwd: string;
  out(line: string): void;
  err(line: string): void;
  color: boolean;
  /** Resolves when `serve` or `gateway` should stop: SIGINT or SIGTERM for the process. */
  untilStopped(): Promise<void>;
}

export function processIO(): CliIO {
  return {
    cwd: process.cwd(),
    out: (s) => void process.stdout.write(`${s}\n`),
    err: (s) => void process.stderr.write(`${s}\n`),
    color: process.stdout.isTTY === true && process.env.NO_COLOR === undefined,
    untilStopped: () =>
      new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      }),
  };
}

const paint = (io: CliIO, code: number, s: string) => (io.color ? `\u001b[${code}m${s}\u001b[0m` : s);

/** Ends a command with an exit code (and a message for stderr); main turns it into its result. */
class Exit extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** The folder options, their package.json field and what they are without it. */
const FOLDERS = [
  ['specs', '"specs": "specs"', 'specs/'],
  ['out', '"out": "generated"', 'generated/'],
  ['docs', '"docs": "docs"', 'no docs'],
] as const;

/** The options a command takes: those its usage names, and --help. */
const optionsOf = (command: string): string[] => ['help', ...[...COMMANDS[command]!.usage.matchAll(/--([\w-]+)/g)].map((m) => m[1]!)];

function help(command?: string): string {
  if (command && COMMANDS[command]) {
    // The folder defaults, for the folder options this command has only.
    const own = FOLDERS.filter(([name]) => optionsOf(command).includes(name));
    const list = (items: string[]) => (items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items.at(-1)!}` : items[0]!);
    const defaults = own.length
      ? `\n${own.length > 1 ? 'Defaults' : 'The default'} for ${list(own.map(([n]) => `--${n}`))} come${own.length > 1 ? '' : 's'} from a "wireforge" field in package.json ({ ${own.map(([, f]) => f).join(', ')} }); without it: ${list(own.map(([, , d]) => d))}.`
      : '';
    return `${COMMANDS[command].usage}\n\n${COMMANDS[command].about}.${defaults}`;
  }
  return ['usage: wireforge <command> [options]', '', ...Object.entries(COMMANDS).map(([k, c]) => `  ${k.padEnd(9)} ${c.about}`), '', 'wireforge <command> --help for its options; wireforge --version.'].join('\n');
}

/** This command's version: the nearest package.json above it (the CLI package's, or this repository's). */
function version(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version ?? '0.0.0';
    if (dirname(dir) === dir) return '0.0.0';
  }
}

interface ProjectDefaults {
  specs: string;
  out: string;
  docs: string | undefined;
  /** `.js` + `.d.ts` instead of `.ts` (a JavaScript project). */
  js: boolean;
  /** The package's `"type"` field: Node reads `.js` as ES modules when it is "module". */
  type: string | undefined;
}

/** Defaults from the project's package.json (`"wireforge": { "specs", "out", "docs", "js" }`); docs only when asked. */
function projectDefaults(cwd: string): ProjectDefaults {
  const base: ProjectDefaults = { specs: 'specs', out: 'generated', docs: undefined, js: false, type: undefined };
  const file = join(cwd, 'package.json');
  if (!existsSync(file)) return base;
  let pkg: { type?: unknown; wireforge?: Partial<Record<keyof ProjectDefaults, unknown>> };
  try {
    pkg = JSON.parse(readFileSync(file, 'utf8')) as typeof pkg;
  } catch {
    return base;
  }
  const field = pkg.wireforge ?? {};
  for (const k of ['specs', 'out', 'docs'] as const) if (field[k] !== undefined && typeof field[k] !== 'string') fail(`package.json: "wireforge.${k}" takes a folder name, not ${JSON.stringify(field[k])}`);
  if (field.js !== undefined && typeof field.js !== 'boolean') fail(`package.json: "wireforge.js" takes true or false, not ${JSON.stringify(field.js)}`);
  return {
    specs: (field.specs as string | undefined) ?? base.specs,
    out: (field.out as string | undefined) ?? base.out,
    docs: (field.docs as string | undefined) ?? base.docs,
    js: field.js === true,
    type: typeof pkg.type === 'string' ? pkg.type : undefined,
  };
}

/**
 * The project's specs, then the runtime's built-in ones as modules to extend (unless the folder is
 * the built-in one: this repository generating itself).
 */
function loadSources(cwd: string, specDir: string, runtime: RuntimeLocation): SpecSource[] {
  const own = readSpecs(cwd, specDir);
  if (!existsSync(runtime.specsDir) || (existsSync(specDir) && realpathSync(specDir) === realpathSync(runtime.specsDir))) return own;
  const builtIn = readSpecs(cwd, runtime.specsDir).map((s) => ({ ...s, module: runtime.moduleOf(s.file.replace(/^.*\//, '').replace(/\.ya?ml$/, '')) }));
  return [...own, ...builtIn];
}

function runtimeFor(cwd: string, outDir: string): RuntimeLocation {
  const runtime = locateRuntime(cwd, outDir);
  if (!runtime) fail('the runtime package "wireforge" is not installed in this project: add it (npm install wireforge) beside this CLI', 1);
  return runtime;
}

function readSpecs(cwd: string, specDir: string): SpecSource[] {
  if (!existsSync(specDir)) return [];
  if (!statSync(specDir).isDirectory()) fail(`${relative(cwd, specDir) || specDir} is a file; --specs takes the folder of spec files`);
  return readdirSync(specDir)
    .filter((f) => f.endsWith('.yaml') || f.endsWith('.yml'))
    .sort()
    .map((f) => ({ file: relative(cwd, join(specDir, f)).split('\\').join('/'), text: readFileSync(join(specDir, f), 'utf8') }));
}

function fail(message: string, code = 2): never {
  throw new Exit(code, message);
}

/** Runs one command; resolves with its exit code (0 when it succeeded). */
export async function main(argv: string[], io: CliIO = processIO()): Promise<number> {
  try {
    await run(argv, io);
    return 0;
  } catch (e) {
    if (!(e instanceof Exit)) throw e;
    if (e.message) io.err(e.message);
    return e.code;
  }
}

async function run(argv: string[], io: CliIO): Promise<void> {
  const out = io.out;
  if (argv[0] === '--version' || argv[0] === '-v') return out(version());
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') return out(help(argv[1]));
  // No command but options: `gen` (what `pnpm gen` has always run).
  const command = argv[0]!.startsWith('-') ? 'gen' : argv[0]!;
  const rest = argv[0]!.startsWith('-') ? argv : argv.slice(1);
  if (!COMMANDS[command]) {
    const hint = didYouMean(command, Object.keys(COMMANDS));
    fail(`unknown command "${command}"${hint ? `; ${hint}` : ''}\n\n${help()}`);
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      strict: true,
      allowPositionals: command === 'validate' || command === 'new' || command === 'serve',
      options: {
        help: { type: 'boolean', short: 'h' },
        check: { type: 'boolean' },
        timings: { type: 'boolean' },
        js: { type: 'boolean' },
        notes: { type: 'string' },
        specs: { type: 'string' },
        out: { type: 'string' },
        docs: { type: 'string' },
        'runtime-import': { type: 'string' },
        extends: { type: 'string' },
        port: { type: 'string' },
        script: { type: 'string' },
        key: { type: 'string' },
        listen: { type: 'string' },
        upstream: { type: 'string' },
        'upstream-url': { type: 'string' },
        host: { type: 'string' },
        token: { type: 'string' },
        'key-from': { type: 'string' },
        config: { type: 'string' },
        'max-retries': { type: 'string' },
        'timeout-ms': { type: 'string' },
        'body-limit': { type: 'string' },
        insecure: { type: 'boolean' },
        cors: { type: 'boolean' },
        'cors-origin': { type: 'string', multiple: true },
      },
    });
  } catch (e) {
    fail(`${e instanceof Error ? e.message : String(e)}\n${COMMANDS[command]!.usage}`);
  }
  const a = parsed.values;
  // One table parses every command: an option of another command is refused, not ignored.
  const foreign = Object.keys(a).find((k) => !optionsOf(command).includes(k));
  if (foreign !== undefined) fail(`wireforge ${command} takes no --${foreign}\n${COMMANDS[command]!.usage}`);
  if (a.help) return out(help(command));
  const cwd = io.cwd;
  const d = projectDefaults(cwd);
  const specs = a.specs ?? d.specs;
  const outDir = resolve(cwd, a.out ?? d.out);
  if (command === 'validate') return validate(io, specs, parsed.positionals, runtimeFor(cwd, outDir));
  if (command === 'new') return scaffold(io, specs, parsed.positionals, a.extends, runtimeFor(cwd, outDir));
  if (command === 'serve' || command === 'gateway') return serveUntilStopped(io, command, a, parsed.positionals, specs, runtimeFor(cwd, outDir));
  const notes = a.notes ?? 'own';
  if (notes !== 'own' && notes !== 'all' && notes !== 'none') fail(`--notes takes own, all or none, not ${JSON.stringify(notes)}\n${COMMANDS[command]!.usage}`);
  return gen(
    io,
    { check: command === 'check' || a.check === true, timings: a.timings === true, specs, out: a.out ?? d.out, docs: a.docs ?? d.docs, runtimeImport: a['runtime-import'], js: a.js ?? d.js, notes, packageType: d.type },
    runtimeFor(cwd, outDir),
  );
}

/**
 * The ids `serve` and `gateway` take: the project's own specs (from its spec folder, loaded as
 * modules) and the runtime's built-in ones; an unknown id is refused naming both lists.
 */
async function specLookup(cwd: string, specs: string, runtime: RuntimeLocation): Promise<SpecLookup & { own: Map<string, ServedSpec> }> {
  const specDir = resolve(cwd, specs);
  const builtIn = existsSync(runtime.specsDir) ? readdirSync(runtime.specsDir).filter((f) => /\.ya?ml$/.test(f)).map((f) => f.replace(/\.ya?ml$/, '')).sort() : [];
  // This repository serving itself: its spec folder is the built-in one.
  const builtInFolder = existsSync(specDir) && existsSync(runtime.specsDir) && realpathSync(specDir) === realpathSync(runtime.specsDir);
  let own = new Map<string, ServedSpec>();
  if (!builtInFolder && readSpecs(cwd, specDir).length) {
    const folder = scratchFolder(cwd, runtime.version === 'source');
    try {
      const here = locateRuntime(cwd, folder)!;
      own = await loadOwnSpecs(loadSources(cwd, specDir, here), here, folder);
    } catch (e) {
      if (e instanceof Exit) throw e;
      fail(e instanceof Error ? e.message : String(e), 1);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }
  const lookup: SpecLookup = (id, role) => {
    const mine = own.get(id);
    if (mine) return mine;
    if (builtIn.includes(id)) return id;
    const hint = didYouMean(id, [...own.keys(), ...builtIn]);
    return fail(`${role ? `${role}: ` : ''}no spec "${id}"${hint ? `; ${hint}` : ''}\n  built in: ${builtIn.join(', ')}\n  yours (${specs}/): ${[...own.keys()].sort().join(', ') || 'none'}`, 1);
  };
  // A gateway config names its specs itself: it checks them with the project's own among the built-in ones.
  return Object.assign(lookup, { own });
}

/** The gateway config read like a spec (YAML or JSON, positions for every value); a syntax error stops here, located. */
function readGatewayConfig(cwd: string, name: string): Pick<GatewayConfigArgs, 'file' | 'doc' | 'locate'> {
  const path = resolve(cwd, name);
  const file = relative(cwd, path) || name;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return fail(`cannot read the gateway config ${file}`, 1);
  }
  const parsed = parseSpec(file, text);
  if (parsed.diagnostics.length) fail(parsed.diagnostics.map(formatDiagnostic).join('\n'), 1);
  return { file, doc: parsed.doc, locate: (pointer, key) => positionOf(parsed, pointer, key) };
}

async function serveUntilStopped(io: CliIO, command: 'serve' | 'gateway', a: Record<string, string | boolean | string[] | undefined>, ids: string[], specs: string, runtime: RuntimeLocation): Promise<void> {
  const { cwd, out } = io;
  const str = (k: string) => (typeof a[k] === 'string' ? (a[k] as string) : undefined);
  // --cors: any origin; --cors-origin (repeatable): those only.
  const origins = Array.isArray(a['cors-origin']) ? a['cors-origin'] : [];
  const cors = origins.length ? { cors: origins } : a.cors === true ? { cors: true as const } : {};
  const port = str('port') === undefined ? undefined : Number(str('port'));
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port < 65536)) fail(`--port takes a port number, not ${JSON.stringify(str('port'))}`);
  let stop: () => Promise<void>;
  try {
    if (command === 'serve') {
      if (!ids.length) fail(`name the specs to serve\n${COMMANDS.serve!.usage}`);
      const lookup = await specLookup(cwd, specs, runtime);
      stop = await serveCommand(cwd, runtime, { ids, ...(port !== undefined ? { port } : {}), ...(str('script') ? { script: str('script')! } : {}), ...(str('key') ? { key: str('key')! } : {}), ...cors }, out, lookup);
    } else if (str('config') !== undefined) {
      if (str('listen') || str('upstream')) fail(`--config holds the listen protocols and the routes: leave out --listen and --upstream\n${COMMANDS.gateway!.usage}`);
      stop = await gatewayConfigCommand(cwd, runtime, { ...readGatewayConfig(cwd, str('config')!), insecure: a.insecure === true, ...(str('host') ? { host: str('host')! } : {}), ...(port !== undefined ? { port } : {}) }, out, await specLookup(cwd, specs, runtime));
    } else {
      if (!str('listen') || !str('upstream')) fail(`--listen and --upstream name the two protocols\n${COMMANDS.gateway!.usage}`);
      const args: GatewayArgs = { listen: str('listen')!, upstream: str('upstream')!, insecure: a.insecure === true, ...cors };
      for (const [k, to] of [['upstream-url', 'upstreamUrl'], ['host', 'host'], ['token', 'token'], ['key-from', 'keyFrom']] as const) if (str(k) !== undefined) args[to] = str(k)!;
      if (port !== undefined) args.port = port;
      // Counts: whole numbers; a timeout or a body limit of 0 would refuse everything.
      for (const [k, to, least] of [['max-retries', 'maxRetries', 0], ['timeout-ms', 'timeoutMs', 1], ['body-limit', 'bodyLimit', 1]] as const) {
        const v = str(k);
        if (v === undefined) continue;
        const n = Number(v);
        if (!/^\d+$/.test(v) || !Number.isSafeInteger(n) || n < least) fail(`--${k} takes a whole number${least ? ' above 0' : ''}, not ${JSON.stringify(v)}`);
        args[to] = n;
      }
      stop = await gatewayCommand(cwd, runtime, args, out, await specLookup(cwd, specs, runtime));
    }
  } catch (e) {
    if (e instanceof Exit) throw e;
    fail(e instanceof Error ? e.message : String(e), 1);
  }
  await io.untilStopped();
  await stop();
}

async function gen(
  io: CliIO,
  options: { check: boolean; timings: boolean; specs: string; out: string; docs: string | undefined; runtimeImport: string | undefined; js: boolean; notes: 'own' | 'all' | 'none'; packageType: string | undefined },
  runtime: RuntimeLocation,
): Promise<void> {
  const { cwd, out, err } = io;
  const specDir = resolve(cwd, options.specs);
  const outDir = resolve(cwd, options.out);
  const sources = loadSources(cwd, specDir, runtime);
  if (!sources.some((s) => s.module === undefined)) fail(`no spec files (*.yaml) in ${options.specs}/: write one, or start from \`wireforge new <id> --extends openai-chat\``, 1);
  const t0 = performance.now();
  // Generated code imports the kit of the runtime it will run against (the installed package's
  // public subpath; this repository's source when run here). Files are type-checked against it
  // before they are written (check writes nothing, and only compares).
  const runtimeImport = options.runtimeImport ?? runtime.kitImport;
  const result = await generate(sources, {
    runtimeImport,
    runtimeEntry: runtime.entry,
    builtInEntry: runtime.adaptersEntry,
    serveEntry: runtime.serveEntry,
    builtInServes: runtime.servesEntry,
    kitNames: kitNames(runtime.kitFile),
    typeCheckAt: options.check ? undefined : outDir,
  });
  if (result.diagnostics.length) {
    for (const dg of result.diagnostics) err(formatDiagnostic(dg));
    fail(`\n${paint(io, 31, `${result.diagnostics.length} problem(s)`)}; nothing written.`, 1);
  }
  // A JavaScript project gets the same modules compiled: .js for Node, .d.ts for editors and checkers.
  let files = result.files;
  if (options.js) {
    const compiled = await toJavaScript(result.files, outDir);
    if (compiled.problems.length) fail(`the generated code did not compile to JavaScript (a generator bug; report it with the specs):\n${compiled.problems.join('\n')}`, 1);
    files = compiled.files;
  }
  // Only files this generator wrote (its banner) can be stale: anything else in the folder is the
  // user's. Switching between --js and TypeScript removes the other form's files.
  const existing = existsSync(outDir) ? readdirSync(outDir).filter((f) => /\.(ts|js)$/.test(f) && readFileSync(join(outDir, f), 'utf8').slice(0, 200).includes('Generated by wireforge')) : [];
  const stale = existing.filter((f) => !files.has(f));
  const docsDir = options.docs ? resolve(cwd, options.docs) : undefined;
  const outputs: Array<[string, string, string]> = [
    ...[...files].map(([n, t]): [string, string, string] => [join(outDir, n), `${options.out}/${n}`, t]),
    ...(docsDir ? [...result.docs].map(([n, t]): [string, string, string] => [join(docsDir, n), `${options.docs}/${n}`, t]) : []),
  ];
  const created = outputs.filter(([path]) => !existsSync(path));
  const updated = outputs.filter(([path, , text]) => existsSync(path) && readFileSync(path, 'utf8') !== text);
  if (options.check) {
    if (created.length || updated.length || stale.length) {
      for (const [, shown] of [...created, ...updated]) err(`out of date: ${shown}`);
      for (const n of stale) err(`stale (no spec): ${options.out}/${n}`);
      fail(`${options.out}/${options.docs ? ` or ${options.docs}/` : ''} does not match the specs: run \`wireforge gen${options.js ? ' --js' : ''}\` (\`pnpm gen\` in this repository).`, 1);
    }
    return out(`${options.out}/ is up to date (${files.size} files).`);
  }
  mkdirSync(outDir, { recursive: true });
  if (docsDir) mkdirSync(docsDir, { recursive: true });
  for (const n of stale) rmSync(join(outDir, n));
  for (const [path, , text] of [...created, ...updated]) writeFileSync(path, text);
  const ms = Math.round(performance.now() - t0);
  for (const [, shown] of created) out(`${paint(io, 32, 'created')} ${shown}`);
  for (const [, shown] of updated) out(`${paint(io, 33, 'updated')} ${shown}`);
  for (const n of stale) out(`${paint(io, 31, 'removed')} ${options.out}/${n} (no spec)`);
  const changed = created.length + updated.length + stale.length;
  out(
    `${changed ? `wrote ${created.length + updated.length} file(s)` : 'nothing changed'}: ${files.size} files in ${options.out}/${docsDir ? ` and ${result.docs.size} in ${options.docs}/` : ''} from ${sources.filter((s) => s.module === undefined).length} specs, in ${ms} ms`,
  );
  if (options.js && options.packageType !== 'module' && created.length + updated.length > 0) {
    out(`${paint(io, 33, 'hint')} the .js files are ES modules: set "type": "module" in package.json, or Node reads them as such only after a failed CommonJS parse (with a warning)`);
  }
  // What a mock server or gateway reading these wires gets back differently: said once, where it
  // comes from. The project's own specs by default; a base of the runtime's is not the user's to fix.
  const own = new Set(sources.filter((s) => s.module === undefined).map((s) => s.file));
  const shown = options.notes === 'all' ? result.notes : options.notes === 'none' ? [] : result.notes.filter((n) => own.has(n.file));
  const hidden = result.notes.length - shown.length;
  if (shown.length) out(`${shown.length} note(s) on reading requests back (the server side; docs/serving.md):`);
  for (const n of shown) out(`  ${paint(io, 36, 'note')} ${formatDiagnostic(n)}`);
  if (hidden && options.notes === 'own') out(`${hidden} more note(s) on the built-in specs yours extend: --notes all shows them`);
  if (options.timings) for (const [stage, t] of Object.entries(result.timings)) out(`  ${stage.padEnd(9)} ${t.toFixed(1)} ms`);
}

/** The problems of the given files, judged with the rest of the spec folder (for `extends`). */
async function validate(io: CliIO, specs: string, files: string[], runtime: RuntimeLocation): Promise<void> {
  const { cwd, out, err } = io;
  if (files.length === 0) fail(COMMANDS.validate!.usage);
  const given = files.map((f) => {
    const path = resolve(cwd, f);
    if (!existsSync(path)) fail(`${f}: no such file`, 1);
    return { file: relative(cwd, path).split('\\').join('/'), text: readFileSync(path, 'utf8') };
  });
  const names = new Set(given.map((g) => g.file));
  const sources = [...loadSources(cwd, resolve(cwd, specs), runtime).filter((s) => !names.has(s.file)), ...given];
  const result = await generate(sources, { kitNames: kitNames(runtime.kitFile) });
  const mine = result.diagnostics.filter((dg) => names.has(dg.file));
  for (const dg of mine) err(formatDiagnostic(dg));
  if (mine.length) {
    fail(`\n${paint(io, 31, `${mine.length} problem(s)`)} in ${given.length} file(s).`, 1);
  }
  for (const g of given) out(`${paint(io, 32, 'ok')} ${g.file}`);
}

/** A spec that extends `base`, with every unified field's disposition listed (inherited, as comments). */
async function scaffold(io: CliIO, specs: string, positionals: string[], base: string | undefined, runtime: RuntimeLocation): Promise<void> {
  const { cwd, out } = io;
  const [id] = positionals;
  if (!id || positionals.length > 1) fail(COMMANDS.new!.usage);
  if (!/^[a-z][a-z0-9-]*$/.test(id)) fail(`"${id}" is not a spec id: lower-case letters, digits and dashes, starting with a letter`);
  const specDir = resolve(cwd, specs);
  const file = join(specDir, `${id}.yaml`);
  const shown = relative(cwd, file).split('\\').join('/');
  if (existsSync(file)) fail(`${shown} exists already; nothing written`, 1);
  // The editor's schema: the runtime's own (the installed package's in a user's project), from the spec's folder.
  const schemaRef = relative(specDir, runtime.schemaFile).split('\\').join('/');
  const schema = schemaRef.startsWith('.') ? schemaRef : `./${schemaRef}`;
  if (base === undefined) {
    mkdirSync(specDir, { recursive: true });
    writeFileSync(file, scratchSpec(id, { schema, docs: relative(cwd, runtime.docsFile).split('\\').join('/') }));
    out(`${paint(io, 32, 'created')} ${shown} (from scratch: every section, commented)`);
    out(`next: rename its fields to your provider's, then run wireforge validate and wireforge gen`);
    return;
  }
  const sources = loadSources(cwd, specDir, runtime);
  // The base is built like a spec of the project here (its IR is what the scaffold lists).
  const result = await generate(sources.map((s) => (s.module !== undefined && s.file.endsWith(`/${base}.yaml`) ? { ...s, module: undefined } : s)), { kitNames: kitNames(runtime.kitFile) });
  const ir = result.irs.find((x) => x.id === base);
  if (!ir) {
    // The built-in ids and the project's (a built-in spec nothing extends is not among the IRs).
    const stem = (s: SpecSource) => s.file.replace(/^.*\//, '').replace(/\.ya?ml$/, '');
    const builtIn = sources.filter((s) => s.module !== undefined).map(stem).sort();
    const yours = [...new Set([...result.irs.map((x) => x.id), ...sources.filter((s) => s.module === undefined).map(stem)])].filter((id) => !builtIn.includes(id)).sort();
    const hint = didYouMean(base, [...yours, ...builtIn]);
    const lists = hint ? '' : `\n  built in: ${builtIn.join(', ') || 'none'}\n  yours (${specs}/): ${yours.join(', ') || 'none'}`;
    fail(`no spec "${base}" to extend${hint ? `; ${hint}` : ''}${result.diagnostics.length ? ` (${result.diagnostics.length} problem(s) in the folder: run wireforge validate)` : ''}${lists}`, 1);
  }
  const params = ir.profile.request.params;
  const lines = [
    `# yaml-language-server: $schema=${schema}`,
    `# ${id}: ${ir.profile.name}'s wire with what differs. The reference: ${relative(cwd, runtime.docsFile).split('\\').join('/')}.`,
    `id: ${id}`,
    `extends: ${base}`,
    `name: ${id}`,
    '',
    'endpoint:',
    `  baseUrl: ${ir.profile.endpoint.baseUrl ?? 'https://api.example.com/v1'}   # where your provider listens`,
    `  apiKeyEnv: ${id.toUpperCase().replace(/-/g, '_')}_API_KEY`,
    '',
    '# What becomes of every unified request field: each line is what this spec inherits from',
    `# ${base}. To change one, uncomment \`request:\`, \`params:\` and that line, then map the field`,
    '# elsewhere, drop it or reject it (the others stay inherited).',
    '# request:',
    '#   params:',
    ...PARAM_FIELDS.map((f) => `#     ${f}: ${describeParam(params[f])}`),
    '',
  ];
  mkdirSync(specDir, { recursive: true });
  writeFileSync(file, lines.join('\n'));
  out(`${paint(io, 32, 'created')} ${shown} (extends ${base})`);
  out(`next: set endpoint.baseUrl and apiKeyEnv, then run wireforge gen`);
}

function describeParam(p: ParamRule | undefined): string {
  if (p === undefined) return '{ drop: not carried }';
  if ('drop' in p) return `{ drop: ${JSON.stringify(p.drop)} }`;
  if ('reject' in p) return `{ reject: ${JSON.stringify(p.reject)} }`;
  if ('carriedBy' in p) return `(carried by ${p.carriedBy})`;
  return p.to.join('.');
}

// Run as the `wireforge` command (the npm bin's symlink resolved), not when imported.
if (process.argv[1] !== undefined && existsSync(process.argv[1]) && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => {
      if (code !== 0) process.exit(code);
    },
    (e: unknown) => {
      process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exit(1);
    },
  );
}
