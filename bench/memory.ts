/**
 * Live heap while streaming. The heap is sampled after a full GC (node --expose-gc) every few
 * chunks, from inside the body's pull(): that is what the stream path holds at that moment,
 * not garbage waiting for collection. Growth = sample − the baseline taken after the body was
 * generated (the body's own bytes are in the baseline).
 *
 * `keep-all` is a reference: a consumer that keeps every parsed event, which is what a stream
 * path must not do by default.
 */
import { makeBody, type Kind, type Protocol } from './bodies.js';
import { API_KEY, chunk, digestOf, fetchOver, MODEL } from './methods.js';
import { NdjsonDecoder } from '../runtime/framing/decode-ndjson.js';
import { SseDecoder } from '../runtime/framing/decode-sse.js';
import type { FrameSink } from '../runtime/contract/frame.js';
import { adapters, createClientFor, type ProviderAdapter } from '../generated/index.js';

export interface MemoryJob {
  mode: 'memory';
  protocol: Protocol;
  kind: Kind;
  events: number;
  split: 1 | 2;
  method: 'wf-stream' | 'keep-all';
  /** Sample every this many chunks. */
  every: number;
}

export interface MemoryResult {
  ok: boolean;
  events: number;
  bytes: number;
  /** Characters of output: text + thinking + tool arguments. */
  output: number;
  /** Highest live-heap growth seen while streaming (bytes). */
  peak: number;
  /** Live-heap growth once final() returned, with the result still held (bytes). */
  retained: number;
  error?: string;
}

const gc = (globalThis as { gc?: () => void }).gc;

function live(): number {
  gc!();
  gc!();
  return process.memoryUsage().heapUsed;
}

export async function memory(job: MemoryJob): Promise<MemoryResult> {
  if (!gc) throw new Error('run with node --expose-gc');
  const body = makeBody(job.protocol, job.kind, { events: job.events, split: job.split });
  const chunks = chunk(body.bytes);
  const e = body.expect;
  const output = e.text + e.thinking + e.args;
  const adapter = adapters[job.protocol] as ProviderAdapter;
  let peak = 0;
  let baseline = 0;
  const sample = () => {
    const g = live() - baseline;
    if (g > peak) peak = g;
  };

  if (job.method === 'keep-all') {
    baseline = live();
    const kept: unknown[] = [];
    const td = new TextDecoder();
    const keep: FrameSink = (_event, data) => {
      if (data !== '[DONE]') kept.push(JSON.parse(data));
    };
    const framer = adapter.stream.framing === 'sse' ? new SseDecoder(keep) : new NdjsonDecoder(keep);
    for (let i = 0; i < chunks.length; i++) {
      framer.push(td.decode(chunks[i], { stream: true }));
      if (i % job.every === 0) sample();
    }
    sample();
    const retained = live() - baseline;
    return { ok: kept.length === body.payloads, events: body.events, bytes: body.bytes.length, output, peak, retained };
  }

  const fetch = fetchOver(chunks, job.protocol, (i) => {
    if (i % job.every === 0) sample();
  });
  const client = createClientFor(adapter, { apiKey: API_KEY, model: MODEL[job.protocol], baseUrl: 'http://127.0.0.1:9', fetch, maxRetries: 0 });
  const request = { messages: [{ role: 'user' as const, content: 'Go.' }] };
  // Two runs first so that compiled code and lazily created objects are not counted, and a
  // moment for what they left to be released (without it the baseline can sit ~300 KB high).
  await client.stream(request).final();
  await client.stream(request).final();
  await new Promise((resolve) => setTimeout(resolve, 10));
  live();
  baseline = live();
  peak = 0;
  const stream = client.stream(request);
  const result = await stream.final();
  sample();
  const retained = live() - baseline;
  const d = digestOf(result);
  const ok = d.text === e.text && d.calls === e.calls && d.args === e.args;
  // Keep the result reachable until after the last sample.
  return { ok: ok && result !== null, events: body.events, bytes: body.bytes.length, output, peak, retained };
}
