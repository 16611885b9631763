/**
 * Reasoning through Chat Completions callers (docs/serving.md#dialects): the official OpenAI SDK
 * in front of the Anthropic mock, through a gateway whose routes answer in OpenRouter's or
 * DeepSeek's Chat dialect. Expected bodies are written from those providers' documented formats
 * (docs/wire-facts.md#openrouter, #deepseek): OpenRouter's `reasoning_details` (type
 * `reasoning.text`, `text`, `signature`, `index`) and DeepSeek's `reasoning_content`; the second
 * turn is checked on what the upstream mock received, an Anthropic thinking block.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as anthropicMessages from '../../generated/anthropic-messages.js';
import * as openaiChat from '../../generated/openai-chat.js';
import * as openrouter from '../../generated/openrouter.js';
import { builtInSpecs, checkGatewayConfig, createMockServer, GatewayConfigError, startGateway, type Listening, type MockServer } from '../../node/index.js';

const KEY = 'sk-ant-upstream-dialect-01';
// Anthropic signatures are opaque base64; this one is made up for the test.
const SIGNATURE = 'EqQBCkYIBxgCKkDbWFkZS11cC1mb3ItdGhlLWdhdGV3YXktdGVzdA==';
const THOUGHT = 'Two and two make four.';
const ANSWER = 'Four.';
/** The signature as a signing dialect hands it to the caller: `<spec id>:<signature>` (docs/serving.md#dialects). */
const MARKED = `anthropic-messages:${SIGNATURE}`;

type Json = Record<string, any>;

describe('gateway dialects: reasoning and its signature through Chat Completions', () => {
  let anthropic: MockServer;
  let down: MockServer;
  let openrouter: MockServer;
  let gw: Listening;
  const sdk = (prefix = '/openai') => new OpenAI({ apiKey: 'unused-no-client-tokens', baseURL: `${gw.url}${prefix}`, maxRetries: 0 });
  /** What the upstream got last: its messages, as Anthropic's wire has them. */
  const received = () => (anthropic.requests.at(-1)!.body as { messages: Json[] }).messages;

  beforeAll(async () => {
    anthropic = await createMockServer({
      provider: 'anthropic-messages',
      apiKey: KEY,
      script: [
        { when: { lastUserText: 'sum' }, reply: { thinking: { text: THOUGHT, signature: SIGNATURE }, text: ANSWER } },
        { reply: { text: 'Noted.' } },
      ],
    });
    // An Anthropic target that is overloaded, and an OpenRouter one behind it (a wire that reads reasoning_details).
    down = await createMockServer({ provider: 'anthropic-messages', script: [{ fault: { status: 529, message: 'Overloaded' } }] });
    openrouter = await createMockServer({ provider: 'openrouter', script: [{ reply: { text: 'From the fallback.' } }] });
    const target = { spec: 'anthropic-messages', model: 'claude-up', baseUrl: anthropic.url, key: { keys: [KEY] } };
    gw = await startGateway({
      listen: [
        { spec: 'openai-chat', path: '/openai', dialects: ['openrouter', 'deepseek'] },
        { spec: 'openai-chat', path: '/strict' },
        { spec: 'anthropic-messages', path: '/anthropic' },
      ],
      routes: [
        { model: 'claude-or', dialect: 'openrouter', targets: [target] },
        { model: 'claude-ds', dialect: 'deepseek', targets: [target] },
        { model: 'claude', targets: [target] },
        {
          model: 'claude-fb',
          dialect: 'openrouter',
          targets: [
            { spec: 'anthropic-messages', model: 'claude-up', baseUrl: down.url, key: { keys: [KEY] } },
            { spec: 'openrouter', model: 'anthropic/claude-up', baseUrl: openrouter.url, key: { keys: ['sk-or-fallback-01'] } },
          ],
        },
      ],
    });
  });
  afterAll(async () => {
    await gw.close();
    await anthropic.close();
    await down.close();
    await openrouter.close();
  });

  /** The second turn, with the first turn's assistant message as the caller sends it back. */
  const secondTurn = (assistant: Json) => [{ role: 'user', content: 'sum 2+2' }, assistant, { role: 'user', content: 'thanks' }] as OpenAI.ChatCompletionMessageParam[];
  const thinkingSent = () => received()[1]!.content.filter((b: Json) => b.type === 'thinking');

  it('dialect: openrouter, blocking: reasoning_details with the signature; sent back, Anthropic gets that signature', async () => {
    const { data: first, response } = await sdk().chat.completions.create({ model: 'claude-or', messages: [{ role: 'user', content: 'sum 2+2' }] }).withResponse();
    const message = first.choices[0]!.message as unknown as Json;
    expect(message.content).toBe(ANSWER);
    // The dialect has a place for Claude's reasoning: nothing was left out.
    expect(response.headers.get('x-wireforge-warnings')).toBeNull();
    expect(message.reasoning_details).toHaveLength(1);
    // The signature as Anthropic made it, marked with the spec that made it (so it goes back only there).
    expect(message.reasoning_details[0]).toMatchObject({ type: 'reasoning.text', text: THOUGHT, signature: MARKED, index: 0 });

    await sdk().chat.completions.create({ model: 'claude-or', messages: secondTurn(message) });
    expect(thinkingSent()).toEqual([{ type: 'thinking', thinking: THOUGHT, signature: SIGNATURE }]);
    // The thinking block leads the assistant turn, as Anthropic requires.
    expect(received()[1]!.content[0].type).toBe('thinking');
  });

  it('dialect: openrouter, streamed: reasoning and reasoning_details deltas, the signature in its own detail; sent back, Anthropic gets it', async () => {
    const stream = await sdk().chat.completions.create({ model: 'claude-or', stream: true, messages: [{ role: 'user', content: 'sum 2+2' }] });
    let reasoning = '';
    let content = '';
    // Details merge by index, as a client of OpenRouter's stream does: texts appended, the signature kept.
    const details: Json[] = [];
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta as Json | undefined;
      if (!delta) continue;
      reasoning += delta.reasoning ?? '';
      content += delta.content ?? '';
      for (const d of delta.reasoning_details ?? []) {
        expect(d.type).toBe('reasoning.text');
        const at = (details[d.index] ??= { type: d.type, text: '', index: d.index });
        at.text += d.text ?? '';
        if (d.signature !== undefined) at.signature = d.signature;
      }
    }
    expect(reasoning).toBe(THOUGHT);
    expect(content).toBe(ANSWER);
    expect(details).toEqual([{ type: 'reasoning.text', text: THOUGHT, signature: MARKED, index: 0 }]);

    const again = await sdk().chat.completions.create({ model: 'claude-or', stream: true, messages: secondTurn({ role: 'assistant', content, reasoning_details: details }) });
    for await (const _ of again) void _;
    expect(thinkingSent()).toEqual([{ type: 'thinking', thinking: THOUGHT, signature: SIGNATURE }]);
  });

  it('dialect: deepseek: reasoning_content blocking and streamed; it has no place for the signature, so Anthropic gets no thinking back (with a warning)', async () => {
    const first = await sdk().chat.completions.create({ model: 'claude-ds', messages: [{ role: 'user', content: 'sum 2+2' }] });
    const message = first.choices[0]!.message as unknown as Json;
    expect(message.reasoning_content).toBe(THOUGHT);
    expect(message.content).toBe(ANSWER);
    expect('reasoning_details' in message).toBe(false);

    const stream = await sdk().chat.completions.create({ model: 'claude-ds', stream: true, messages: [{ role: 'user', content: 'sum 2+2' }] });
    let reasoning = '';
    for await (const chunk of stream) reasoning += (chunk.choices[0]?.delta as Json | undefined)?.reasoning_content ?? '';
    expect(reasoning).toBe(THOUGHT);

    const { response } = await sdk().chat.completions.create({ model: 'claude-ds', messages: secondTurn({ role: 'assistant', content: ANSWER, reasoning_content: THOUGHT }) }).withResponse();
    // Anthropic takes a thinking block back only with its signature, which reasoning_content cannot
    // carry: the text is DeepSeek-style reasoning, not Anthropic's, and is left out, with a warning.
    expect(thinkingSent()).toEqual([]);
    expect(received()[1]!.content).toEqual([{ type: 'text', text: ANSWER }]);
    const warnings = JSON.parse(response.headers.get('x-wireforge-warnings') ?? '[]') as Json[];
    expect(warnings).toContainEqual({ field: 'messages[1].thinking', message: 'reasoning from deepseek is not valid for anthropic-messages; it was not sent' });
  });

  it('a fallback of another protocol does not get reasoning Anthropic signed: it is left out, with a warning', async () => {
    const details = [{ type: 'reasoning.text', text: THOUGHT, signature: MARKED, index: 0 }];
    const { data, response } = await sdk().chat.completions.create({ model: 'claude-fb', messages: secondTurn({ role: 'assistant', content: ANSWER, reasoning_details: details }) }).withResponse();
    expect(data.choices[0]!.message.content).toBe('From the fallback.');
    expect(response.headers.get('x-wireforge-fallbacks')).toBe('anthropic-messages/claude-up 529');
    const sent = (openrouter.requests.at(-1)!.body as { messages: Json[] }).messages[1]!;
    expect(sent.role).toBe('assistant');
    expect(sent.reasoning_details).toBeUndefined();
    const warnings = JSON.parse(response.headers.get('x-wireforge-warnings') ?? '[]') as Json[];
    expect(warnings).toContainEqual({ field: 'messages[1].thinking', message: 'reasoning from anthropic-messages is not valid for openrouter; it was not sent' });
    // The first target was asked with the reasoning, signature and all.
    const first = (down.requests.at(-1)!.body as { messages: Json[] }).messages[1]!;
    expect(first.content[0]).toEqual({ type: 'thinking', thinking: THOUGHT, signature: SIGNATURE });
  });

  it('reasoning not marked by the gateway (or marked with a spec it does not know) is the dialect’s own: Anthropic does not get it, with a warning', async () => {
    for (const signature of [SIGNATURE, `no-such-spec:${SIGNATURE}`]) {
      const details = [{ type: 'reasoning.text', text: THOUGHT, signature, index: 0 }];
      const { response } = await sdk().chat.completions.create({ model: 'claude-or', messages: secondTurn({ role: 'assistant', content: ANSWER, reasoning_details: details }) }).withResponse();
      expect(thinkingSent()).toEqual([]);
      const warnings = JSON.parse(response.headers.get('x-wireforge-warnings') ?? '[]') as Json[];
      expect(warnings).toContainEqual({ field: 'messages[1].thinking', message: 'reasoning from openrouter is not valid for anthropic-messages; it was not sent' });
    }
  });

  it('the mark goes with the reasoning, not the route: Claude’s reasoning asked for on a route to another protocol is not sent there', async () => {
    const { data } = await sdk().chat.completions.create({ model: 'claude-or', messages: [{ role: 'user', content: 'sum 2+2' }] }).withResponse();
    const message = data.choices[0]!.message as unknown as Json;
    const before = openrouter.requests.length;
    // claude-fb's first target is down (529); its fallback speaks OpenRouter's wire.
    const { response } = await sdk().chat.completions.create({ model: 'claude-fb', messages: secondTurn(message) }).withResponse();
    expect(openrouter.requests.length).toBe(before + 1);
    expect((openrouter.requests.at(-1)!.body as { messages: Json[] }).messages[1]!.reasoning_details).toBeUndefined();
    expect(JSON.parse(response.headers.get('x-wireforge-warnings') ?? '[]')).toContainEqual({ field: 'messages[1].thinking', message: 'reasoning from anthropic-messages is not valid for openrouter; it was not sent' });
  });

  it('the default route answers strict Chat Completions: no reasoning field in the body or any chunk', async () => {
    const { data: first, response } = await sdk().chat.completions.create({ model: 'claude', messages: [{ role: 'user', content: 'sum 2+2' }] }).withResponse();
    // The choice and message as OpenAI documents them, and nothing else.
    expect(Object.keys(first.choices[0]!)).toEqual(['index', 'message', 'logprobs', 'finish_reason']);
    expect(first.choices[0]!.message).toEqual({ role: 'assistant', content: ANSWER, refusal: null, annotations: [] });
    // As before dialects: the reasoning is left out, and the warnings header says so.
    expect(JSON.parse(response.headers.get('x-wireforge-warnings') ?? '[]')).toEqual([expect.objectContaining({ field: expect.stringContaining('thinking') })]);
    const stream = await sdk().chat.completions.create({ model: 'claude', stream: true, messages: [{ role: 'user', content: 'sum 2+2' }] });
    const keys = new Set<string>();
    for await (const chunk of stream) for (const c of chunk.choices) for (const k of Object.keys(c.delta)) keys.add(k);
    expect([...keys].filter((k) => k.startsWith('reasoning'))).toEqual([]);
    expect(keys.has('content')).toBe(true);
  });

  it('a dialect route leaves callers on another listen protocol as they were', async () => {
    const res = await fetch(`${gw.url}/anthropic/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'claude-or', max_tokens: 100, messages: [{ role: 'user', content: 'sum 2+2' }] }),
    });
    const body = (await res.json()) as Json;
    expect(body.type).toBe('message');
    expect(body.content[0]).toEqual({ type: 'thinking', thinking: THOUGHT, signature: SIGNATURE });
  });

  it('a request asks for an allowed dialect with wireforge: { dialect } (taken out of the body), or for the plain protocol by its id', async () => {
    const body = { model: 'claude', messages: [{ role: 'user', content: 'sum 2+2' }], wireforge: { dialect: 'openrouter' } } as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming;
    const { data, response } = await sdk().chat.completions.create(body).withResponse();
    expect((data.choices[0]!.message as unknown as Json).reasoning_details[0]).toMatchObject({ type: 'reasoning.text', text: THOUGHT, signature: MARKED });
    // The field is the gateway's: it is not dropped with a warning as an unknown Chat field would be.
    expect(response.headers.get('x-wireforge-warnings') ?? '').not.toContain('wireforge');
    const plain = { model: 'claude-or', messages: [{ role: 'user', content: 'sum 2+2' }], wireforge: { dialect: 'openai-chat' } } as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming;
    const strict = await sdk().chat.completions.create(plain);
    expect(strict.choices[0]!.message).toEqual({ role: 'assistant', content: ANSWER, refusal: null, annotations: [] });
  });

  it('a dialect the listen entry does not allow is a 400 in OpenAI’s error shape naming the field and the values it takes', async () => {
    const ask = (prefix: string, wireforge: unknown) =>
      sdk(prefix).chat.completions.create({ model: 'claude', messages: [{ role: 'user', content: 'hi' }], wireforge } as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming).then(
        () => undefined,
        (e: unknown) => e,
      );
    const before = anthropic.requests.length;
    const groq = await ask('/openai', { dialect: 'groq' });
    expect(groq).toBeInstanceOf(OpenAI.BadRequestError);
    const err = groq as InstanceType<typeof OpenAI.BadRequestError>;
    expect(err.status).toBe(400);
    expect((err.error as Json).type).toBe('invalid_request_error');
    expect(err.message).toContain('wireforge.dialect "groq" is not allowed here');
    expect(err.message).toContain('"openai-chat", "openrouter", "deepseek"');
    const strict = (await ask('/strict', { dialect: 'openrouter' })) as Error;
    expect(strict).toBeInstanceOf(OpenAI.BadRequestError);
    expect(strict.message).toContain('allows no dialect');
    const unknownField = (await ask('/openai', { dialect: 'openrouter', mode: 'x' })) as Error;
    expect(unknownField.message).toContain('wireforge.mode is not a field the gateway reads');
    const notObject = (await ask('/openai', 'openrouter')) as Error;
    expect(notObject.message).toContain('wireforge must be an object such as { "dialect": "<spec id>" }, not "openrouter"');
    // Nothing went upstream.
    expect(anthropic.requests.length).toBe(before);
  });
});

describe('gateway dialects: config diagnostics', () => {
  const specs = builtInSpecs();
  const target = { spec: 'anthropic-messages', key: { keys: ['sk-ant-00000000'] } };
  const check = (config: unknown) => checkGatewayConfig(config, { specs, env: {} });

  it('an unknown dialect: located, with a did-you-mean', () => {
    expect(check({ listen: 'openai-chat', routes: [{ model: 'm', dialect: 'openroutr', targets: [target] }] })).toEqual([
      { code: 'unknown-spec', pointer: '/routes/0/dialect', message: 'no spec "openroutr"', hint: 'did you mean "openrouter"?' },
    ]);
    expect(check({ listen: [{ spec: 'openai-chat', dialects: ['openrouter', 'deepsek'] }], routes: [{ model: 'm', targets: [target] }] })).toEqual([
      { code: 'unknown-spec', pointer: '/listen/0/dialects/1', message: 'no spec "deepsek"', hint: 'did you mean "deepseek"?' },
    ]);
  });

  it('a dialect that does not extend a listen protocol of the gateway', () => {
    const [route] = check({ listen: 'openai-chat', routes: [{ model: 'm', dialect: 'vertex-anthropic', targets: [target] }] });
    expect(route).toMatchObject({ code: 'bad-value', pointer: '/routes/0/dialect' });
    expect(route!.message).toBe('spec "vertex-anthropic" extends anthropic-messages, not the listen protocol openai-chat: it cannot be a dialect here');
    expect(route!.hint).toContain('openrouter');
    // A dialect of one listen protocol is not one of another on the same gateway.
    const [entry] = check({ listen: [{ spec: 'openai-chat', path: '/o' }, { spec: 'anthropic-messages', path: '/a', dialects: ['deepseek'] }], routes: [{ model: 'm', targets: [target] }] });
    expect(entry).toMatchObject({ code: 'bad-value', pointer: '/listen/1/dialects/0' });
    expect(entry!.message).toContain('extends openai-chat, not the listen protocol anthropic-messages');
    // The listen protocol itself extends nothing.
    expect(check({ listen: 'openai-chat', routes: [{ model: 'm', dialect: 'openai-chat', targets: [target] }] })[0]!.message).toContain('extends no spec');
  });

  it('a spec that extends the listen protocol but is called on other paths (the model in the URL) is no dialect of it', () => {
    // Vertex's Anthropic wire extends anthropic-messages, but takes the model in the path, not the body.
    const [route] = check({ listen: 'anthropic-messages', routes: [{ model: 'm', dialect: 'vertex-anthropic', targets: [target] }] });
    expect(route).toMatchObject({ code: 'bad-value', pointer: '/routes/0/dialect' });
    expect(route!.message).toBe('spec "vertex-anthropic" extends anthropic-messages but reads a request /{model}:rawPredict / /{model}:streamRawPredict with the model in the path, where anthropic-messages reads it with the model at model: a caller of anthropic-messages cannot be read in it');
    // Same paths, model in the body: a dialect.
    expect(check({ listen: 'openai-chat', routes: [{ model: 'm', dialect: 'deepseek', targets: [target] }] })).toEqual([]);
  });

  it('specs given inline (a Worker\'s) are dialects when they say what they extend', () => {
    const own = { 'openai-chat': { adapter: openaiChat.adapter, serve: openaiChat.serve }, 'anthropic-messages': anthropicMessages.adapter };
    const config = { listen: [{ spec: 'openai-chat', dialects: ['reasoning-chat'] }], routes: [{ model: 'm', dialect: 'reasoning-chat', targets: [target] }] };
    const plain = checkGatewayConfig(config, { specs: { ...own, 'reasoning-chat': { adapter: openrouter.adapter, serve: openrouter.serve } }, env: {} });
    expect(plain.map((p) => [p.pointer, p.message])).toEqual([
      ['/listen/0/dialects/0', 'spec "reasoning-chat" extends no spec, not the listen protocol openai-chat: it cannot be a dialect here'],
      ['/routes/0/dialect', 'spec "reasoning-chat" extends no spec, not the listen protocol openai-chat: it cannot be a dialect here'],
    ]);
    expect(checkGatewayConfig(config, { specs: { ...own, 'reasoning-chat': { adapter: openrouter.adapter, serve: openrouter.serve, extends: 'openai-chat' } }, env: {} })).toEqual([]);
  });

  it('startGateway refuses such a config before it listens', async () => {
    const err = await startGateway({ listen: 'openai-chat', routes: [{ model: 'm', dialect: 'gemini', targets: [target] }] }).then(
      (g) => (g.close(), undefined),
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(GatewayConfigError);
    expect((err as GatewayConfigError).problems.map((p) => p.pointer)).toEqual(['/routes/0/dialect']);
  });
});
