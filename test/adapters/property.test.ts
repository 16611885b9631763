/**
 * Property tests (fast-check, fixed seed): any way of splitting a fixture's bytes gives the same
 * ChatResponse, and random protocol-valid turns give equal results through the stream and the
 * blocking path, for every wire family. WIREFORGE_PROPERTY_RUNS / _SEED widen or vary the run
 * (`pnpm test:property` runs many more cases).
 */
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { adapters } from '../../generated/index.js';
import { createClientFor, type ChatResponse, type ProviderAdapter } from '../../generated/index.js';
import { accessFor } from '../helpers/client-access.js';
import { comparable, fetchReturning, replayBlocking } from '../helpers/replay.js';
import { buildTurn, expectedArguments, familySpecIds, specIds, wireFamilyOf, type ScriptedTurn } from '../helpers/scripted-turns.js';

const SEED = Number(process.env.WIREFORGE_PROPERTY_SEED ?? 20261130);
const RUNS = Number(process.env.WIREFORGE_PROPERTY_RUNS ?? 25);
const params = { seed: SEED, numRuns: RUNS, endOnFailure: true };

function adapterOf(id: string): ProviderAdapter {
  return (adapters as Record<string, ProviderAdapter>)[id]!;
}

/** Bytes cut at the given positions. */
function cutAt(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let prev = 0;
  for (const p of [...points, bytes.length]) {
    if (p > prev) out.push(bytes.subarray(prev, p));
    prev = p;
  }
  return out;
}

async function streamChunks(adapter: ProviderAdapter, chunks: Uint8Array[]): Promise<ChatResponse> {
  const client = createClientFor(adapter, { ...accessFor(adapter), apiKey: 'k-property-000', fetch: fetchReturning(chunks, 'text/event-stream'), maxRetries: 0 });
  // The same model as replayBlocking's request, so both messages have the same origin.
  return client.stream({ model: 'test-model', messages: [{ role: 'user', content: 'x' }] }).final();
}

describe('every way of splitting a fixture stream gives the same ChatResponse', () => {
  const root = new URL('../fixtures/', import.meta.url);
  const cases = readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => {
      const ext = adapterOf(d.name).stream.framing === 'ndjson' ? '.ndjson' : '.sse';
      return readdirSync(new URL(`${d.name}/`, root))
        .filter((f) => f.endsWith('.expected.json'))
        .map((f) => [d.name, f.slice(0, -'.expected.json'.length), ext] as const);
    });

  it.each(cases)('%s/%s', async (id, name, ext) => {
    const bytes = new Uint8Array(readFileSync(new URL(`${id}/${name}${ext}`, root)));
    const adapter = adapterOf(id);
    const whole = comparable(await streamChunks(adapter, [bytes]));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(), { maxLength: 40 }), async (cuts) => {
        expect(comparable(await streamChunks(adapter, cutAt(bytes, cuts)))).toEqual(whole);
      }),
      params,
    );
  });
});

// Random but protocol-valid turns: text with any Unicode, reasoning, tool calls with arbitrary JSON.
const text = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 60 });
const jsonObject = fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }).filter((k) => k !== '__proto__'), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });
const turn = (withThinking: boolean): fc.Arbitrary<ScriptedTurn> =>
  fc
    .record({
      text: fc.option(text, { nil: undefined }),
      thinking: withThinking ? fc.option(fc.record({ text, signature: fc.base64String({ minLength: 8, maxLength: 40 }) }), { nil: undefined }) : fc.constant(undefined),
      calls: fc.array(fc.record({ name: fc.stringMatching(/^[a-z][a-z0-9_]{0,15}$/), args: jsonObject }), { maxLength: 3 }),
      input: fc.integer({ min: 1, max: 100_000 }),
      output: fc.integer({ min: 1, max: 100_000 }),
    })
    .filter((t) => t.text !== undefined || t.calls.length > 0 || t.thinking !== undefined)
    .map((t) => ({
      text: t.text,
      thinking: t.thinking,
      calls: t.calls.map((c, i) => ({ id: `call_${i}x${c.name}`, name: c.name, args: c.args })),
      usage: { input: t.input, output: t.output },
    }));

describe('random turns: the stream and the blocking path agree', () => {
  const families = new Map<string, string>();
  for (const id of familySpecIds()) if (!families.has(wireFamilyOf(id))) families.set(wireFamilyOf(id), id);

  it.each([...families.values()])('%s', async (id) => {
    const adapter = adapterOf(id);
    const family = wireFamilyOf(id);
    const thinkingOnWire = family === 'anthropic-messages' || family === 'openai-responses' || family === 'gemini' || family === 'ollama';
    await fc.assert(
      fc.asyncProperty(turn(thinkingOnWire), fc.array(fc.nat(), { maxLength: 12 }), async (t, cuts) => {
        const bodies = buildTurn(id, t);
        const blocking = await replayBlocking(adapter, JSON.stringify(bodies.json));
        const streamed = await streamChunks(adapter, cutAt(new TextEncoder().encode(bodies.stream), cuts));
        expect(comparable(streamed)).toEqual(comparable(blocking));
        expect(streamed.text).toBe(t.text ?? null);
        expect(streamed.toolCalls.map((c) => [c.name, c.arguments])).toEqual((t.calls ?? []).map((c) => [c.name, expectedArguments(family, c)]));
      }),
      params,
    );
  });
});
