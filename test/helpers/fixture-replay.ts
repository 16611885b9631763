/**
 * Every fixture, streamed whole and split at every byte and at a set of chunk sizes (chunkSizes
 * below), and blocking: each must give the expected unified result, and stream and blocking must
 * give equal ChatResponses. The fixture folders are replayed in groups, one test file each
 * (test/adapters/fixture-replay/), so that two workers share the work; every folder is in exactly
 * one group (asserted in fixture-replay/groups.test.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { adapters } from '../../generated/index.js';
import type { AssistantMessage, ProviderAdapter, StreamEvent } from '../../generated/index.js';
import { ProviderError } from '../../generated/index.js';
import { comparable, partsOf, replayBlocking, replayStream } from './replay.js';
import { specChain, specIds } from './spec-chain.js';

const FIXTURES = new URL('../fixtures/', import.meta.url);
export const FIXTURE_FOLDERS = readdirSync(FIXTURES, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();
for (const id of FIXTURE_FOLDERS) if (!(id in adapters)) throw new Error(`test/fixtures/${id}/ has no spec of that id`);

/**
 * The groups of fixture folders, one test file each, of about the same replay time (each about a
 * third of the whole, measured in two runs: anthropic-messages with its Bedrock and Vertex
 * deployments; openai-responses, deepseek, gemini and ollama; the rest of the OpenAI Chat family).
 */
export const FIXTURE_GROUPS: Record<string, string[]> = {
  anthropic: ['anthropic-messages'],
  responses: ['deepseek', 'gemini', 'ollama', 'openai-responses'],
  chat: ['groq', 'mistral', 'openai-chat', 'openrouter', 'vllm', 'xai'],
};

// Every spec is replayed: with its own fixtures, or (an overlay without any) with those of the
// spec it extends, whose wire it speaks.
// A spec without fixtures of its own or of a base (a user's own protocol) is left to its
// conformance cases and the generic checks.
export const PROVIDERS: Array<[string, ProviderAdapter, string]> = specIds()
  .flatMap((id): Array<[string, ProviderAdapter, string]> => {
    const folder = specChain(id).find((x) => FIXTURE_FOLDERS.includes(x));
    return folder ? [[id, (adapters as Record<string, ProviderAdapter>)[id]!, folder]] : [];
  })
  .sort((a, b) => a[0].localeCompare(b[0]));

/**
 * The chunk sizes a stream is replayed at. Size 1 splits the body at every byte, so every split
 * point is tested; sizes 2…k put each boundary at every position within a chunk; sampled sizes
 * above (×1.5, deterministic) and the body less one byte cover large chunks. Small bodies get every
 * size up to 16, large ones up to 4: replaying a 40 KB body at each of 1…96 bytes was most of
 * this file's time (33 s), and size 1 already splits it everywhere.
 */
export function chunkSizes(length: number): number[] {
  const all = length <= 2048 ? 16 : 4;
  const out = new Set<number>();
  for (let s = 1; s <= Math.min(all, length); s++) out.add(s);
  for (let s = all + 1; s < length; s = Math.ceil(s * 1.5)) out.add(s);
  if (length > 1) out.add(length - 1);
  out.add(length);
  return [...out].sort((a, b) => a - b);
}

/**
 * An overlay that replays its base's fixtures over the same framing decodes them with the same
 * decoder: a few sizes (every byte split included) check it, the base's own run checks the rest.
 */
const OVERLAY_SIZES = [1, 7];

function expectedOf(expected: Record<string, unknown>) {
  const { message, ...rest } = expected;
  return { rest, message };
}

/** The fixtures of these folders, replayed by every spec that reads them (its own, or its base's). */
export function replayFixtures(folders: string[]): void {
  for (const f of folders) if (!FIXTURE_FOLDERS.includes(f)) throw new Error(`no fixture folder test/fixtures/${f}/`);
  for (const [id, adapter, folder] of PROVIDERS.filter(([, , folder]) => folders.includes(folder))) {
    const dir = new URL(`${folder}/`, FIXTURES);
    const files = readdirSync(dir);
    const ext = adapter.stream.framing === 'ndjson' ? '.ndjson' : '.sse';
    const cases = files.filter((f) => f.endsWith('.expected.json')).map((f) => f.slice(0, -'.expected.json'.length)).sort();
    const errorCases = files.filter((f) => f.endsWith('.expected-error.json')).map((f) => f.slice(0, -'.expected-error.json'.length)).sort();

    const sameDecoder = folder !== id && adapter.stream.framing === (adapters as Record<string, ProviderAdapter>)[folder]!.stream.framing;

    describe(`${id} fixtures${folder === id ? '' : ` (those of ${folder})`}`, () => {
      it('has fixtures', () => expect(cases.length).toBeGreaterThanOrEqual(2));

      for (const name of errorCases) {
        it(`${name}: an in-stream error becomes a typed error that keeps what arrived, at every chunk size`, async () => {
          const bytes = new Uint8Array(readFileSync(new URL(`${name}${ext}`, dir)));
          const want = JSON.parse(readFileSync(new URL(`${name}.expected-error.json`, dir), 'utf8')) as { kind: string; message: string; code?: string; partialText: string | null };
          for (const size of [1, 2, 3, 7, 64, bytes.length]) {
            const error = await replayStream(adapter, bytes, size).then(() => undefined, (e: unknown) => e);
            expect(error, `chunk size ${size}`).toBeInstanceOf(ProviderError);
            const e = error as ProviderError;
            expect(e.providerMessage).toContain(want.message);
            if (want.code !== undefined) expect(e.code).toBe(want.code);
            expect(e.partial?.text ?? null).toBe(want.partialText);
          }
        });
      }

      for (const name of cases) {
        const sse = new Uint8Array(readFileSync(new URL(`${name}${ext}`, dir)));
        const json = readFileSync(new URL(`${name}.json`, dir), 'utf8');
        const expected = JSON.parse(readFileSync(new URL(`${name}.expected.json`, dir), 'utf8')) as Record<string, unknown>;
        const { rest, message } = expectedOf(expected);

        it(`${name}: blocking body gives the expected result`, async () => {
          const r = await replayBlocking(adapter, json);
          expect(comparable(r)).toMatchObject(rest);
          if (message) {
            // Fixtures with more than reasoning, text and calls list the message's parts themselves.
            const m = message as AssistantMessage;
            expect(r.message).toEqual({ ...m, parts: m.parts ?? partsOf(m), origin: { provider: id, model: 'test-model' } });
          }
          expect(r.raw).toEqual(JSON.parse(json));
        });

        it(`${name}: stream gives the same ChatResponse as blocking, with well-ordered events`, async () => {
          const blocking = await replayBlocking(adapter, json);
          const { events, final } = await replayStream(adapter, sse, sse.length);
          expect(comparable(final)).toEqual(comparable(blocking));
          expect(comparable(final)).toMatchObject(rest);
          checkEventOrder(events, final.toolCalls.length);
          // The deltas add up to the final text, thinking and tool arguments.
          const text = events.flatMap((e) => (e.type === 'text-delta' ? [e.delta] : [])).join('');
          expect(text === '' ? null : text).toBe(final.text);
          const calls = events.flatMap((e) => (e.type === 'tool-call' ? [e.call] : []));
          expect(calls).toEqual(final.toolCalls);
          // Each part without deltas of its own is announced once, in content order.
          const parts = events.flatMap((e) => (e.type === 'part' ? [e.part] : []));
          expect(parts).toEqual(final.content.filter((p) => p.type !== 'text' && p.type !== 'thinking' && p.type !== 'tool-call'));
        });

        const sizes = sameDecoder ? [...OVERLAY_SIZES.filter((s) => s < sse.length), sse.length] : chunkSizes(sse.length);
        it(`${name}: split at every byte, and in chunks of ${sizes.length - 1} other sizes, gives the same result`, async () => {
          const whole = comparable((await replayStream(adapter, sse, sse.length)).final);
          for (const size of sizes) {
            const { final } = await replayStream(adapter, sse, size);
            expect(comparable(final), `chunk size ${size}`).toEqual(whole);
          }
        });
      }
    });
  }
}

function checkEventOrder(events: StreamEvent[], toolCalls: number): void {
  expect(events[0]?.type).toBe('start');
  expect(events.at(-1)?.type).toBe('finish');
  expect(events.filter((e) => e.type === 'start')).toHaveLength(1);
  expect(events.filter((e) => e.type === 'finish')).toHaveLength(1);
  expect(events.filter((e) => e.type === 'tool-call')).toHaveLength(toolCalls);
  const finish = events.at(-1) as Extract<StreamEvent, { type: 'finish' }>;
  const lastUsage = [...events].reverse().find((e) => e.type === 'usage') as Extract<StreamEvent, { type: 'usage' }> | undefined;
  if (lastUsage) expect(finish.usage).toEqual(lastUsage.usage);
}

