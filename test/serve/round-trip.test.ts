/**
 * Round trip, response direction: a random unified turn served by the serve runtime (blocking body
 * and stream, at random chunkings) and read back by the client is the turn that was served, for
 * every spec of a wire family, modulo what that wire documents it cannot carry (the table below,
 * from docs/wire-facts.md, not from the serve sections under test).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adapters, createClientFor, type ChatResponse, type ProviderAdapter } from '../../generated/index.js';
import { serves, StreamWriter, eventEncoder, responseBody, servedTurn, turnEvents, type MockTurn, type ServeCodec } from '../../generated/serve.js';
import { chunked, fetchReturning, replayBlocking } from '../helpers/replay.js';
import { accessFor } from '../helpers/client-access.js';
import { familySpecIds, wireFamilyOf, type WireFamily } from '../helpers/scripted-turns.js';

const SEED = Number(process.env.WIREFORGE_PROPERTY_SEED ?? 20261201);
const RUNS = Number(process.env.WIREFORGE_PROPERTY_RUNS ?? 25);
const params = { seed: SEED, numRuns: RUNS, endOnFailure: true };

interface Carries {
  thinking: boolean;
  signature: boolean;
  callIds: boolean;
}

/** What each wire family carries of a turn (docs/wire-facts.md). */
const CARRIES: Record<WireFamily, Carries> = {
  'openai-chat': { thinking: false, signature: false, callIds: true },
  'anthropic-messages': { thinking: true, signature: true, callIds: true },
  // Calls carry no id: the client names them call_<response id>_<n>.
  gemini: { thinking: true, signature: true, callIds: false },
  'openai-responses': { thinking: true, signature: true, callIds: true },
  ollama: { thinking: true, signature: false, callIds: true },
};
/** Bedrock Converse is a family of its own (not among the scripted ones): reasoning with signatures, call ids. */
const CONVERSE: Carries = { thinking: true, signature: true, callIds: true };
/** Specs whose wire carries more than their family's. */
const CARRIES_BY_SPEC: Record<string, Carries> = {
  deepseek: { thinking: true, signature: false, callIds: true },
  openrouter: { thinking: true, signature: true, callIds: true },
};

const text = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 60 });
const jsonObject = fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }).filter((k) => k !== '__proto__'), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });
const turn: fc.Arbitrary<MockTurn> = fc
  .record({
    text: fc.option(text, { nil: undefined }),
    thinking: fc.option(fc.record({ text, signature: fc.base64String({ minLength: 8, maxLength: 40 }) }), { nil: undefined }),
    calls: fc.array(fc.record({ name: fc.stringMatching(/^[a-z][a-z0-9_]{0,15}$/), args: jsonObject }), { maxLength: 3 }),
    input: fc.integer({ min: 1, max: 100_000 }),
    cached: fc.option(fc.integer({ min: 0, max: 1000 }), { nil: undefined }),
    output: fc.integer({ min: 1, max: 100_000 }),
    length: fc.boolean(),
  })
  .filter((t) => t.text !== undefined || t.calls.length > 0)
  .map((t) => ({
    ...(t.text === undefined ? {} : { text: t.text }),
    ...(t.thinking === undefined ? {} : { thinking: t.thinking }),
    toolCalls: t.calls.map((c, i) => ({ id: `call_${i}x${c.name}`, name: c.name, arguments: c.args })),
    // A turn cut short has no calls to finish.
    ...(t.length && t.calls.length === 0 ? { finishReason: 'length' as const } : {}),
    usage: { inputTokens: t.input + (t.cached ?? 0), outputTokens: t.output },
  }));

/** What the client must read back of a served turn on this wire. */
function expected(c: Carries, t: MockTurn, responseId: string) {
  // The generated turns hold one reasoning block (text, maybe a signature).
  const thinking = typeof t.thinking === 'string' ? { text: t.thinking } : Array.isArray(t.thinking) ? t.thinking[0] : t.thinking;
  return {
    text: t.text ?? null,
    thinking: c.thinking && thinking ? thinking.text : null,
    signature: c.thinking && c.signature ? thinking?.signature : undefined,
    toolCalls: (t.toolCalls ?? []).map((call, i) => ({ id: c.callIds ? call.id : `call_${responseId}_${i}`, name: call.name, arguments: JSON.stringify(call.arguments) })),
    finishReason: t.finishReason ?? ((t.toolCalls ?? []).length ? 'tool_calls' : 'stop'),
    usage: t.usage,
  };
}

function seen(r: ChatResponse) {
  return {
    text: r.text,
    thinking: r.thinking,
    signature: r.message.thinking?.[0]?.signature,
    toolCalls: r.toolCalls.map(({ id, name, arguments: args }) => ({ id, name, arguments: args })),
    finishReason: r.finishReason,
    usage: { inputTokens: r.usage?.inputTokens, outputTokens: r.usage?.outputTokens },
  };
}

const served = [...familySpecIds(), 'bedrock-converse'];

describe('a served turn reads back as the turn, blocking and streamed', () => {
  it.each(served)('%s', async (id) => {
    const adapter = (adapters as Record<string, ProviderAdapter>)[id]!;
    const serve = (serves as Record<string, ServeCodec>)[id]!;
        await fc.assert(
      fc.asyncProperty(turn, fc.integer({ min: 1, max: 64 }), fc.integer({ min: 1, max: 12 }), async (t, chunk, piece) => {
        const unified = servedTurn(t, { id: 'resp1', model: 'm-1', created: 1767225600 });
        const want = expected(id === 'bedrock-converse' ? CONVERSE : (CARRIES_BY_SPEC[id] ?? CARRIES[wireFamilyOf(id)]), t, 'resp1');
        const blocking = await replayBlocking(adapter, JSON.stringify(responseBody(adapter, serve, unified).body));
        expect(seen(blocking)).toEqual(want);

        // The request as the client sends it: a response may echo it (Chat's usage chunk is asked for in it).
        const request = adapter.buildRequest({ messages: [{ role: 'user', content: 'hi' }], model: 'test-model' }, 'stream').body;
        const writer = new StreamWriter(adapter, serve, { id: 'resp1', model: 'm-1', created: 1767225600, request });
        const encoder = eventEncoder(adapter);
        const events = [...turnEvents(unified, piece).flatMap((e) => writer.write(e)), ...writer.end()];
        const body = new Uint8Array([...encoder.bytes(events), ...encoder.end()]);
        const client = createClientFor(adapter, { ...accessFor(adapter), apiKey: 'test-key-0000', baseUrl: 'http://127.0.0.1:9/v1', fetch: fetchReturning(chunked(body, chunk), encoder.contentType), maxRetries: 0 });
        const streamed = await client.stream({ messages: [{ role: 'user', content: 'hi' }], model: 'test-model' }).final();
        expect(seen(streamed)).toEqual(want);
      }),
      params,
    );
  });
});

