/**
 * `pnpm bench` [--quick] [--stream | --gateway] [--only openai-chat,anthropic-messages] [--no-write]
 * `--stream`: only the streaming comparisons (both GC modes) and the targets they are judged on.
 * `--gateway`: only the gateway over loopback (per-event overhead, first byte; blocking requests at
 * 1–200 concurrent clients), printed as it runs;
 * no report is written (for working on the gateway: a few seconds with --quick).
 * `pnpm bench --report [FILE]`: re-render a saved run (default bench/results/latest.json; every run also
 * leaves bench/.cache/last.json), measuring nothing.
 *
 * Every comparison runs in its own process (node --expose-gc over a precompiled worker):
 * warm-up, several timed runs, median. Ratios are against the floor measured in the same run.
 * The report goes to stdout and (full runs) to bench/results/latest.md.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { KINDS, PROTOCOLS, type Kind, type Protocol } from './bodies.js';
import type { MemoryJob, MemoryResult } from './memory.js';
import { METHOD_LABEL, methodsFor, OBJECT_ARGUMENTS, type Method } from './methods.js';
import type { MicroJob, MicroRow } from './micro.js';
import type { ValidateJob, ValidateRow } from './validate-arguments.js';
import type { CloudJob, CloudRow } from './cloud.js';
import type { GatewayJob, GatewayRow } from './gateway.js';
import type { GatewayLoadJob, GatewayLoadLevel, GatewayLoadRow } from './gateway-load.js';
import type { LimitsJob, LimitsRow } from './limits.js';
import type { Job, TimeJob, TimeResult } from './worker.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const write = !argv.includes('--no-write');
const streamOnly = argv.includes('--stream');
const gatewayOnly = argv.includes('--gateway');
const onlyArg = argv.find((a) => a.startsWith('--only'));
const only = onlyArg ? (onlyArg.includes('=') ? onlyArg.split('=')[1]! : argv[argv.indexOf(onlyArg) + 1]!).split(',') : undefined;
const protocols = PROTOCOLS.filter((p) => !only || only.includes(p));

const settings = quick
  ? { events: 4000, warmup: 1, runs: 3, minRuns: 3, budgetMs: 1500, memEvents: 4000, microRounds: 3, microCalls: 2000, genRuns: 1, gwEvents: 2000, gwWarmup: 1, gwRounds: 3, gwRequests: 50, gwTtfbWarmup: 20, gwTtfbSteadyWarmup: 300, gwLoadRequests: 200, gwLoadBlocks: 2 }
  : { events: 22000, warmup: 2, runs: 7, minRuns: 3, budgetMs: 2500, memEvents: 22000, microRounds: 7, microCalls: 5000, genRuns: 2, gwEvents: 2000, gwWarmup: 3, gwRounds: 9, gwRequests: 200, gwTtfbWarmup: 50, gwTtfbSteadyWarmup: 1500, gwLoadRequests: 1000, gwLoadBlocks: 4 };

const log = (s: string) => process.stderr.write(`${s}\n`);

// ---------------------------------------------------------------------------------------------

async function buildWorker(): Promise<string> {
  const outfile = join(here, '.cache', 'worker.mjs');
  await esbuild.build({
    entryPoints: [join(here, 'worker.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Peers load from bench/node_modules as published; wireforge's TypeScript is compiled in.
    packages: 'external',
    logLevel: 'warning',
  });
  return outfile;
}

function runJob<T>(worker: string, job: Job): T | { ok: false; error: string } {
  const r = spawnSync(process.execPath, ['--expose-gc', worker, JSON.stringify(job)], { encoding: 'utf8', timeout: 240_000, maxBuffer: 1 << 24 });
  const line = r.stdout?.trim().split('\n').pop();
  if (r.status !== 0 || !line) return { ok: false, error: `exit ${r.status ?? r.signal}: ${(r.stderr || '').trim().split('\n').slice(-3).join(' | ').slice(0, 300)}` };
  try {
    return JSON.parse(line) as T;
  } catch {
    return { ok: false, error: `bad output: ${line.slice(0, 200)}` };
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

// ---------------------------------------------------------------------------------------------

interface Cell {
  ms: number;
  ok: boolean;
  runs: number;
  error?: string;
}
interface Row {
  protocol: Protocol;
  kind: Kind;
  events: number;
  bytes: number;
  cells: Partial<Record<Method, Cell>>;
  /** The same, with a full GC before each timed run (absent in results from before it was measured). */
  fullGc?: Partial<Record<Method, Cell>>;
  /** wireforge's two readings against the floor they are judged on, paired in one process, per GC mode. */
  paired?: Record<'minor' | 'major', Partial<Record<Method, PairCell>>>;
}

/** A paired measurement: the median of per-round ratios (method / floor) over two processes. */
interface PairCell {
  ratio: number;
  ok: boolean;
  rounds: number;
  error?: string;
}

/** wireforge's readings, each paired with its floor in two processes; the median of all their rounds' ratios. */
function pair(worker: string, row: Row, against: Method, gc: 'minor' | 'major'): Partial<Record<Method, PairCell>> {
  const out: Partial<Record<Method, PairCell>> = {};
  const { protocol, kind } = row;
  for (const method of ['wf-stream', 'wf-iter'] as const) {
    const ratios: number[] = [];
    let ok = true;
    let error: string | undefined;
    for (let p = 0; p < 2; p++) {
      const job: TimeJob = { mode: 'time', protocol, kind, method, events: settings.events, warmup: settings.warmup, runs: settings.runs, minRuns: settings.minRuns, budgetMs: settings.budgetMs, gc, against };
      const r = runJob<TimeResult>(worker, job) as Partial<TimeResult> & { ok: boolean; error?: string };
      ok &&= r.ok;
      error ??= r.error;
      ratios.push(...(r.ratios ?? []));
    }
    out[method] = { ratio: ratios.length ? median(ratios) : NaN, ok, rounds: ratios.length, ...(error ? { error } : {}) };
    log(`  ${protocol}/${kind} ${method} / ${against}, paired${gc === 'major' ? ' (full GC)' : ''}: ${out[method]!.ratio.toFixed(2)}× over ${ratios.length} rounds${ok ? '' : ` ✗ ${error ?? ''}`}`);
  }
  return out;
}

/** What the full-GC mode measures: the floors and wireforge's two ways of reading a stream. */
const FULL_GC_METHODS: Method[] = ['floor', 'floor-args', 'wf-stream', 'wf-iter'];

/** A method's cell measured in two processes, in the order A..Z then Z..A; the lower median is kept. */
function measure(worker: string, row: Row, methods: Method[], gc: 'minor' | 'major'): Partial<Record<Method, Cell>> {
  const cells: Partial<Record<Method, Cell>> = {};
  const { protocol, kind } = row;
  for (const method of [...methods, ...[...methods].reverse()]) {
    const job: TimeJob = { mode: 'time', protocol, kind, method, events: settings.events, warmup: settings.warmup, runs: settings.runs, minRuns: settings.minRuns, budgetMs: settings.budgetMs, gc };
    const t0 = performance.now();
    const r = runJob<TimeResult>(worker, job);
    const res = r as Partial<TimeResult> & { ok: boolean; error?: string };
    const cell: Cell = { ms: res.times?.length ? median(res.times) : NaN, ok: res.ok, runs: res.times?.length ?? 0, error: res.error };
    if (!res.ok && !res.error && res.digest) cell.error = `incomplete parse: got ${JSON.stringify(res.digest)} want ${JSON.stringify(res.expect)}`;
    const prev = cells[method];
    // A failed measurement never replaces a good one; between good ones the lower median wins.
    if (!prev || (cell.ok && (!prev.ok || cell.ms < prev.ms))) cells[method] = cell;
    if (res.events) row.events = res.events;
    if (res.bytes) row.bytes = res.bytes;
    log(`  ${protocol}/${kind} ${method}${gc === 'major' ? ' (full GC)' : ''}: ${Number.isNaN(cell.ms) ? 'failed' : `${cell.ms.toFixed(2)} ms`} ×${cell.runs}${cell.ok ? '' : ` ✗ ${cell.error ?? ''}`} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  }
  return cells;
}

function timeAll(worker: string): Row[] {
  const rows: Row[] = [];
  for (const protocol of protocols) {
    for (const kind of KINDS[protocol]) {
      const row: Row = { protocol, kind, events: 0, bytes: 0, cells: {} };
      // Every method is measured twice, in two processes, in the order A..Z then Z..A, and the
      // lower median is kept: a process that lands on a slow moment (or a worse JIT decision)
      // does not decide a cell, and every method, the floor included, gets the same treatment.
      const extra: Method[] = kind === 'tools' && OBJECT_ARGUMENTS[protocol] ? ['floor-args'] : [];
      row.cells = measure(worker, row, [...methodsFor(protocol), ...extra], 'minor');
      row.fullGc = measure(worker, row, FULL_GC_METHODS.filter((m) => m !== 'floor-args' || extra.length), 'major');
      // The targets are judged on paired ratios (see the report's targets section).
      const against: Method = extra.length ? 'floor-args' : 'floor';
      row.paired = { minor: pair(worker, row, against, 'minor'), major: pair(worker, row, against, 'major') };
      rows.push(row);
    }
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------

interface MemRow {
  label: string;
  split: 1 | 2;
  r: MemoryResult | { ok: false; error: string };
}

function memoryAll(worker: string): MemRow[] {
  const cases: Array<{ protocol: Protocol; kind: Kind; method: MemoryJob['method']; splits: Array<1 | 2> }> = [
    { protocol: 'openai-chat', kind: 'text', method: 'wf-stream', splits: [1, 2] },
    { protocol: 'openai-chat', kind: 'tools', method: 'wf-stream', splits: [1, 2] },
    { protocol: 'anthropic-messages', kind: 'thinking', method: 'wf-stream', splits: [1, 2] },
    { protocol: 'openai-chat', kind: 'text', method: 'keep-all', splits: [1] },
  ];
  const rows: MemRow[] = [];
  for (const c of cases) {
    if (!protocols.includes(c.protocol)) continue;
    for (const split of c.splits) {
      const job: MemoryJob = { mode: 'memory', protocol: c.protocol, kind: c.kind, events: settings.memEvents, split, method: c.method, every: 4 };
      const r = runJob<MemoryResult>(worker, job);
      const label = `${c.method === 'keep-all' ? 'reference: keep every parsed event' : 'wireforge stream()'} · ${c.protocol} ${c.kind}`;
      rows.push({ label, split, r });
      log(`  memory ${label} split=${split}: ${'peak' in r ? `${kb(r.peak)} peak` : r.error}`);
    }
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------

function genTiming(): { wall: number[]; internal: number[]; error?: string } {
  const out = mkdtempSync(join(tmpdir(), 'wireforge-gen-'));
  const wall: number[] = [];
  const internal: number[] = [];
  try {
    for (let i = 0; i < settings.genRuns; i++) {
      const t0 = performance.now();
      // --out to a temp dir: the full pipeline, without touching generated/.
      const r = spawnSync('pnpm', ['gen', '--out', out], { cwd: root, encoding: 'utf8' });
      const ms = performance.now() - t0;
      if (r.status !== 0) return { wall, internal, error: (r.stderr || r.stdout).trim().split('\n').slice(-2).join(' | ') };
      wall.push(ms);
      const m = /in (\d+) ms/.exec(r.stdout);
      if (m) internal.push(Number(m[1]));
    }
    return { wall, internal };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------

/** caller (listen) → gateway → upstream pairs; the identity pair shows the hop with no translation. */
const GATEWAY_PAIRS: Array<[Protocol, Protocol]> = [
  ['openai-chat', 'anthropic-messages'],
  ['anthropic-messages', 'openai-chat'],
  ['openai-chat', 'openai-chat'],
];

type GatewayCell = GatewayRow | { ok: false; listen: string; upstream: string; error: string };

/** One process per pair: mock, gateway and client together in it. */
function gatewayAll(worker: string): GatewayCell[] {
  const out: GatewayCell[] = [];
  for (const [listen, upstream] of GATEWAY_PAIRS) {
    if (!protocols.includes(listen) || !protocols.includes(upstream)) continue;
    const t0 = performance.now();
    const job: GatewayJob = { mode: 'gateway', listen, upstream, events: settings.gwEvents, warmup: settings.gwWarmup, rounds: settings.gwRounds, requests: settings.gwRequests, ttfbWarmup: settings.gwTtfbWarmup, ttfbSteadyWarmup: settings.gwTtfbSteadyWarmup };
    const r = runJob<GatewayRow>(worker, job);
    const cell: GatewayCell = 'direct' in r ? r : { ok: false, listen, upstream, error: r.error };
    out.push(cell);
    const per = (ms: number) => `${((ms * 1000) / settings.gwEvents).toFixed(2)} µs/event`;
    log(`  gateway ${listen} → ${upstream}: ${'direct' in cell ? `direct ${per(cell.direct)}, through the gateway ${per(cell.via)}; added ${(((cell.via - cell.direct) * 1000) / settings.gwEvents).toFixed(2)} µs/event (target ≤ 8), body reads ${cell.chunksDirect} / ${cell.chunksVia}; first byte ${(cell.ttfbDirect / 1000).toFixed(2)} / ${(cell.ttfbVia / 1000).toFixed(2)} ms, added ${((cell.ttfbVia - cell.ttfbDirect) / 1000).toFixed(2)} ms; warm ${(cell.ttfbDirectWarm / 1000).toFixed(2)} / ${(cell.ttfbViaWarm / 1000).toFixed(2)} ms, added ${((cell.ttfbViaWarm - cell.ttfbDirectWarm) / 1000).toFixed(2)} ms (target ≤ 1)${cell.ok ? '' : ` ✗ ${cell.error ?? ''}`}` : `✗ ${cell.error}`} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  }
  return out;
}

/** Concurrent clients for the blocking-request ladder; the report's table shows every level. */
const GATEWAY_LOAD_LEVELS = [1, 4, 16, 50, 200];
/** The throughput row: the most requests per second at a level whose added p99 is within this (ms). */
const GATEWAY_LOAD_P99_BUDGET = 10;
/** Targets on the streamed rows (issue 26): added per event, µs; added to the first byte, ms (medians). */
const GATEWAY_EVENT_TARGET = 8;
const GATEWAY_TTFB_TARGET = 1;

/** Blocking requests under load, for the pair that translates (openai-chat callers in front of Anthropic). */
function gatewayLoadAll(worker: string): GatewayLoadRow | { ok: false; error: string } | undefined {
  const [listen, upstream] = GATEWAY_PAIRS[0]!;
  if (!protocols.includes(listen) || !protocols.includes(upstream)) return undefined;
  const t0 = performance.now();
  const job: GatewayLoadJob = { mode: 'gateway-load', listen, upstream, levels: GATEWAY_LOAD_LEVELS, requests: settings.gwLoadRequests, warmup: 50, blocks: settings.gwLoadBlocks };
  const r = runJob<GatewayLoadRow>(worker, job);
  const ms = (x: number) => x.toFixed(2);
  if ('levels' in r) for (const l of r.levels) log(`  blocking ${listen} → ${upstream}, ${l.clients} client(s): added p50 ${ms(l.viaP50 - l.directP50)} ms, p99 ${ms(l.viaP99 - l.directP99)} ms; ${Math.round(l.viaRps)} / ${Math.round(l.directRps)} req/s through / direct${r.ok ? '' : ` ✗ ${r.error ?? ''}`}`);
  else log(`  blocking ${listen} → ${upstream}: ✗ ${r.error}`);
  log(`  (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  return r;
}

// ---------------------------------------------------------------------------------------------

interface BundleRow {
  label: string;
  /** The size budget for this bundle (README, Performance), minified, in bytes (1 KB = 1,024). */
  budget?: number;
  raw: number;
  gzip: number;
  top: string;
  error?: string;
}

/** One process per protocol, as for the streaming cells: the shared runtime code sees one adapter's shapes. */
function microAll(worker: string): MicroRow[] | { error: string } {
  const rows: MicroRow[] = [];
  for (const only of protocols) {
    const res = runJob<MicroRow[]>(worker, { mode: 'micro', rounds: settings.microRounds, calls: settings.microCalls, only } satisfies MicroJob);
    if (!Array.isArray(res)) return { error: `${only}: ${res.error}` };
    rows.push(...res);
  }
  return rows;
}

/** The same, every protocol in one process one after another: an application calling several providers. */
function microMixed(worker: string): MicroRow[] | { error: string } {
  const res = runJob<MicroRow[]>(worker, { mode: 'micro', rounds: settings.microRounds, calls: settings.microCalls } satisfies MicroJob);
  return Array.isArray(res) ? res.filter((r) => protocols.includes(r.protocol)) : { error: res.error };
}

async function bundleSizes(): Promise<BundleRow[]> {
  const oneAdapter = `export * from './runtime/index.js'; export { adapter } from './generated/openai-chat.js';`;
  // The bridge's row: generated/loaders.ts stands outside (a bundler that splits loads each spec's module on its first
  // use), and so does @ai-sdk/provider (the app's `ai` already brings it).
  const lazyLoaders: import('esbuild').Plugin = { name: 'lazy-loaders', setup: (b) => b.onResolve({ filter: /\/loaders\.js$/ }, (a) => ({ path: a.path, external: true })) };
  const build = async (label: string, entry: string, external: string[], plugins: import('esbuild').Plugin[] = []): Promise<BundleRow> => {
    try {
      const r = await esbuild.build({
        plugins,
        stdin: { contents: entry, resolveDir: root, loader: 'ts', sourcefile: 'entry.ts' },
        bundle: true,
        minify: true,
        format: 'esm',
        platform: 'browser',
        target: 'es2022',
        write: false,
        metafile: true,
        external,
        logLevel: 'silent',
      });
      const code = r.outputFiles[0]!.contents;
      const inputs = Object.values(r.metafile.outputs)[0]!.inputs;
      const byPkg = new Map<string, number>();
      for (const [file, v] of Object.entries(inputs)) {
        const key = file.includes('node_modules/') ? `${file.split('node_modules/').pop()!.split('/').slice(0, file.includes('node_modules/@') ? 2 : 1).join('/')} (dep)` : file.split('/').slice(0, 2).join('/');
        byPkg.set(key, (byPkg.get(key) ?? 0) + v.bytesInOutput);
      }
      const top = [...byPkg].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([k, v]) => `${k} ${kb(v)}`).join(', ');
      return { label, raw: code.length, gzip: gzipSync(code, { level: 9 }).length, top };
    } catch (e) {
      return { label, raw: NaN, gzip: NaN, top: '', error: e instanceof Error ? e.message.split('\n')[0] : String(e) };
    }
  };
  const rows: BundleRow[] = [
    { ...(await build('runtime + openai-chat adapter, no tool loop (createClientFor and one adapter)', `export { createClientFor } from './runtime/index.js'; export { adapter } from './generated/openai-chat.js';`, [])), budget: 40 * 1024 },
    // The validator is loaded with import() on the first tool call that has a schema: a bundler that splits chunks makes it its own.
    { ...(await build('runtime + openai-chat adapter with the tool loop (runtime/index.ts and one adapter), the schema validator its own chunk', oneAdapter, ['@cfworker/json-schema'])), budget: 60 * 1024 },
    await build('same, with the schema validator inlined', oneAdapter, []),
    await build('runtime + all adapters (the package entry, generated/index.ts)', `export * from './generated/index.js';`, []),
  ];
  // wireforge/ai-sdk's languageModel and one adapter: at most 8 KB more than the adapter alone (the first row).
  const core = rows[0]!;
  rows.push({ ...(await build('languageModel (wireforge/ai-sdk) + openai-chat adapter; built-in specs loaded on use, @ai-sdk/provider from the app\'s `ai`', `export { languageModel } from './ai-sdk/index.js'; export { adapter } from './generated/openai-chat.js';`, ['@ai-sdk/provider'], [lazyLoaders])), budget: core.raw + 8 * 1024 });
  return rows;
}

// ---------------------------------------------------------------------------------------------

function kb(n: number): string {
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(2)} MB` : `${(n / 1024).toFixed(1)} KB`;
}

function ratio(x: number, floor: number): string {
  return Number.isFinite(x) && Number.isFinite(floor) && floor > 0 ? `${(x / floor).toFixed(2)}×` : '—';
}

function versions(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pkg of ['ai', '@ai-sdk/openai', '@ai-sdk/anthropic', '@ai-sdk/google', 'openai', '@anthropic-ai/sdk', '@google/genai', 'eventsource-parser', 'esbuild']) {
    try {
      out[pkg] = (JSON.parse(readFileSync(join(here, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
    } catch {
      out[pkg] = '?';
    }
  }
  return out;
}

/** Everything a report is made from: saved beside it (results/latest.json), so it can be re-rendered (--report FILE). */
interface Results {
  quick: boolean;
  settings: typeof settings;
  date: string;
  node: string;
  cores: number;
  cpu: string;
  load: [number, number];
  /** CPU time other processes used during the run, as a share of one core (undefined where /proc is missing). */
  othersCpu?: number;
  seconds: number;
  versions: Record<string, string>;
  rows: Row[];
  /** A `--stream` run: only the streaming comparisons were measured. */
  streamOnly?: boolean;
  mem: MemRow[];
  micro: MicroRow[] | { error: string };
  /** All protocols in one process (absent in results from before it was measured). */
  microMixed?: MicroRow[] | { error: string };
  validation?: ValidateRow | { ok: false; error: string };
  cloud?: CloudRow | { ok: false; error: string };
  /** The gateway over loopback, per listen → upstream pair (absent in results from before it was measured). */
  gateway?: GatewayCell[];
  /** Blocking requests through the gateway at several concurrencies (absent in results from before it was measured). */
  gatewayLoad?: GatewayLoadRow | { ok: false; error: string };
  /** A limit check per request, in memory and on Redis (absent in results from before it was measured). */
  limits?: LimitsRow | { ok: false; error: string };
  gen: ReturnType<typeof genTiming>;
  bundles: BundleRow[];
}

function report(res: Results): string {
  const { quick, settings, rows, mem, micro, gen, bundles, seconds } = res;
  const L: string[] = [];
  const v = res.versions;
  const flags = `${quick ? ' --quick' : ''}${res.streamOnly ? ' --stream' : ''}`;
  L.push(`# wireforge benchmark${flags ? ` (${flags.trim()})` : ''}`);
  L.push('');
  L.push(`\`pnpm bench${flags}\` · ${res.date} · Node ${res.node} · ${res.cores} × ${res.cpu} · ${(seconds / 60).toFixed(1)} min · load average at start / end: ${res.load[0].toFixed(2)} / ${res.load[1].toFixed(2)}`);
  // The bench's own worker and its GC threads raise the load average, so it is no measure of
  // noise; what other processes took from the CPU during the run is.
  if (res.othersCpu !== undefined) {
    // Approximate: machine-wide busy time (os.cpus) less this process tree's (/proc/self/stat); hypervisor steal is not seen.
    const share = res.othersCpu * 100;
    L.push('');
    L.push(`Other processes used about ${share < 1 ? 'under 1' : share.toFixed(0)}% of one core during the run (machine busy time less the bench's own processes; approximate).`);
    if (res.othersCpu > 0.25) L.push('', '> ⚠ The machine was busy during this run: timings are noisy; run again on an idle machine.');
  } else if (Math.max(...res.load) > res.cores * 0.75) {
    L.push('', `> ⚠ Load average above ${(res.cores * 0.75).toFixed(1)} on ${res.cores} cores during this run (the bench itself adds to it): timings may be noisy.`);
  }
  L.push('');
  L.push(`Peers: ${Object.entries(v).map(([k, x]) => `${k} ${x}`).join(', ')}.`);
  L.push('');
  L.push(`## Streaming: median time relative to the floor`);
  L.push('');
  L.push(`Each cell is measured in two processes (the row's methods in order, then in reverse order), and the lower of the two medians is kept, for every method alike. In each process: ${settings.warmup} warm-up run(s) (1 for methods slower than 250 ms a run), then ${settings.runs} timed runs (at least ${settings.minRuns}, fewer past ${settings.budgetMs / 1000} s), median; before each timed run a young-generation GC clears the previous run's short-lived garbage (not a full GC, which would also discard the hidden classes and optimized code of the previous run's events and make every run a cold start). Bodies are generated in memory, ~${settings.events.toLocaleString('en')} events each (whole-call tool bodies of Gemini and Ollama: a quarter as many, larger events) and fed in 16 KB chunks. The floor decodes each chunk, cuts events with indexOf and JSON.parses every payload. Lower is better; — = no such library for the protocol; ✗ = failed or did not return the whole body's content.`);
  L.push('');
  const methods: Method[] = ['floor-args', 'esp', 'wf-decode', 'wf-stream', 'wf-iter', 'sdk', 'sdk-raw', 'ai-doStream', 'ai-streamText'];
  const head = ['body', 'events', 'size', 'floor', 'output floor', 'eventsource-parser', 'wf decode', '**wf stream → final()**', 'wf iterated', 'SDK helper', 'SDK raw', 'AI doStream', 'AI streamText'];
  L.push(`| ${head.join(' | ')} |`);
  L.push(`|${head.map((_, i) => (i < 1 ? '---' : '---:')).join('|')}|`);
  for (const r of rows) {
    const f = r.cells.floor;
    const cells = methods.map((m) => {
      const c = r.cells[m];
      if (!c) return '—';
      if (!c.ok) return Number.isFinite(c.ms) ? `${ratio(c.ms, f?.ms ?? NaN)} ✗` : '✗';
      const s = ratio(c.ms, f?.ms ?? NaN);
      return m === 'wf-stream' ? `**${s}**` : s;
    });
    L.push(`| ${r.protocol} ${r.kind} | ${r.events.toLocaleString('en')} | ${kb(r.bytes)} | ${f && Number.isFinite(f.ms) ? `${f.ms.toFixed(1)} ms` : '✗'} | ${cells.join(' | ')} |`);
  }
  L.push('');
  L.push('Columns: ' + (['floor', ...methods] as Method[]).map((m) => `${m === 'wf-stream' ? '**wf stream**' : m} = ${METHOD_LABEL[m]}`).join('; ') + '. SDK helper: openai `chat.completions.stream().finalChatCompletion()` / `responses.stream().finalResponse()`, Anthropic `messages.stream().finalMessage()`, @google/genai `generateContentStream` iterated (its only stream path).');
  L.push('');

  // Full GC
  if (rows.some((r) => r.fullGc)) {
    L.push('## Streaming with a full GC before each timed run');
    L.push('');
    L.push("The floors and wireforge's two ways of reading a stream again, each in two processes as above, but with a full (major) GC before each timed run: the previous run's hidden classes and optimized code may be discarded, so each run starts nearer to cold, and a longer per-event path (more property reads, more objects per event) shows more than in the warm mode above. Ratios against this mode's own floor.");
    L.push('');
    L.push('| body | floor | output floor | wf stream → final() | wf iterated |');
    L.push('|---|---:|---:|---:|---:|');
    for (const r of rows) {
      const g = r.fullGc;
      if (!g) continue;
      const f = g.floor;
      const cell = (m: Method) => {
        const c = g[m];
        if (!c) return '—';
        return `${ratio(c.ms, f?.ms ?? NaN)}${c.ok ? '' : ' ✗'}`;
      };
      L.push(`| ${r.protocol} ${r.kind} | ${f && Number.isFinite(f.ms) ? `${f.ms.toFixed(1)} ms` : '✗'} | ${cell('floor-args')} | ${cell('wf-stream')} | ${cell('wf-iter')} |`);
    }
    L.push('');
  }

  // Targets
  L.push('## Against the targets (issue 6)');
  L.push('');
  L.push('Stream → final() and iterated are judged against the floor, or for whole-call tool bodies (wires that send tool arguments as objects) against the output floor, which adds the JSON.stringify the unified ToolCall requires; in the warm mode (young-generation GC before each run) and with a full GC before each run. The four judged columns are paired ratios: in one process the wireforge reading and its floor alternate run by run (which goes first alternates too, each run after its GC), a ratio is taken per round, and the cell is the median of the rounds of two such processes, so a slow stretch of a shared machine falls on both sides of a ratio (the separate-process medians above can disagree by more than the target on a busy or throttled machine).');
  L.push('');
  L.push('| body | judged against | final() (≤ 1.5×) | iterated (≤ 1.5×) | final(), full GC | iterated, full GC | speed-up vs AI doStream (≥ 3.5×) | same, wf iterated | vs AI streamText (≥ 10×) | same, wf iterated | vs SDK helper |');
  L.push('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  const misses: string[] = [];
  for (const r of rows) {
    const w = r.cells['wf-stream'];
    const f = r.cells.floor;
    if (!w || !f) continue;
    const outputFloor = r.cells['floor-args'] !== undefined;
    const basis = outputFloor ? 'output floor' : 'floor';
    /** A wireforge method against the floor it is judged on, in one GC mode: the ratio, its cell text, and a miss if over. */
    const judge = (cells: Partial<Record<Method, Cell>> | undefined, m: Method, what: string, gc: 'minor' | 'major' = 'minor'): string => {
      const c = cells?.[m];
      const base = cells?.[outputFloor ? 'floor-args' : 'floor'];
      const p = r.paired?.[gc][m];
      if (p) {
        // Paired in one process: a slow stretch of the machine falls on the method and its floor alike.
        const ok = p.ok && p.ratio <= 1.5;
        if (!ok) misses.push(`${r.protocol} ${r.kind}: ${what} is ${Number.isFinite(p.ratio) ? `${p.ratio.toFixed(2)}×` : 'not measured against'} the ${basis}, paired${p.ok ? '' : ' (failed)'} (target ≤ 1.5×)`);
        return `${Number.isFinite(p.ratio) ? `${p.ratio.toFixed(2)}×` : '—'} ${ok ? '✓' : '✗'}`;
      }
      if (!c || !base) return '—';
      const x = c.ms / base.ms;
      const ok = c.ok && base.ok && x <= 1.5;
      if (!ok) misses.push(`${r.protocol} ${r.kind}: ${what} is ${Number.isFinite(x) ? `${x.toFixed(2)}×` : 'not measured against'} the ${basis}${c.ok ? '' : ' (failed)'} (target ≤ 1.5×)`);
      return `${Number.isFinite(x) ? `${x.toFixed(2)}×` : '—'} ${ok ? '✓' : '✗'}`;
    };
    const speed = (m: Method, base: Cell | undefined = w) => {
      const c = r.cells[m];
      return c && c.ok && Number.isFinite(c.ms) && base && base.ok ? c.ms / base.ms : NaN;
    };
    const ds = speed('ai-doStream');
    const st = speed('ai-streamText');
    const sdk = speed('sdk');
    const dsIt = speed('ai-doStream', r.cells['wf-iter']);
    const stIt = speed('ai-streamText', r.cells['wf-iter']);
    const big = r.protocol === 'openai-chat' || r.protocol === 'anthropic-messages';
    const okDs = !big || !Number.isFinite(ds) || ds >= 3.5;
    const okSt = !big || !Number.isFinite(st) || st >= 10;
    const judged = [judge(r.cells, 'wf-stream', 'stream() → final()'), judge(r.cells, 'wf-iter', 'stream() iterated'), judge(r.fullGc, 'wf-stream', 'stream() → final() with a full GC before each run', 'major'), judge(r.fullGc, 'wf-iter', 'stream() iterated with a full GC before each run', 'major')];
    if (!okDs) misses.push(`${r.protocol} ${r.kind}: ${ds.toFixed(1)}× faster than AI SDK doStream (target ≥ 3.5×)`);
    if (!okSt) misses.push(`${r.protocol} ${r.kind}: ${st.toFixed(1)}× faster than streamText (target ≥ 10×)`);
    if (big && dsIt < 3.5) misses.push(`${r.protocol} ${r.kind} (iterated): ${dsIt.toFixed(1)}× faster than AI SDK doStream (target ≥ 3.5×)`);
    if (big && stIt < 10) misses.push(`${r.protocol} ${r.kind} (iterated): ${stIt.toFixed(1)}× faster than streamText (target ≥ 10×)`);
    const it = r.cells['wf-iter'];
    if (it && !it.ok) misses.push(`${r.protocol} ${r.kind}: iterating stream() failed: ${it.error ?? 'wrong result'}`);
    const fx = (x: number, target: number | undefined) => (Number.isFinite(x) ? `${x.toFixed(1)}×${target === undefined ? '' : x >= target ? ' ✓' : ' ✗'}` : '—');
    const fy = (x: number) => (Number.isFinite(x) ? `${x.toFixed(1)}×` : '—');
    L.push(`| ${r.protocol} ${r.kind} | ${basis} | ${judged.join(' | ')} | ${fx(ds, big ? 3.5 : undefined)} | ${fy(dsIt)} | ${fx(st, big ? 10 : undefined)} | ${fy(stIt)} | ${fx(sdk, undefined)} |`);
  }
  L.push('');
  L.push('Speed-up = the other method\'s median time / wireforge stream()\'s (above 1: wireforge is faster). The speed-up targets (≥ 3.5× doStream, ≥ 10× streamText) apply to the OpenAI Chat and Anthropic bodies; the others are shown for information.');
  L.push('');

  // The AI SDK bridge (issue 25).
  const BRIDGE_OVERHEAD_GUARD = 8;
  if (rows.some((r) => r.cells['bridge-streamText'])) {
    L.push('## Inside the AI SDK: wireforge/ai-sdk');
    L.push('');
    L.push("The same bodies through `streamText` over the official provider and over the bridge's `languageModel` (fullStream consumed), and the bridge's own `doStream` against wireforge's `stream()` iterated (every event made): what the bridge adds to a wireforge stream, and what an AI SDK app gains by using it. Times relative to the floor, as above.");
    L.push('');
    L.push('| body | AI streamText, official provider | AI streamText, bridge | bridge speed-up | wf iterated | bridge doStream | bridge overhead over wf iterated |');
    L.push('|---|---:|---:|---:|---:|---:|---:|');
    for (const r of rows) {
      const c = r.cells;
      if (!c['bridge-streamText']) continue;
      const rel = (m: Method) => {
        const x = c[m];
        return x ? `${ratio(x.ms, c.floor?.ms ?? NaN)}${x.ok ? '' : ' ✗'}` : '—';
      };
      const by = (a: Method, b: Method) => {
        const x = c[a];
        const y = c[b];
        return x && y && x.ok && y.ok ? `${(x.ms / y.ms).toFixed(2)}×` : '—';
      };
      L.push(`| ${r.protocol} ${r.kind} | ${rel('ai-streamText')} | ${rel('bridge-streamText')} | ${by('ai-streamText', 'bridge-streamText')} | ${rel('wf-iter')} | ${rel('bridge-doStream')} | ${by('bridge-doStream', 'wf-iter')} |`);
      for (const m of ['bridge-streamText', 'bridge-doStream'] as const) if (c[m] && !c[m]!.ok) misses.push(`${r.protocol} ${r.kind}: ${METHOD_LABEL[m]} failed: ${c[m]!.error ?? 'wrong result'}`);
      // A guard, not a target: the bridge adds V4 objects per event, but nothing that grows with the body (a snapshot per call once made a body of whole calls 29× wf iterated).
      const over = c['bridge-doStream'] && c['wf-iter'] ? c['bridge-doStream']!.ms / c['wf-iter']!.ms : NaN;
      if (over > BRIDGE_OVERHEAD_GUARD) misses.push(`${r.protocol} ${r.kind}: the bridge's doStream is ${over.toFixed(1)}× wf iterated (guard ≤ ${BRIDGE_OVERHEAD_GUARD}×)`);
    }
    L.push('');
    L.push(`Speed-up = official streamText time / the bridge\'s (above 1: the bridge is faster). Overhead = bridge doStream time / wf iterated (the V4 parts, their block ids and the ReadableStream the AI SDK reads); above ${BRIDGE_OVERHEAD_GUARD}× is listed as a miss (a guard against work that grows with the body).`);
    L.push('');
  }

  // The sections a --stream run does not measure.
  if (!res.streamOnly) {
    // Memory
    L.push('## Memory while streaming');
    L.push('');
    L.push('Live heap (after a full GC, sampled every 4 chunks from inside the body stream) above the baseline taken after the body was generated. "×2 events" is the same output with every text / thinking / argument fragment cut in two events.');
    L.push('');
    L.push('| stream | events | body | output (chars) | peak live growth | peak / output | after final() |');
    L.push('|---|---:|---:|---:|---:|---:|---:|');
    for (const m of mem) {
      if (!('peak' in m.r)) {
        L.push(`| ${m.label}${m.split === 2 ? ' ×2 events' : ''} | ✗ ${m.r.error} | | | | | |`);
        continue;
      }
      const r = m.r;
      L.push(`| ${m.label}${m.split === 2 ? ' ×2 events' : ''} | ${r.events.toLocaleString('en')} | ${kb(r.bytes)} | ${r.output.toLocaleString('en')} | ${kb(r.peak)} | ${(r.peak / r.output).toFixed(1)} B/char | ${kb(r.retained)}${r.ok ? '' : ' ✗'} |`);
    }
    const pairs: string[] = [];
    for (let i = 0; i + 1 < mem.length; i++) {
      const a = mem[i]!;
      const b = mem[i + 1]!;
      if (a.split === 1 && b.split === 2 && 'peak' in a.r && 'peak' in b.r) {
        const extra = b.r.events - a.r.events;
        const per = (x: number, y: number) => `${Math.round((y - x) / extra) || 0} B per extra event`;
        pairs.push(
          `${a.label.split(' · ')[1]}: ×2 events → held after final() ×${(b.r.retained / a.r.retained).toFixed(2)} (${per(a.r.retained, b.r.retained)}), peak ×${(b.r.peak / a.r.peak).toFixed(2)}`,
        );
      }
    }
    const keep = mem.find((m) => m.label.startsWith('reference') && 'peak' in m.r);
    if (pairs.length) {
      L.push('');
      const ref = keep && 'peak' in keep.r ? ` Keeping every parsed event costs ${(keep.r.peak / keep.r.events).toFixed(0)} B per event (the reference row).` : '';
      L.push(`Same output, twice the events: ${pairs.join('; ')}. A stream whose memory followed only the output would show ×1.00. The peak also counts whatever chunk and decoder buffers are alive at the sampled moment, so it is the noisier of the two.${ref}`);
    }
    L.push('');

    // Micro
    L.push('## Build a request, parse a blocking response (µs per call)');
    L.push('');
    if ('error' in micro) L.push(`✗ ${micro.error}`);
    else {
      L.push('Typical call: system prompt, 4 messages (one assistant tool call and its result), 2 tools, maxTokens, temperature; the response is a sentence and one tool call with usage. build = `adapter.buildRequest` + `JSON.stringify` of the body; parse = `JSON.parse` + `readResponse` into a TurnAssembler + `result()`. `chat()` (for context) is the whole client call over an injected fetch: Response, body reading, timers, redaction. Median of rounds. Each protocol is measured in its own process, as the streaming cells are (an application using one provider); the last column runs all of them in one process, one after another (an application calling several: the shared runtime code then sees every adapter\'s shapes and is slower). The target is judged on the first.');
      L.push('');
      L.push('| protocol | build | of which JSON.stringify | parse | of which JSON.parse | **build + parse** (< 10 µs) | client.chat() | build + parse, all protocols in one process |');
      L.push('|---|---:|---:|---:|---:|---:|---:|---:|');
      const mixed = res.microMixed && !('error' in res.microMixed) ? res.microMixed : [];
      for (const m of micro) {
        const sum = m.build + m.parse;
        if (!(sum < 10)) misses.push(`${m.protocol}: build + parse ${sum.toFixed(1)} µs (target < 10 µs)`);
        const x = mixed.find((r) => r.protocol === m.protocol);
        L.push(`| ${m.protocol}${m.ok ? '' : ` ✗ ${m.error ?? 'wrong result'}`} | ${m.build.toFixed(2)} | ${m.jsonStringifyOnly.toFixed(2)} | ${m.parse.toFixed(2)} | ${m.jsonParseOnly.toFixed(2)} | **${sum.toFixed(2)}** ${sum < 10 ? '✓' : '✗'} | ${m.chat.toFixed(1)} | ${x ? (x.build + x.parse).toFixed(2) : '—'} |`);
      }
    }
    L.push('');

    // Tool-argument validation
    if (res.validation) {
      const v = res.validation as ValidateRow;
      L.push('## Checking tool arguments (µs per call: JSON.parse + schema check)');
      L.push('');
      if (!v.ok || !v.interpreting) L.push(`✗ ${v.error ?? 'wrong verdicts'}`);
      else {
        L.push("A typical tool schema (4 properties, an enum, an array of bounded integers, required, no extra properties). The runtime's validator interprets the schema (no code from strings, so `runTools` runs on edge runtimes and under a strict CSP); ajv compiles it with `new Function` (the generator still uses ajv for specs). JSON.parse alone for scale.");
        L.push('');
        L.push('| arguments | interpreting (runtime) | compiled (ajv) | ratio | JSON.parse alone |');
        L.push('|---|---:|---:|---:|---:|');
        L.push(`| valid | ${v.interpreting[0].toFixed(2)} | ${v.compiled[0].toFixed(2)} | ${ratio(v.interpreting[0], v.compiled[0])} | ${v.parseOnly.toFixed(2)} |`);
        L.push(`| invalid (4 errors) | ${v.interpreting[1].toFixed(2)} | ${v.compiled[1].toFixed(2)} | ${ratio(v.interpreting[1], v.compiled[1])} | |`);
      }
      L.push('');
    }

    // Cloud paths
    if (res.cloud) {
      const c = res.cloud as CloudRow;
      L.push('## Cloud paths: AWS event-stream and SigV4');
      L.push('');
      if (!c.ok || c.wireforge === undefined) L.push(`✗ ${c.error ?? 'wrong result'}`);
      else {
        L.push(`A Bedrock ConverseStream body of ${c.events.toLocaleString('en')} text deltas (${(c.bytes / 1024 / 1024).toFixed(2)} MB of event-stream frames, 16 KB chunks) read to \`final()\`, against a floor that cuts frames by their length prefix and JSON.parses each payload (no CRC checks, which the decoder does on every prelude and message). SigV4: one Converse request signed with Web Crypto.`);
        L.push('');
        L.push('| | wireforge | floor | ratio |');
        L.push('|---|---:|---:|---:|');
        L.push(`| event-stream body → final() | ${c.wireforge.toFixed(1)} ms | ${c.floor.toFixed(1)} ms | ${ratio(c.wireforge, c.floor)} |`);
        L.push(`| SigV4 signature per request | ${c.sigv4.toFixed(0)} µs | | |`);
      }
      L.push('');
    }

    // Gateway
    if (res.gateway?.length) {
      const gw = res.gateway;
      const s = res.settings as Partial<typeof settings>;
      const good = gw.filter((g): g is GatewayRow => 'direct' in g && g.ok);
      const n = good[0]?.events ?? s.gwEvents ?? 0;
      const per = (ms: number, events: number) => (Number.isFinite(ms) ? ((ms * 1000) / events).toFixed(2) : '—');
      const pair = (g: { listen: string; upstream: string }) => `${g.listen} → ${g.upstream}`;
      L.push('## Gateway over 127.0.0.1: overhead per event, time to first byte');
      L.push('');
      L.push(
        `A streamed turn of ${n.toLocaleString('en')} text deltas (8 code points each) from a mock server (\`createMockServer\`, node:http), read to \`final()\` by this library's client: **direct** from the mock, in the upstream protocol, and **through the gateway** (\`startGateway\`) in front of the same mock, in the caller's (listen) protocol. Mock, gateway and client share one process and one thread, so each time is the CPU of all of them, loopback sockets included, and the difference is the gateway's own work per event: its client reading upstream, its writer and encoder, and a second HTTP hop. ${s.gwWarmup ?? '?'} warm-up round(s), then ${s.gwRounds ?? '?'} rounds, median; each round reads every way once, in an order that rotates. For scale: the caller's protocol read direct from its own mock, and the client alone reading the same two bodies (as they arrived, chunk by chunk) from an injected fetch, in memory; what direct spends beyond that is the mock and HTTP. µs per text delta; lower is better.`,
      );
      L.push('');
      L.push('| caller → gateway → upstream | direct | through the gateway | **overhead per event** | through / direct | caller\'s protocol, direct | client alone: upstream / caller body | body per event: upstream / caller | body reads: direct / through |');
      L.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
      for (const g of gw) {
        if (!('direct' in g)) {
          L.push(`| ${pair(g)} | ✗ ${g.error} | | | | | | | |`);
          continue;
        }
        const e = g.events;
        const mark = g.ok ? '' : ` ✗ ${g.error ?? 'wrong result'}`;
        const added = ((g.via - g.direct) * 1000) / e;
        if (!(added <= GATEWAY_EVENT_TARGET)) misses.push(`gateway ${pair(g)}: ${Number.isFinite(added) ? added.toFixed(2) : '—'} µs added per streamed event (target ≤ ${GATEWAY_EVENT_TARGET} µs)`);
        L.push(
          `| ${pair(g)}${mark} | ${per(g.direct, e)} | ${per(g.via, e)} | **${per(g.via - g.direct, e)}** | ${ratio(g.via, g.direct)} | ${per(g.directListen, e)} | ${per(g.memDirect, e)} / ${per(g.memVia, e)} | ${Math.round(g.bytesDirect / e)} / ${Math.round(g.bytesVia / e)} B | ${g.chunksDirect} / ${g.chunksVia} |`,
        );
      }
      L.push('');
      const req = good[0]?.requests ?? s.gwRequests ?? 0;
      L.push(
        `Time to first byte: a short turn asked for with fetch, in the wire form the spec's client sends (same pairs, same servers), from the call until the first chunk of the response body arrives; the rest of the body is then read. ${s.gwTtfbWarmup ?? '?'} warm-up requests per side, then ${req} per side, direct and gateway requests alternating (which goes first swaps every time). The gateway answers once upstream's first event is there, so its time holds a whole upstream request as well as its own. Then ${s.gwTtfbSteadyWarmup ?? '?'} more requests per side, untimed, and the same ${req} per side timed again: **warm**, a gateway that has been serving (in a fresh process most of the request path still runs in the interpreter, on both sides; a deployed gateway is past that). The target (≤ ${GATEWAY_TTFB_TARGET} ms added) is judged warm; the fresh figures are shown beside it. ms.`,
      );
      L.push('');
      L.push('| caller → gateway → upstream | fresh: direct / through (median) | fresh: added | warm: direct (median) | warm: through the gateway (median) | **warm: added** | warm: through / direct | warm: direct p90 | warm: through p90 |');
      L.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
      const ms = (us: number) => (Number.isFinite(us) ? (us / 1000).toFixed(2) : '—');
      for (const g of gw) {
        if (!('direct' in g)) {
          L.push(`| ${pair(g)} | ✗ ${g.error} | | | | | | | |`);
          continue;
        }
        const addedMs = (g.ttfbViaWarm - g.ttfbDirectWarm) / 1000;
        if (!(addedMs <= GATEWAY_TTFB_TARGET)) misses.push(`gateway ${pair(g)}: ${Number.isFinite(addedMs) ? addedMs.toFixed(2) : '—'} ms added to the first byte, warm (target ≤ ${GATEWAY_TTFB_TARGET} ms)`);
        L.push(`| ${pair(g)}${g.ok ? '' : ' ✗'} | ${ms(g.ttfbDirect)} / ${ms(g.ttfbVia)} | ${ms(g.ttfbVia - g.ttfbDirect)} | ${ms(g.ttfbDirectWarm)} | ${ms(g.ttfbViaWarm)} | **${ms(g.ttfbViaWarm - g.ttfbDirectWarm)}** | ${ratio(g.ttfbViaWarm, g.ttfbDirectWarm)} | ${ms(g.ttfbDirectWarmP90)} | ${ms(g.ttfbViaWarmP90)} |`);
      }
      // Node warns once per emitter: the count is of responses that passed 10 listeners for one event.
      const leaks = gw.reduce((k, g) => k + ('warnings' in g ? (g.warnings?.MaxListenersExceededWarning ?? 0) : 0), 0);
      if (leaks) {
        L.push('');
        L.push(`> ⚠ ${leaks} MaxListenersExceededWarning(s) in these processes (Node warns once per emitter): a served response gathered more than 10 listeners for one event while it streamed (the node:http listener's writes waiting for \`drain\`).`);
      }
      L.push('');
    }

    // Blocking requests under load
    if (res.gatewayLoad) {
      const gl = res.gatewayLoad;
      L.push('## Gateway under load: blocking requests, added latency and throughput');
      L.push('');
      if (!('levels' in gl)) L.push(`✗ ${gl.error}`);
      else {
        const s = res.settings as Partial<typeof settings>;
        L.push(
          `A short blocking (non-streamed) turn, ${gl.listen} callers → gateway → ${gl.upstream} mock, against the same request in the upstream protocol straight to the mock. At each level that many callers each send their next request when the last is answered (closed loop, fetch); ${gl.requests.toLocaleString('en')} requests per side and level in ${s.gwLoadBlocks ?? '?'} blocks that alternate direct / through, after an untimed warm-up. Mock, gateway and callers share one process and thread, so a latency holds all their CPU; **added** = through − direct at the same level and quantile. Throughput: requests answered per second over the level's blocks. ms.`,
        );
        L.push('');
        L.push('| concurrent clients | direct p50 | through p50 | **added p50** | direct p99 | through p99 | **added p99** | req/s direct | req/s through |');
        L.push('|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
        const f = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '—');
        for (const l of gl.levels) L.push(`| ${l.clients} | ${f(l.directP50)} | ${f(l.viaP50)} | **${f(l.viaP50 - l.directP50)}** | ${f(l.directP99)} | ${f(l.viaP99)} | **${f(l.viaP99 - l.directP99)}** | ${Math.round(l.directRps)} | ${Math.round(l.viaRps)} |`);
        const within = gl.levels.filter((l) => l.viaP99 - l.directP99 <= GATEWAY_LOAD_P99_BUDGET);
        const best = within.reduce<GatewayLoadLevel | undefined>((b, l) => (!b || l.viaRps > b.viaRps ? l : b), undefined);
        L.push('');
        L.push(best ? `Throughput at an added p99 ≤ ${GATEWAY_LOAD_P99_BUDGET} ms: **${Math.round(best.viaRps)} requests/s** through the gateway (${best.clients} concurrent client(s); direct at that level: ${Math.round(best.directRps)}/s).` : `Throughput at an added p99 ≤ ${GATEWAY_LOAD_P99_BUDGET} ms: no level held it.`);
        if (!gl.ok) L.push(`\n✗ ${gl.error ?? 'wrong answers'}`);
      }
      L.push('');
    }

    // Limit checks
    if (res.limits) {
      const l = res.limits;
      L.push('## Gateway limit check per request: in memory and on Redis');
      L.push('');
      if (!('redis' in l)) L.push(`✗ ${l.error}`);
      else {
        L.push(
          `The gateway's \`acquire()\` for a client with a requests-per-minute limit (high enough that every check is let in), from \`createMemoryLimiter\` and from the Redis limiter (\`redis\` in the config: one Lua script per check, EVALSHA) on a redis-server on 127.0.0.1 started for the run. ${l.checks.toLocaleString('en')} checks per block, ${l.rounds} rounds alternating the two, median. Sequential: each check waits for the one before (its latency, a request's added wait); 32 in flight: the cost per request of a busy gateway. µs per check.`,
        );
        L.push('');
        L.push('| | in memory | on Redis | **Redis / memory** |');
        L.push('|---|---:|---:|---:|');
        L.push(`| sequential | ${l.memory.toFixed(2)} | ${l.redis.toFixed(1)} | **${ratio(l.redis, l.memory)}** |`);
        L.push(`| 32 in flight | ${l.memoryConcurrent.toFixed(2)} | ${l.redisConcurrent.toFixed(1)} | **${ratio(l.redisConcurrent, l.memoryConcurrent)}** |`);
      }
      L.push('');
    }

    // Gen + bundle
    L.push('## `pnpm gen` and bundle size');
    L.push('');
    if (gen.error) L.push(`\`pnpm gen\` failed: ${gen.error}`);
    else
      L.push(
        `\`pnpm gen\` (all specs, written to a temporary --out): ${median(gen.wall).toFixed(0)} ms wall (median of ${gen.wall.length}, pnpm and tsx start-up included); the pipeline itself: ${gen.internal.length ? `${median(gen.internal).toFixed(0)} ms` : '?'}.`,
      );
    L.push('');
    L.push('| bundle (esbuild, minified, ESM, browser platform) | minified | budget | gzip | largest inputs |');
    L.push('|---|---:|---:|---:|---|');
    for (const b of bundles) {
      const met = b.budget === undefined ? '' : `≤ ${kb(b.budget)} ${b.raw <= b.budget ? '✓' : '✗'}`;
      const size = b.error ? `✗ ${b.error}` : b.budget === undefined ? kb(b.raw) : `${kb(b.raw)} (${b.raw.toLocaleString('en')} B)`;
      L.push(`| ${b.label} | ${size} | ${met} | ${b.error ? '' : kb(b.gzip)} | ${b.top} |`);
      if (b.budget !== undefined && !(b.raw <= b.budget)) misses.push(`bundle "${b.label}": ${b.error ? 'failed' : `${b.raw.toLocaleString('en')} bytes`} (budget ${b.budget.toLocaleString('en')})`);
    }
    L.push('');

  }

  L.push('## Misses');
  L.push('');
  L.push(misses.length ? misses.map((m) => `- ${m}`).join('\n') : 'None: every target met in this run.');
  L.push('');
  return L.join('\n');
}

// ---------------------------------------------------------------------------------------------

const loadAtStart = loadavg()[0]!;

/** Busy CPU seconds of the whole machine, and of this process and its finished children (Linux). */
function cpuSeconds(): { machine: number; ours: number } | undefined {
  try {
    const machine = cpus().reduce((sum, c) => sum + c.times.user + c.times.nice + c.times.sys + c.times.irq, 0) / 1000;
    // /proc/self/stat fields 14–17: utime, stime, cutime, cstime in clock ticks (100 per second).
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ours = fields.slice(11, 15).reduce((sum, f) => sum + Number(f), 0) / 100;
    return { machine, ours };
  } catch {
    return undefined;
  }
}

/** Every section but the streaming comparisons. */
async function otherSections(worker: string) {
  log('memory');
  const mem = memoryAll(worker);
  log('build / parse µs');
  const micro = microAll(worker);
  const microMixedRes = microMixed(worker);
  log('cloud paths (event-stream, SigV4)');
  const cloud = runJob<CloudRow>(worker, { mode: 'cloud', events: settings.events, rounds: settings.microRounds, calls: Math.max(200, settings.microCalls >> 3) } satisfies CloudJob);
  log('gateway over loopback (one process per pair)');
  const gateway = gatewayAll(worker);
  const gatewayLoad = gatewayLoadAll(worker);
  log('gateway limit check: in memory, on Redis');
  const limits = runJob<LimitsRow>(worker, { mode: 'limits', checks: quick ? 500 : 2000, rounds: quick ? 3 : 5 } satisfies LimitsJob);
  log(`  ${'redis' in limits ? `in memory ${limits.memory.toFixed(2)} µs, on Redis ${limits.redis.toFixed(1)} µs per check (32 in flight: ${limits.memoryConcurrent.toFixed(2)} / ${limits.redisConcurrent.toFixed(1)} µs)` : `✗ ${limits.error}`}`);
  log('tool-argument validation');
  const validation = runJob<ValidateRow>(worker, { mode: 'validate', rounds: settings.microRounds, calls: settings.microCalls } satisfies ValidateJob);
  log('pnpm gen');
  const gen = genTiming();
  log('bundle sizes');
  const bundles = await bundleSizes();
  return { mem, micro, microMixed: microMixedRes, cloud, gateway, ...(gatewayLoad ? { gatewayLoad } : {}), limits, validation, gen, bundles };
}

async function main(): Promise<void> {
  const reportArg = argv.indexOf('--report');
  if (reportArg !== -1) {
    // Re-render a saved run (results/latest.json by default) without measuring anything.
    const file = argv[reportArg + 1] && !argv[reportArg + 1]!.startsWith('--') ? resolve(process.env.INIT_CWD ?? process.cwd(), argv[reportArg + 1]!) : join(here, 'results', 'latest.json');
    process.stdout.write(`${report(JSON.parse(readFileSync(file, 'utf8'), (_k, x: unknown) => (x === null ? NaN : x)) as Results)}\n`);
    return;
  }
  const t0 = performance.now();
  const cpuAtStart = cpuSeconds();
  if (loadAtStart > cpus().length * 0.75) log(`warning: load average ${loadAtStart.toFixed(2)} on ${cpus().length} cores; timings will be noisy`);
  log(`wireforge bench${quick ? ' --quick' : ''}: building the worker`);
  const worker = await buildWorker();
  if (gatewayOnly) {
    log('gateway over loopback (one process per pair)');
    gatewayAll(worker);
    gatewayLoadAll(worker);
    await esbuild.stop();
    return;
  }
  log('streaming comparisons (one process each; then the floors and wireforge with a full GC before each run)');
  const rows = timeAll(worker);
  // A --stream run measures the streaming comparisons only; the other sections are left out of its report.
  const rest = streamOnly ? undefined : await otherSections(worker);
  // esbuild's service process is not a waited-for child: stop it so its CPU is not counted as others'.
  await esbuild.stop();
  const cpu = cpus();
  const cpuAtEnd = cpuSeconds();
  const wall = (performance.now() - t0) / 1000;
  const othersCpu = cpuAtStart && cpuAtEnd ? (cpuAtEnd.machine - cpuAtStart.machine - (cpuAtEnd.ours - cpuAtStart.ours)) / wall : undefined;
  const results: Results = {
    quick,
    settings,
    date: new Date().toISOString().slice(0, 10),
    node: process.version,
    cores: cpu.length,
    cpu: cpu[0]?.model.trim() ?? '?',
    load: [loadAtStart, loadavg()[0]!],
    othersCpu,
    seconds: (performance.now() - t0) / 1000,
    versions: versions(),
    rows,
    ...(rest ?? { streamOnly: true, mem: [], micro: { error: 'not measured (--stream)' }, gen: { wall: [], internal: [] }, bundles: [] }),
  };
  const md = report(results);
  process.stdout.write(`${md}\n`);
  const json = `${JSON.stringify(results, (_k, x: unknown) => (typeof x === 'number' && Number.isNaN(x) ? null : x))}\n`;
  writeFileSync(join(here, '.cache', 'last.json'), json);
  if (write && !quick && !only && !streamOnly) {
    mkdirSync(join(here, 'results'), { recursive: true });
    writeFileSync(join(here, 'results', 'latest.md'), `${md}\n`);
    writeFileSync(join(here, 'results', 'latest.json'), json);
    log('wrote bench/results/latest.md and latest.json');
  }
}

await main();
