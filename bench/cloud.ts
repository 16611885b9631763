/**
 * The cloud paths: an AWS event-stream body (Bedrock ConverseStream, ~N text deltas) read to the
 * final response, against a floor that only splits frames by their length prefix and JSON.parses
 * each payload (no CRC); and the cost of SigV4-signing a typical Converse request (Web Crypto).
 */
import { EventStreamCodec } from '@smithy/core/event-streams';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { adapters, createClientFor, type ProviderAdapter } from '../generated/index.js';
import { signSigV4 } from '../runtime/transport/sign-sigv4.js';

export interface CloudJob {
  mode: 'cloud';
  events: number;
  rounds: number;
  calls: number;
}

export interface CloudRow {
  ok: boolean;
  events: number;
  bytes: number;
  /** ms to read the body to final(): wireforge, and the floor. */
  wireforge: number;
  floor: number;
  /** µs per SigV4 signature of a typical Converse request. */
  sigv4: number;
  error?: string;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1]!;
}

function body(events: number): Uint8Array {
  const codec = new EventStreamCodec(toUtf8, fromUtf8);
  const frame = (type: string, payload: object) =>
    codec.encode({ headers: { ':message-type': { type: 'string', value: 'event' }, ':event-type': { type: 'string', value: type }, ':content-type': { type: 'string', value: 'application/json' } }, body: fromUtf8(JSON.stringify({ ...payload, p: 'abcdefghijkl' })) });
  const frames = [frame('messageStart', { role: 'assistant' })];
  for (let i = 0; i < events; i++) frames.push(frame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: `word${i % 97} ` } }));
  frames.push(frame('contentBlockStop', { contentBlockIndex: 0 }), frame('messageStop', { stopReason: 'end_turn' }), frame('metadata', { usage: { inputTokens: 12, outputTokens: events, totalTokens: events + 12 }, metrics: { latencyMs: 900 } }));
  const out = new Uint8Array(frames.reduce((n, f) => n + f.length, 0));
  let at = 0;
  for (const f of frames) {
    out.set(f, at);
    at += f.length;
  }
  return out;
}

/** The floor: frames cut by their length prefix, headers skipped, each payload decoded and parsed. */
function floor(chunks: Uint8Array[]): number {
  const utf8 = new TextDecoder();
  let buf = new Uint8Array(0);
  let n = 0;
  for (const c of chunks) {
    const next = new Uint8Array(buf.length + c.length);
    next.set(buf);
    next.set(c, buf.length);
    buf = next;
    let pos = 0;
    while (buf.length - pos >= 12) {
      const view = new DataView(buf.buffer, buf.byteOffset + pos);
      const total = view.getUint32(0);
      if (buf.length - pos < total) break;
      const headers = view.getUint32(4);
      JSON.parse(utf8.decode(buf.subarray(pos + 12 + headers, pos + total - 4)));
      n++;
      pos += total;
    }
    buf = buf.subarray(pos);
  }
  return n;
}

export async function cloudBench(job: CloudJob): Promise<CloudRow> {
  const bytes = body(job.events);
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += 16384) chunks.push(bytes.subarray(i, i + 16384));
  const adapter = adapters['bedrock-converse'] as ProviderAdapter;
  const fetch = (async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(c) {
          for (const x of chunks) c.enqueue(x);
          c.close();
        },
      }),
      { headers: { 'content-type': 'application/vnd.amazon.eventstream' } },
    )) as typeof globalThis.fetch;
  // A Bedrock API key: no signing on this path (its cost is measured on its own below).
  const client = createClientFor(adapter, { apiKey: 'bench-bedrock-key-0123456789', model: 'm', endpoint: { region: 'us-east-1' }, fetch, maxRetries: 0 });
  const run = async () => (await client.stream({ messages: [{ role: 'user', content: 'hi' }] }).final()).usage?.outputTokens;
  const ok = (await run()) === job.events && floor(chunks) === job.events + 4;
  const time = async (f: () => unknown) => {
    await f();
    const xs: number[] = [];
    for (let r = 0; r < job.rounds; r++) {
      const t0 = performance.now();
      await f();
      xs.push(performance.now() - t0);
    }
    return median(xs);
  };
  const request = { method: 'POST', url: 'https://bedrock-runtime.us-east-1.amazonaws.com/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify({ messages: [{ role: 'user', content: [{ text: 'What is the weather in Lisbon tomorrow?' }] }], inferenceConfig: { maxTokens: 1024 } }) };
  const creds = { accessKeyId: 'AKIDBENCH000000000', secretAccessKey: 'bench/secret/key/0123456789abcdefghijkl' };
  // One client's key cache, as sigv4Auth keeps it.
  const keys = {};
  const sigv4 = await (async () => {
    for (let i = 0; i < job.calls; i++) await signSigV4(request, creds, { region: 'us-east-1', service: 'bedrock' }, new Date(), keys);
    const xs: number[] = [];
    for (let r = 0; r < job.rounds; r++) {
      const t0 = performance.now();
      for (let i = 0; i < job.calls; i++) await signSigV4(request, creds, { region: 'us-east-1', service: 'bedrock' }, new Date(), keys);
      xs.push(((performance.now() - t0) * 1000) / job.calls);
    }
    return median(xs);
  })();
  return { ok, events: job.events, bytes: bytes.length, wireforge: await time(run), floor: await time(() => floor(chunks)), sigv4 };
}
