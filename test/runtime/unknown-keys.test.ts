/**
 * Unknown keys are errors: in createClient's options, in the call options and in every object of
 * the unified request the check knows. A RequestError names the key by its path and the known key
 * it was likely meant to be, before anything is sent. `providerOptions`, `metadata` and `headers`
 * stay open. The suggestions expected here are written from the documented option and field names
 * (docs/unified-model.md), not from the tables in the code.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { adapters, createClient, createClientFor, RequestError, runTools, type ChatRequest, type ClientOptions } from '../../generated/index.js';
import { startLoopbackServer, type LoopbackServer } from '../helpers/loopback-server.js';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A fetch that records every call and answers a well-formed Chat Completions body. */
function recordingFetch() {
  const calls: string[] = [];
  const fetch = (async (url: string | URL | Request) => {
    calls.push(String(url));
    const body = { id: 'c1', model: 'gpt-x', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }] };
    return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
  }) as typeof globalThis.fetch;
  return { fetch, calls };
}

const KEY = 'sk-test-0000000000';
const hi = { role: 'user' as const, content: 'hi' };
const asRequest = (r: unknown) => r as ChatRequest;
const thrown = (f: () => unknown): unknown => {
  try {
    f();
  } catch (e) {
    return e;
  }
  return undefined;
};
const expectUnknown = (error: unknown, field: string, suggestion: string | undefined) => {
  expect(error).toBeInstanceOf(RequestError);
  expect((error as RequestError).field).toBe(field);
  expect((error as RequestError).message).toContain(`${field}: unknown key`);
  if (suggestion === undefined) expect((error as RequestError).message).not.toContain('did you mean');
  else expect((error as RequestError).message).toContain(`(did you mean "${suggestion}"?)`);
};

// [what, request, the path named, the key suggested]
const REQUESTS: Array<[string, Record<string, unknown>, string, string | undefined]> = [
  ['a typo at the top', { temprature: 0.5, messages: [hi] }, 'temprature', 'temperature'],
  ["another API's snake_case", { max_tokens: 100, messages: [hi] }, 'max_tokens', 'maxTokens'],
  ['another case', { TopP: 0.9, messages: [hi] }, 'TopP', 'topP'],
  ['a call option in the request', { signal: new AbortController().signal, messages: [hi] }, 'signal', undefined],
  ['a message field', { messages: [{ role: 'user', contnet: 'hi' }] }, 'messages[0].contnet', 'content'],
  ['a tool message field', { messages: [hi, { role: 'tool', tool_call_id: 'c1', toolCallId: 'c1', content: 'ok' }] }, 'messages[1].tool_call_id', 'toolCallId'],
  ['a content part field', { messages: [{ role: 'user', content: [{ type: 'image', url: 'https://example.test/a.png', media_type: 'image/png' }] }] }, 'messages[0].content[0].media_type', 'mediaType'],
  ['an assistant tool call field', { messages: [hi, { role: 'assistant', content: null, toolCalls: [{ id: 'c', name: 'f', arguments: '{}', type: 'function' }] }] }, 'messages[1].toolCalls[0].type', undefined],
  ['a thinking part field', { messages: [hi, { role: 'assistant', content: 'ok', thinking: [{ text: 't', signatur: 's' }] }] }, 'messages[1].thinking[0].signatur', 'signature'],
  ['a tool field', { tools: [{ name: 'f', paramters: {} }], messages: [hi] }, 'tools[0].paramters', 'parameters'],
  ['a provider tool field', { tools: [{ type: 'provider', name: 'web_search', option: {} }], messages: [hi] }, 'tools[0].option', 'options'],
  ['a tool choice field', { toolChoice: { name: 'f', type: 'function' }, messages: [hi] }, 'toolChoice.type', undefined],
  ['a reasoning field', { reasoning: { budget_tokens: 1024 }, messages: [hi] }, 'reasoning.budget_tokens', 'budgetTokens'],
  ['a response format field', { responseFormat: { type: 'json_schema', name: 'r', schema: {}, strcit: true }, messages: [hi] }, 'responseFormat.strcit', 'strict'],
];

describe('an unknown key in the request is a RequestError naming it, its path and the likely key; nothing is sent', () => {
  it.each(REQUESTS)('%s', async (_what, req, field, suggestion) => {
    const { fetch, calls } = recordingFetch();
    const client = createClientFor(adapters['openai-chat'], { apiKey: KEY, fetch, model: 'gpt-x', maxRetries: 0 });
    for (const call of [async () => client.chat(asRequest(req)), async () => client.stream(asRequest(req)).final(), async () => runTools(client, asRequest(req), { tools: {} })]) {
      expectUnknown(await call().catch((e: unknown) => e), field, suggestion);
    }
    expect(calls).toEqual([]);
  });

  it('providerOptions and metadata stay open; a response message goes back as it came', async () => {
    const { fetch, calls } = recordingFetch();
    const client = createClientFor(adapters['openai-chat'], { apiKey: KEY, fetch, model: 'gpt-x', maxRetries: 0 });
    const first = await client.chat({ messages: [hi], providerOptions: { seed: 7, any_wire_field: { deep: true } }, metadata: { run: 'r1' } });
    // The assistant message as the response gives it (origin, parts) is a known shape.
    const second = await client.chat({ messages: [hi, first.message, { role: 'user', content: 'again' }] });
    expect(second.text).toBe('ok');
    expect(calls).toHaveLength(2);
  });

  it('a real server on 127.0.0.1 receives nothing for a mistyped field', async () => {
    server = await startLoopbackServer({ status: 200, body: '{}' });
    const client = createClientFor(adapters['openai-chat'], { apiKey: KEY, baseUrl: `${server.url}/v1`, model: 'gpt-x', maxRetries: 0 });
    expectUnknown(await client.chat(asRequest({ temprature: 0.2, messages: [hi] })).catch((e: unknown) => e), 'temprature', 'temperature');
    expectUnknown(await (async () => client.stream(asRequest({ max_tokens: 9, messages: [hi] })).final())().catch((e: unknown) => e), 'max_tokens', 'maxTokens');
    expect(server.requests).toHaveLength(0);
  });
});

describe('createClient options', () => {
  it('baseURL (the spelling of other SDKs) is refused when the client is made: nothing falls back to the real URL', async () => {
    server = await startLoopbackServer({ status: 200, body: '{}' });
    const { fetch, calls } = recordingFetch();
    const options = { apiKey: KEY, baseURL: `${server.url}/v1`, model: 'gpt-x', fetch } as unknown as ClientOptions;
    expectUnknown(thrown(() => createClient('openai-chat', options)), 'options.baseURL', 'baseUrl');
    expectUnknown(thrown(() => createClientFor(adapters['anthropic-messages'], options)), 'options.baseURL', 'baseUrl');
    expect(calls).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });

  it.each([
    ['api_key', 'apiKey'],
    ['maxRetires', 'maxRetries'],
    ['timeout', 'timeoutMs'],
    ['retries', undefined],
    ['Headers', 'headers'],
  ])('%s', (key, suggestion) => {
    const options = { apiKey: KEY, [key]: 1 } as unknown as ClientOptions;
    expectUnknown(thrown(() => createClient('openai-chat', options)), `options.${key}`, suggestion);
  });

  it('a field of defaults is checked like the request, with its path', () => {
    const options = { apiKey: KEY, defaults: { temprature: 0.3 } } as unknown as ClientOptions;
    expectUnknown(thrown(() => createClient('openai-chat', options)), 'defaults.temprature', 'temperature');
    const messages = { apiKey: KEY, defaults: { messages: [hi] } } as unknown as ClientOptions;
    expectUnknown(thrown(() => createClient('openai-chat', messages)), 'defaults.messages', undefined);
    const value = { apiKey: KEY, defaults: { maxTokens: -1 } } as unknown as ClientOptions;
    expect(thrown(() => createClient('openai-chat', value))).toMatchObject({ field: 'defaults.maxTokens' });
  });

  it('headers stay open', async () => {
    const { fetch, calls } = recordingFetch();
    const client = createClient('openai-chat', { apiKey: KEY, fetch, model: 'gpt-x', headers: { 'x-any-Header': '1' } });
    await client.chat({ messages: [hi] }, { headers: { 'x-other': '2' } });
    expect(calls).toHaveLength(1);
  });
});

describe('call options', () => {
  it('a mistyped signal is refused before anything is sent', async () => {
    const { fetch, calls } = recordingFetch();
    const client = createClient('openai-chat', { apiKey: KEY, fetch, model: 'gpt-x' });
    const call = { signl: new AbortController().signal } as unknown as { signal: AbortSignal };
    expectUnknown(await client.chat({ messages: [hi] }, call).catch((e: unknown) => e), 'callOptions.signl', 'signal');
    expectUnknown(await (async () => client.stream({ messages: [hi] }, call).final())().catch((e: unknown) => e), 'callOptions.signl', 'signal');
    expect(calls).toEqual([]);
  });
});

describe('TypeScript keeps the excess-property error', () => {
  it('type-checks only with the right spelling', () => {
    // @ts-expect-error baseURL is not an option (baseUrl is)
    const wrong: ClientOptions = { baseURL: 'http://127.0.0.1:1' };
    // @ts-expect-error temprature is not a request field
    const typo: ChatRequest = { temprature: 1, messages: [hi] };
    expect([wrong, typo]).toHaveLength(2);
  });
});
