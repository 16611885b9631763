/**
 * Round trip, request direction: a random unified request written by the client (its request
 * builder) and read back by the server side (decode-request.ts) is the request that was sent, for
 * every spec of a wire family, modulo what the client's warnings say it dropped and what each wire
 * documents it cannot say (the table below, from docs/wire-facts.md).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adapters, type ChatRequest, type ContentPart, type Message, type ProviderAdapter } from '../../generated/index.js';
import { serves, decodeRequest, type ServeCodec } from '../../generated/serve.js';
import { familySpecIds, wireFamilyOf, type WireFamily } from '../helpers/scripted-turns.js';

const SEED = Number(process.env.WIREFORGE_PROPERTY_SEED ?? 20261201);
const RUNS = Number(process.env.WIREFORGE_PROPERTY_RUNS ?? 25);
const params = { seed: SEED, numRuns: RUNS, endOnFailure: true };

interface Drops {
  errorFlag: boolean;
  signature: boolean;
  mediaType: boolean;
  /** Text parts travel as one text (joined by a newline), images beside it. */
  oneText?: true;
  /** A JSON schema response format goes without its name. */
  noSchemaName?: true;
}

/** What a wire cannot say of a request without the client warning about it. */
const SILENT_DROPS: Record<WireFamily, Drops> = {
  // A tool result that failed has the same form as one that did not.
  'openai-chat': { errorFlag: false, signature: true, mediaType: true },
  'anthropic-messages': { errorFlag: true, signature: true, mediaType: true, noSchemaName: true },
  gemini: { errorFlag: true, signature: true, mediaType: true, noSchemaName: true },
  'openai-responses': { errorFlag: true, signature: true, mediaType: true },
  // No error flag on results; reasoning goes back as text only; images are bare base64 strings.
  ollama: { errorFlag: false, signature: false, mediaType: false, oneText: true, noSchemaName: true },
};
/** Specs whose wire says less than their family's. */
const SILENT_DROPS_BY_SPEC: Record<string, Drops> = {
  // reasoning_content is text only.
  deepseek: { errorFlag: false, signature: false, mediaType: true },
  // A family of its own (not among the scripted ones).
  'bedrock-converse': { errorFlag: true, signature: true, mediaType: true, noSchemaName: true },
};

const word = fc.stringMatching(/^[a-z][a-z0-9_]{0,11}$/);
const text = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 });
const jsonObject = fc.dictionary(word, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
const userContent = fc.oneof(
  text,
  fc.array(fc.oneof(text.map((t) => ({ type: 'text' as const, text: t })), fc.base64String({ minLength: 4, maxLength: 24 }).map((data) => ({ type: 'image' as const, data, mediaType: 'image/png' }))), { minLength: 1, maxLength: 3 }),
);
const exchange = fc.record({
  user: userContent,
  answer: fc.option(text, { nil: undefined }),
  thinking: fc.option(fc.record({ text, signature: fc.base64String({ minLength: 8, maxLength: 24 }) }), { nil: undefined }),
  calls: fc.array(fc.record({ name: word, args: jsonObject, result: text, failed: fc.boolean() }), { maxLength: 2 }),
});
const request = fc
  .record({
    system: fc.option(text, { nil: undefined }),
    exchanges: fc.array(exchange, { minLength: 1, maxLength: 3 }),
    last: userContent,
    tools: fc.array(fc.record({ name: word, description: fc.option(text, { nil: undefined }) }), { maxLength: 2 }),
    maxTokens: fc.integer({ min: 1, max: 8192 }),
    temperature: fc.option(fc.double({ min: 0, max: 2, noNaN: true }), { nil: undefined }),
    topP: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
    stop: fc.option(fc.array(word, { minLength: 1, maxLength: 2 }), { nil: undefined }),
    choice: fc.option(fc.constantFrom('auto' as const, 'none' as const, 'required' as const, 'named' as const), { nil: undefined }),
    format: fc.option(fc.constantFrom('json' as const, 'schema' as const), { nil: undefined }),
    seed: fc.option(fc.integer({ min: 0, max: 1000 }), { nil: undefined }),
  })
  .map((r): ChatRequest => {
    const messages: Message[] = [];
    let n = 0;
    for (const x of r.exchanges) {
      messages.push({ role: 'user', content: x.user });
      const calls = x.calls.map((c) => ({ id: `call_${n++}`, name: c.name, arguments: JSON.stringify(c.args) }));
      // Every user turn is answered: wires that need alternating roles join consecutive ones.
      messages.push({
        role: 'assistant',
        content: x.answer ?? (calls.length ? null : 'ok'),
        ...(x.thinking ? { thinking: [x.thinking] } : {}),
        ...(calls.length ? { toolCalls: calls } : {}),
      });
      x.calls.forEach((c, i) => messages.push({ role: 'tool', toolCallId: calls[i]!.id, toolName: c.name, content: c.result, ...(c.failed ? { isError: true } : {}) }));
    }
    messages.push({ role: 'user', content: r.last });
    const tools = [...new Map(r.tools.map((t) => [t.name, t])).values()];
    return {
      model: 'm-1',
      ...(r.system === undefined ? {} : { system: r.system }),
      messages,
      ...(tools.length ? { tools: tools.map((t) => ({ name: t.name, ...(t.description === undefined ? {} : { description: t.description }), parameters: { type: 'object', properties: {} } })) } : {}),
      maxTokens: r.maxTokens,
      ...(r.temperature === undefined ? {} : { temperature: r.temperature }),
      ...(r.topP === undefined ? {} : { topP: r.topP }),
      ...(r.stop === undefined ? {} : { stop: r.stop }),
      ...(r.choice === undefined || !tools.length ? {} : { toolChoice: r.choice === 'named' ? { name: tools[0]!.name } : r.choice }),
      ...(r.format === 'json' ? { responseFormat: { type: 'json' as const } } : {}),
      ...(r.format === 'schema' ? { responseFormat: { type: 'json_schema' as const, name: 'answer', schema: { type: 'object', properties: { a: { type: 'string' } } } } } : {}),
      // A field no standard field covers goes through as it is.
      ...(r.seed === undefined ? {} : { providerOptions: { seed: r.seed } }),
    };
  });

/** The request in a form both sides can be compared in: content as parts, call ids by order, names of results left out. */
function normal(r: ChatRequest, drops: Drops, dropped: Set<string>): unknown {
  const ids = new Map<string, string>();
  const idOf = (x: string) => ids.get(x) ?? (ids.set(x, `c${ids.size}`), ids.get(x)!);
  const parts = (c: string | ContentPart[]): ContentPart[] => {
    const list = typeof c === 'string' ? [{ type: 'text' as const, text: c }] : c.map((p) => (drops.mediaType || p.type !== 'image' ? p : { type: 'image' as const, data: p.data! }));
    if (!drops.oneText) return list;
    const text = list.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
    return [...(text ? [{ type: 'text' as const, text }] : []), ...list.filter((p) => p.type === 'image')];
  };
  const messages = r.messages.map((m, i) => {
    const at = `messages[${i}]`;
    switch (m.role) {
      case 'user':
        return { role: 'user', content: parts(m.content) };
      case 'assistant':
        return {
          role: 'assistant',
          content: m.content || null,
          thinking: dropped.has(`${at}.thinking`) ? undefined : m.thinking?.map((t) => ({ text: t.text, signature: drops.signature ? t.signature : undefined })),
          toolCalls: m.toolCalls?.map((c) => ({ id: idOf(c.id), name: c.name, arguments: c.arguments })),
        };
      case 'tool':
        return { role: 'tool', toolCallId: idOf(m.toolCallId), content: parts(m.content), isError: drops.errorFlag && !dropped.has(`${at}.isError`) ? m.isError : undefined };
      default:
        return m;
    }
  });
  const top = Object.fromEntries(Object.entries(r).filter(([k]) => !dropped.has(k)));
  if (drops.noSchemaName && 'responseFormat' in top && r.responseFormat?.type === 'json_schema') top.responseFormat = { ...r.responseFormat, name: undefined };
  return JSON.parse(JSON.stringify({ ...top, messages }));
}

const specs = [...familySpecIds(), 'bedrock-converse'];

describe('a request the client wrote reads back as the request', () => {
  it.each(specs)('%s', async (id) => {
    const adapter = (adapters as Record<string, ProviderAdapter>)[id]!;
    const serve = (serves as Record<string, ServeCodec>)[id]!;
    const drops = SILENT_DROPS_BY_SPEC[id] ?? SILENT_DROPS[wireFamilyOf(id)];
    const path = (mode: 'blocking' | 'stream') => (adapter.endpoint.streamPath && mode === 'stream' ? adapter.endpoint.streamPath : adapter.endpoint.path).replace('{model}', 'm-1');
    // Reasoning goes back only to the provider that made it.
    const own = (r: ChatRequest): ChatRequest => ({ ...r, messages: r.messages.map((m) => (m.role === 'assistant' ? { ...m, origin: { provider: id, model: 'm-1' } } : m)) });
    await fc.assert(
      fc.property(request, fc.constantFrom('blocking' as const, 'stream' as const), (r, mode) => {
        const built = adapter.buildRequest(own(r), mode);
        const decoded = decodeRequest(adapter, serve, JSON.parse(JSON.stringify(built.body)), path(mode));
        expect(decoded.stream).toBe(mode === 'stream');
        const dropped = new Set(built.warnings.map((w) => w.field));
        const back = decoded.request;
        expect(normal(back, drops, dropped)).toEqual(normal({ ...r, model: back.model === undefined ? undefined : 'm-1' } as ChatRequest, drops, dropped));
      }),
      params,
    );
  });
});
