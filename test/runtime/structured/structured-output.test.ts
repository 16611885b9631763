/**
 * Typed structured output: `responseFormat: { type: 'json', schema }` with a zod schema or a JSON
 * Schema gives `res.object`, parsed and checked (typed from the schema); a reply that is not
 * JSON or does not match is a StructuredOutputError with the text and the issues; a stream gets
 * `object-delta` events whose last one is `final().object`, at every chunk size, on wires with a
 * native JSON-schema mode (OpenAI Chat, Anthropic, Gemini) and with a forced tool (Bedrock
 * Converse); an instruction (DeepSeek) says so in a warning. The bodies in fixtures/ were written
 * for these tests from each provider's documented wire format.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { adapters, createClient, createClientFor, defineTool, RequestError, runTools, StructuredOutputError, withStructuredOutput } from '../../../generated/index.js';
import type { ChatResponse, ProviderAdapter, StreamEvent } from '../../../generated/index.js';
import { accessFor } from '../../helpers/client-access.js';
import { streamBodyFor } from '../../helpers/frame-stream.js';
import { chunked } from '../../helpers/replay.js';
import { chunkSizes } from '../../helpers/fixture-replay.js';

const fixture = (name: string) => readFileSync(new URL(`fixtures/${name}`, import.meta.url), 'utf8');

const Recipe = z.object({
  title: z.string(),
  servings: z.number().int(),
  ingredients: z.array(z.object({ name: z.string(), grams: z.number() })),
  vegetarian: z.boolean(),
  notes: z.string().nullable(),
});

/** The reply every fixture carries, as the documents say it (written out, not read from the code). */
const RECIPE = {
  title: 'Crêpes "fines" 🥞',
  servings: 4,
  ingredients: [
    { name: 'flour', grams: 250 },
    { name: 'milk', grams: 500.5 },
  ],
  vegetarian: true,
  notes: null,
};

const ASK = { model: 'test-model', messages: [{ role: 'user' as const, content: 'A crêpe recipe, please.' }] };

/** A fetch that answers every request with `body` (in chunks of `size`), keeping the request bodies. */
function answering(body: Uint8Array, contentType: string, size = body.length, sent: unknown[] = []): typeof fetch {
  return (async (_url: string, init: { body: string }) => {
    sent.push(JSON.parse(init.body));
    const parts = chunked(body, size);
    let i = 0;
    const stream = new ReadableStream<Uint8Array>({ pull: (c) => (i < parts.length ? c.enqueue(parts[i++]!) : c.close()) });
    return new Response(stream, { headers: { 'content-type': contentType } });
  }) as unknown as typeof fetch;
}

function clientFor(id: keyof typeof adapters, fetch: typeof globalThis.fetch) {
  const adapter = adapters[id] as ProviderAdapter;
  return createClient(id, { ...accessFor(adapter), apiKey: 'test-key-0000', baseUrl: 'http://127.0.0.1:9/v1', fetch, maxRetries: 0 });
}

const json = (text: string) => new TextEncoder().encode(text);
const chatReply = (content: string) =>
  JSON.stringify({ id: 'c1', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } });

describe('typed structured output: blocking', () => {
  it("sends the schema in the wire's JSON-schema form and gives the reply parsed, checked and typed", async () => {
    const sent: unknown[] = [];
    const client = clientFor('openai-chat', answering(json(fixture('openai-chat.json')), 'application/json', undefined, sent));
    const res = await client.chat({ ...ASK, responseFormat: { type: 'json', schema: Recipe, name: 'recipe' } });
    expectTypeOf(res.object).toEqualTypeOf<z.infer<typeof Recipe>>();
    // @ts-expect-error servings is a number, not a string
    const wrong: string = res.object.servings;
    void wrong;
    expect(res.object).toEqual(RECIPE);
    const format = (sent[0] as { response_format: { type: string; json_schema: { name: string; schema: Record<string, unknown> } } }).response_format;
    expect(format.type).toBe('json_schema');
    expect(format.json_schema.name).toBe('recipe');
    expect(format.json_schema.schema).toMatchObject({ type: 'object', required: ['title', 'servings', 'ingredients', 'vegetarian', 'notes'] });
    expect(format.json_schema.schema).not.toHaveProperty('$schema');
  });

  it('types the object from a JSON Schema written `as const`, and leaves it unknown without a schema', async () => {
    const client = clientFor('openai-chat', answering(json(fixture('openai-chat.json')), 'application/json'));
    const schema = {
      type: 'object',
      properties: { title: { type: 'string' }, servings: { type: 'integer' }, vegetarian: { type: 'boolean' } },
      required: ['title', 'servings'],
    } as const;
    const res = await client.chat({ ...ASK, responseFormat: { type: 'json', schema } });
    expectTypeOf(res.object).toEqualTypeOf<{ title: string; servings: number; vegetarian?: boolean }>();
    expect(res.object.title).toBe('Crêpes "fines" 🥞');
    const plain = await client.chat(ASK);
    expectTypeOf(plain.object).toEqualTypeOf<unknown>();
    expect(plain.object).toBeUndefined();
  });

  it("a reply that does not match the schema: StructuredOutputError with the text and the library's issues, with paths", async () => {
    const text = '{"title":"Crêpes","servings":"four","ingredients":[{"name":"flour"}],"vegetarian":true,"notes":null}';
    const client = clientFor('openai-chat', answering(json(chatReply(text)), 'application/json'));
    const error = (await client.chat({ ...ASK, responseFormat: { type: 'json', schema: Recipe } }).catch((e: unknown) => e)) as StructuredOutputError;
    expect(error).toBeInstanceOf(StructuredOutputError);
    expect(error.text).toBe(text);
    expect(error.issues.map((i) => i.path).sort()).toEqual(['/ingredients/0/grams', '/servings']);
    expect(error.message).toContain('/servings');
    // Nothing is lost: the whole response is there.
    expect(error.partial?.text).toBe(text);
    expect(error.provider).toBe('openai-chat');
  });

  it('any Standard Schema: an async validate, and issue paths given as { key } segments', async () => {
    const schema = {
      '~standard': {
        version: 1 as const,
        vendor: 'handmade',
        validate: async (v: unknown) => ((v as { ingredients: Array<{ grams: number }> }).ingredients[1]!.grams > 500 ? { issues: [{ message: 'too much milk', path: [{ key: 'ingredients' }, 1, { key: 'grams' }] }] } : { value: v as { title: string } }),
        jsonSchema: { input: () => ({ type: 'object' }) },
      },
    };
    const client = clientFor('openai-chat', answering(json(fixture('openai-chat.json')), 'application/json'));
    const error = (await client.chat({ ...ASK, responseFormat: { type: 'json', schema } }).catch((e: unknown) => e)) as StructuredOutputError;
    expect(error).toBeInstanceOf(StructuredOutputError);
    expect(error.issues).toEqual([{ path: '/ingredients/1/grams', message: 'too much milk' }]);
  });

  it('a JSON Schema is checked by the runtime validator: issues with paths', async () => {
    const schema = { type: 'object', properties: { servings: { type: 'integer', minimum: 1 } }, required: ['servings', 'title'] };
    const client = clientFor('openai-chat', answering(json(chatReply('{"servings":0}')), 'application/json'));
    const error = (await client.chat({ ...ASK, responseFormat: { type: 'json', schema } }).catch((e: unknown) => e)) as StructuredOutputError;
    expect(error).toBeInstanceOf(StructuredOutputError);
    expect(error.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path: '/servings' }), expect.objectContaining({ path: '' })]));
    expect(error.issues.find((i) => i.path === '')!.message).toMatch(/title/);
  });

  it('a reply that is not JSON, or no text at all: StructuredOutputError saying so at the root', async () => {
    for (const [content, says] of [
      ['Here is your recipe: crêpes!', /not valid JSON/],
      ['', /no text/],
    ] as const) {
      const client = clientFor('openai-chat', answering(json(chatReply(content)), 'application/json'));
      const error = (await client.chat({ ...ASK, responseFormat: { type: 'json', schema: Recipe } }).catch((e: unknown) => e)) as StructuredOutputError;
      expect(error, content).toBeInstanceOf(StructuredOutputError);
      expect(error.issues).toHaveLength(1);
      expect(error.issues[0]!.path).toBe('');
      expect(error.issues[0]!.message).toMatch(says);
      // An empty reply is no text (`text: null`, as the response has it).
      expect(error.text).toBe(content === '' ? null : content);
    }
  });

  it('Bedrock Converse (no JSON-schema form): a forced tool, whose arguments are the reply and whose call is not shown', async () => {
    const sent: unknown[] = [];
    const client = clientFor('bedrock-converse', answering(json(fixture('bedrock-converse.json')), 'application/json', undefined, sent));
    const res = await client.chat({ ...ASK, responseFormat: { type: 'json', schema: Recipe, name: 'recipe', description: 'A recipe for the dish asked for' } });
    expect(res.object).toEqual(RECIPE);
    expect(res.toolCalls).toEqual([]);
    expect(res.finishReason).toBe('stop');
    expect(JSON.parse(res.text!)).toEqual(RECIPE);
    expect(res.content).toEqual([{ type: 'text', text: res.text }]);
    expect(res.message.toolCalls).toBeUndefined();
    expect(res.message.content).toBe(res.text);
    const body = sent[0] as { toolConfig: { tools: Array<{ toolSpec: { name: string; description: string; inputSchema: { json: Record<string, unknown> } } }>; toolChoice: unknown } };
    expect(body.toolConfig.toolChoice).toEqual({ tool: { name: 'recipe' } });
    expect(body.toolConfig.tools).toHaveLength(1);
    expect(body.toolConfig.tools[0]!.toolSpec).toMatchObject({ name: 'recipe', description: 'A recipe for the dish asked for', inputSchema: { json: { type: 'object' } } });
  });

  it('a forced tool cannot sit beside tools of the caller: refused before anything is sent', async () => {
    const sent: unknown[] = [];
    const client = clientFor('bedrock-converse', answering(json(fixture('bedrock-converse.json')), 'application/json', undefined, sent));
    const tools = [{ name: 'lookup', parameters: { type: 'object' } }];
    const error = (await Promise.resolve()
      .then(() => client.chat({ ...ASK, tools, responseFormat: { type: 'json', schema: Recipe } }))
      .catch((e: unknown) => e)) as RequestError;
    expect(error).toBeInstanceOf(RequestError);
    expect(error.field).toBe('responseFormat.schema');
    expect(error.message).toMatch(/forced tool/);
    expect(sent).toEqual([]);
  });

  it('DeepSeek (JSON mode, no schema form): the schema as an instruction, the JSON mode on, an `emulated` warning; a fenced reply is read', async () => {
    const sent: unknown[] = [];
    const fenced = '```json\n{"title":"Crêpes","servings":2,"ingredients":[],"vegetarian":true,"notes":"thin"}\n```';
    const client = clientFor('deepseek', answering(json(chatReply(fenced)), 'application/json', undefined, sent));
    const res = await client.chat({ ...ASK, system: 'Be brief.', responseFormat: { type: 'json', schema: Recipe } });
    expect(res.object).toEqual({ title: 'Crêpes', servings: 2, ingredients: [], vegetarian: true, notes: 'thin' });
    expect(res.warnings).toEqual([expect.objectContaining({ type: 'emulated', field: 'responseFormat.schema' })]);
    const body = sent[0] as { response_format: unknown; messages: Array<{ role: string; content: string }> };
    expect(body.response_format).toEqual({ type: 'json_object' });
    const system = body.messages[0]!;
    expect(system.role).toBe('system');
    expect(system.content.startsWith('Be brief.\n\n')).toBe(true);
    expect(system.content).toContain('JSON');
    expect(system.content).toContain('"ingredients"');
  });

  it('createClientFor alone refuses a schema rather than ignore it; withStructuredOutput gives it the structured layer', async () => {
    const sent: unknown[] = [];
    const adapter = adapters['openai-chat'];
    const options = { apiKey: 'test-key-0000', baseUrl: 'http://127.0.0.1:9/v1', fetch: answering(json(fixture('openai-chat.json')), 'application/json', undefined, sent), maxRetries: 0 };
    const bare = createClientFor(adapter, options);
    const error = (await bare.chat({ ...ASK, responseFormat: { type: 'json', schema: Recipe } }).catch((e: unknown) => e)) as RequestError;
    expect(error).toBeInstanceOf(RequestError);
    expect(error.field).toBe('responseFormat.schema');
    expect(sent).toEqual([]);
    const res = await withStructuredOutput(bare, adapter).chat({ ...ASK, responseFormat: { type: 'json', schema: Recipe } });
    expect(res.object).toEqual(RECIPE);
  });

  it('runTools: the turns that call tools have no object; the answer has it', async () => {
    const answer = (JSON.parse(fixture('openai-chat.json')) as { choices: Array<{ message: { content: string } }> }).choices[0]!.message.content;
    const turns = [
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'pantry', arguments: '{}' } }] },
      { role: 'assistant', content: answer },
    ];
    let i = 0;
    const fetch = (async () => {
      const message = turns[i++]!;
      const body = { id: `r${i}`, model: 'm', choices: [{ index: 0, message, finish_reason: i === 1 ? 'tool_calls' : 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } };
      return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
    }) as unknown as typeof globalThis.fetch;
    const client = clientFor('openai-chat', fetch);
    const pantry = defineTool({ parameters: { type: 'object', properties: {} } as const, execute: () => 'flour, milk, eggs' });
    const r = await runTools(client, { ...ASK, responseFormat: { type: 'json', schema: Recipe } }, { tools: { pantry } });
    expect(r.steps).toHaveLength(2);
    expect(r.steps[0]!.response.object).toBeUndefined();
    expect(r.response.object).toEqual(RECIPE);
  });

  it('a bad schema or name is a RequestError naming the field', async () => {
    const client = clientFor('openai-chat', answering(json(fixture('openai-chat.json')), 'application/json'));
    const cases: Array<[unknown, string]> = [
      [{ type: 'json', schema: 'an object please' }, 'responseFormat.schema'],
      [{ type: 'json', schema: {}, name: 'has spaces' }, 'responseFormat.name'],
      [{ type: 'json', schema: {}, description: 7 }, 'responseFormat.description'],
      [{ type: 'json', schema: { '~standard': { version: 1, vendor: 'acme', validate: (v: unknown) => ({ value: v }) } } }, 'responseFormat.schema'],
    ];
    for (const [responseFormat, field] of cases) {
      const error = (await Promise.resolve()
        .then(() => client.chat({ ...ASK, responseFormat } as never))
        .catch((e: unknown) => e)) as RequestError;
      expect(error, field).toBeInstanceOf(RequestError);
      expect(error.field).toBe(field);
    }
  });
});

/** Every object-delta of a stream, the events in order, and the final response. */
async function streamed(id: keyof typeof adapters, body: Uint8Array, contentType: string, size: number) {
  const client = clientFor(id, answering(body, contentType, size));
  const stream = client.stream({ ...ASK, responseFormat: { type: 'json', schema: Recipe, name: 'recipe' } });
  const events: StreamEvent[] = [];
  for await (const e of stream) events.push(e);
  const final = await stream.final();
  expectTypeOf(final.object).toEqualTypeOf<z.infer<typeof Recipe>>();
  return { events, final };
}

const STREAMS: Array<[keyof typeof adapters, string]> = [
  ['openai-chat', 'openai-chat.sse'],
  ['anthropic-messages', 'anthropic-messages.sse'],
  ['gemini', 'gemini.sse'],
  ['bedrock-converse', 'bedrock-converse.sse'],
];

describe('typed structured output: streams', () => {
  for (const [id, file] of STREAMS) {
    it(`${id}: object-delta events at every chunk size end equal to final().object`, async () => {
      const { body, contentType } = streamBodyFor(adapters[id] as ProviderAdapter, fixture(file));
      let first: string[] | undefined;
      for (const size of chunkSizes(body.length)) {
        const { events, final } = await streamed(id, body, contentType, size);
        const deltas = events.filter((e): e is Extract<StreamEvent, { type: 'object-delta' }> => e.type === 'object-delta').map((e) => e.object);
        expect(final.object, `size ${size}`).toEqual(RECIPE);
        expect(deltas.at(-1), `size ${size}`).toEqual(final.object);
        // Sent only when it changed, and it grows: the reply's title is seen before the whole object.
        for (let i = 1; i < deltas.length; i++) expect(JSON.stringify(deltas[i]), `size ${size}, delta ${i}`).not.toBe(JSON.stringify(deltas[i - 1]));
        expect(deltas.some((d) => JSON.stringify(d) === '{"title":"Cr"}')).toBe(true);
        // The finish comes after the last delta; the text is the reply.
        expect(events.at(-1)!.type).toBe('finish');
        expect(JSON.parse(events.filter((e) => e.type === 'text-delta').map((e) => (e as { delta: string }).delta).join(''))).toEqual(RECIPE);
        // However the bytes are cut, the partial objects are the same: they follow the provider's pieces.
        const shown = deltas.map((d) => JSON.stringify(d));
        if (first === undefined) first = shown;
        else expect(shown, `size ${size}`).toEqual(first);
      }
    });
  }

  it('bedrock-converse: the forced call is not shown as a tool call in the events or the response', async () => {
    const { body, contentType } = streamBodyFor(adapters['bedrock-converse'] as ProviderAdapter, fixture('bedrock-converse.sse'));
    const { events, final } = await streamed('bedrock-converse', body, contentType, 7);
    expect(events.filter((e) => e.type.startsWith('tool-call'))).toEqual([]);
    expect(events.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop', rawFinishReason: 'tool_use' });
    expect(final.toolCalls).toEqual([]);
    expect(final.finishReason).toBe('stop');
  });

  it('final() without iterating gives the checked object; a mismatching stream rejects with StructuredOutputError', async () => {
    const { body, contentType } = streamBodyFor(adapters['openai-chat'] as ProviderAdapter, fixture('openai-chat.sse'));
    const client = clientFor('openai-chat', answering(body, contentType, 64));
    const ok: ChatResponse = await client.stream({ ...ASK, responseFormat: { type: 'json', schema: Recipe } }).final();
    expect(ok.object).toEqual(RECIPE);
    const strict = Recipe.extend({ servings: z.number().min(6) });
    const stream = client.stream({ ...ASK, responseFormat: { type: 'json', schema: strict } });
    const seen: StreamEvent[] = [];
    const error = await (async () => {
      for await (const e of stream) seen.push(e);
    })().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StructuredOutputError);
    expect((error as StructuredOutputError).issues.map((i) => i.path)).toEqual(['/servings']);
    expect(seen.some((e) => e.type === 'object-delta')).toBe(true);
    await expect(stream.final()).rejects.toBeInstanceOf(StructuredOutputError);
  });

  it('a schema library that fills in defaults: the last delta is the checked object', async () => {
    const { body, contentType } = streamBodyFor(adapters['openai-chat'] as ProviderAdapter, fixture('openai-chat.sse'));
    const client = clientFor('openai-chat', answering(body, contentType, 5));
    const withDefault = Recipe.extend({ cuisine: z.string().default('French') });
    const stream = client.stream({ ...ASK, responseFormat: { type: 'json', schema: withDefault } });
    const deltas: unknown[] = [];
    for await (const e of stream) {
      if (e.type !== 'object-delta') continue;
      // Typed from the schema, every member possibly missing yet.
      expectTypeOf(e.object.ingredients).toEqualTypeOf<Array<{ name?: string; grams?: number }> | undefined>();
      expectTypeOf(e.object.cuisine).toEqualTypeOf<string | undefined>();
      deltas.push(e.object);
    }
    const final = await stream.final();
    expect(final.object).toEqual({ ...RECIPE, cuisine: 'French' });
    expect(deltas.at(-1)).toEqual(final.object);
  });

  it('deepseek (instruction): the start event and the response carry the emulated warning once; deltas as on any wire', async () => {
    const { body, contentType } = streamBodyFor(adapters.deepseek as ProviderAdapter, fixture('openai-chat.sse'));
    const { events, final } = await streamed('deepseek', body, contentType, 3);
    const start = events[0] as Extract<StreamEvent, { type: 'start' }>;
    expect(start.warnings.map((w) => w.type)).toEqual(['emulated']);
    expect(final.warnings.map((w) => w.type)).toEqual(['emulated']);
    expect(final.object).toEqual(RECIPE);
    expect(events.filter((e) => e.type === 'object-delta').at(-1)).toEqual({ type: 'object-delta', object: RECIPE });
  });

  it('deepseek: a reply streamed inside a code fence (the fence cut across chunks) gives deltas from its first member on, and the object', async () => {
    // The Chat Completions chunk shape (docs/wire-facts.md), the fence split across chunks.
    const pieces = ['``', '`json\n{"title":"Cr', 'êpes \\"fines\\" 🥞","servings":4,"ingredients":[],"vegetarian":true,"notes":null}', '\n``', '`'];
    const chunk = (delta: object, finish: string | null) => `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'deepseek-chat', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const sse = [chunk({ role: 'assistant', content: '' }, null), ...pieces.map((p) => chunk({ content: p }, null)), chunk({}, 'stop'), 'data: [DONE]\n\n'].join('');
    const { events, final } = await streamed('deepseek', json(sse), 'text/event-stream', 9);
    const deltas = events.filter((e) => e.type === 'object-delta').map((e) => (e as { object: unknown }).object);
    expect(deltas[0]).toEqual({ title: 'Cr' });
    expect(final.object).toEqual({ title: 'Crêpes "fines" 🥞', servings: 4, ingredients: [], vegetarian: true, notes: null });
    expect(deltas.at(-1)).toEqual(final.object);
  });

  it('a request that is not an object is still a RequestError from the client, not a TypeError', async () => {
    const client = clientFor('openai-chat', answering(json(fixture('openai-chat.json')), 'application/json'));
    for (const bad of [null, undefined, 'hi']) {
      const error = await Promise.resolve()
        .then(() => client.chat(bad as never))
        .catch((e: unknown) => e);
      expect(error, String(bad)).toBeInstanceOf(RequestError);
    }
  });

  it('abort() stops a structured stream: the iteration and final() reject with the reason', async () => {
    const { body, contentType } = streamBodyFor(adapters['anthropic-messages'] as ProviderAdapter, fixture('anthropic-messages.sse'));
    const client = clientFor('anthropic-messages', answering(body, contentType, 40));
    const stream = client.stream({ ...ASK, responseFormat: { type: 'json', schema: Recipe } });
    const reason = new Error('enough');
    const error = await (async () => {
      for await (const e of stream) if (e.type === 'object-delta') stream.abort(reason);
    })().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBe(reason);
    await expect(stream.final()).rejects.toBe(reason);
  });

  it('a stream without a schema has no object-delta events and no object', async () => {
    const { body, contentType } = streamBodyFor(adapters['openai-chat'] as ProviderAdapter, fixture('openai-chat.sse'));
    const client = clientFor('openai-chat', answering(body, contentType, 16));
    const stream = client.stream(ASK);
    const types = new Set<string>();
    for await (const e of stream) types.add(e.type);
    expect(types.has('object-delta')).toBe(false);
    expect((await stream.final()).object).toBeUndefined();
  });
});
