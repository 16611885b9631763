/**
 * One measurement in its own process (run with --expose-gc). The job comes as JSON in argv[2];
 * the result goes to stdout as one JSON line. Bodies are generated here, in memory, before timing.
 */
import { makeBody, type Digest, type Kind, type Protocol } from './bodies.js';
import { memory, type MemoryJob } from './memory.js';
import { chunk, digestMatches, prepare, type Method } from './methods.js';
import { micro, type MicroJob } from './micro.js';
import { validateArguments, type ValidateJob } from './validate-arguments.js';
import { cloudBench, type CloudJob } from './cloud.js';
import { gatewayBench, type GatewayJob } from './gateway.js';
import { gatewayLoadBench, type GatewayLoadJob } from './gateway-load.js';
import { limitsBench, type LimitsJob } from './limits.js';

export interface TimeJob {
  mode: 'time';
  protocol: Protocol;
  kind: Kind;
  method: Method;
  events: number;
  warmup: number;
  /** Timed runs wanted; fewer when `budgetMs` runs out first (never fewer than minRuns). */
  runs: number;
  minRuns: number;
  budgetMs: number;
  /** The collection before each timed run: young generation (default), or full ('major'). */
  gc?: 'minor' | 'major';
  /**
   * Paired: the floor the method is judged against, run in the same process, the two alternating
   * run by run (each after its GC), so a slow stretch of the machine falls on both; a ratio per round.
   */
  against?: Method;
}

export interface TimeResult {
  ok: boolean;
  times: number[];
  bytes: number;
  events: number;
  digest?: Digest;
  expect?: Digest;
  error?: string;
  /** Paired jobs: the method's time over its floor's, per round. */
  ratios?: number[];
}

export type Job = TimeJob | MemoryJob | MicroJob | ValidateJob | CloudJob | GatewayJob | GatewayLoadJob | LimitsJob;

/**
 * A young-generation collection before each timed run, so one run's garbage is not swept in the
 * next. Not a full collection by default: that would also collect the hidden classes of the
 * previous run's parsed events (nothing refers to them any more) and throw away the optimized
 * code built for them, so every timed run would start cold (with a full GC before each run,
 * wireforge decode showed ~78 deoptimizations in 9 runs against 8 without). A stream in a
 * running application meets warm code; the floor, which reads no properties, hardly notices
 * either way. The full-GC mode (`gc: 'major'`) is measured too, for that reason: a longer
 * per-event path costs more when it starts cold, and the warm mode would not show it.
 */
const v8gc = (globalThis as { gc?: (options?: { type: 'minor' | 'major' }) => void }).gc;

async function time(job: TimeJob): Promise<TimeResult> {
  const body = makeBody(job.protocol, job.kind, { events: job.events });
  const chunks = chunk(body.bytes);
  const base = { bytes: body.bytes.length, events: body.events, expect: body.expect };
  const run = await prepare(job.method, body, chunks);
  // First run: check the method parsed the whole body (and warms up).
  const t0 = performance.now();
  const digest = await run();
  // A slow method (a quarter of a second over ~22,000 events) is warm after one run.
  const warmup = performance.now() - t0 > 250 ? 1 : job.warmup;
  const parseOnly = digest.parsed !== undefined;
  const ok = parseOnly
    ? digest.parsed === body.payloads && (job.method !== 'floor-args' || (digest.calls === body.expect.calls && digest.args === body.expect.args))
    : digestMatches(digest, body.expect);
  for (let i = 1; i < warmup; i++) await run();
  const times: number[] = [];
  const gc = () => v8gc?.({ type: job.gc ?? 'minor' });
  if (job.against) return { ...base, ...(await paired(job, run, body, chunks, ok, gc)), digest };
  const started = performance.now();
  while (times.length < job.runs && (times.length < job.minRuns || performance.now() - started < job.budgetMs)) {
    gc();
    const t0 = performance.now();
    await run();
    times.push(performance.now() - t0);
  }
  return { ...base, ok, times, digest };
}

/** The method and its floor alternating in one process (which goes first alternates too): a ratio per round. */
async function paired(job: TimeJob, run: () => Promise<Digest>, body: ReturnType<typeof makeBody>, chunks: Uint8Array[], ok: boolean, gc: () => void): Promise<Pick<TimeResult, 'ok' | 'times' | 'ratios'>> {
  const floor = await prepare(job.against!, body, chunks);
  const check = await floor();
  const floorOk = check.parsed === body.payloads && (job.against !== 'floor-args' || (check.calls === body.expect.calls && check.args === body.expect.args));
  for (let i = 1; i < job.warmup; i++) await floor();
  const timed = async (f: () => Promise<Digest>) => {
    gc();
    const t0 = performance.now();
    await f();
    return performance.now() - t0;
  };
  const times: number[] = [];
  const ratios: number[] = [];
  const started = performance.now();
  while (ratios.length < job.runs && (ratios.length < job.minRuns || performance.now() - started < 2 * job.budgetMs)) {
    const first = ratios.length % 2 === 0;
    const a = first ? await timed(run) : 0;
    const b = await timed(floor);
    const m = first ? a : await timed(run);
    times.push(m);
    ratios.push(m / b);
  }
  return { ok: ok && floorOk, times, ratios };
}

async function main(): Promise<void> {
  const job = JSON.parse(process.argv[2] ?? '{}') as Job;
  let out: unknown;
  try {
    if (job.mode === 'time') out = await time(job);
    else if (job.mode === 'memory') out = await memory(job);
    else if (job.mode === 'validate') out = await validateArguments(job);
    else if (job.mode === 'cloud') out = await cloudBench(job);
    else if (job.mode === 'gateway') out = await gatewayBench(job);
    else if (job.mode === 'gateway-load') out = await gatewayLoadBench(job);
    else if (job.mode === 'limits') out = await limitsBench(job);
    else out = await micro(job);
  } catch (e) {
    out = { ok: false, times: [], error: e instanceof Error ? `${e.name}: ${e.message}`.slice(0, 300) : String(e) };
  }
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

await main();
