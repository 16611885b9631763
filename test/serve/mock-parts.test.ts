/**
 * Parts in a provider's own wire form (a server-run web search and its result, written from the
 * documented shapes, docs/wire-facts.md#anthropic-server-tools) served by the mock: this
 * library's client reads them as the provider's parts, on both paths, and so does Anthropic's SDK.
 */
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../generated/index.js';
import { createMockServer, startGateway, type MockServer } from '../../node/index.js';

const CALL = { type: 'server_tool_use', id: 'srvtoolu_01', name: 'web_search', input: { query: 'weather Paris' } };
const RESULT = { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_01', content: [{ type: 'web_search_result', url: 'https://weather.example/paris', title: 'Paris weather', encrypted_content: 'enc-1', page_age: '1 hour' }] };

let mock: MockServer;
beforeAll(async () => {
  mock = await createMockServer({ provider: 'anthropic-messages', script: [{ reply: { parts: [CALL, RESULT], text: 'It is 18 degrees.' } }] });
});
afterAll(() => mock.close());

describe('wire parts from the mock', () => {
  it.each(['chat', 'stream'] as const)('the client reads them as Anthropic parts (%s)', async (mode) => {
    const client = createClient('anthropic-messages', { apiKey: 'k-0000000001', baseUrl: mock.url, model: 'claude-test', maxRetries: 0 });
    const request = { messages: [{ role: 'user' as const, content: 'weather?' }] };
    const r = mode === 'chat' ? await client.chat(request) : await client.stream(request).final();
    expect(r.content.map((p) => p.type)).toEqual(['provider-tool-call', 'provider-tool-result', 'source', 'text']);
    expect(r.content[0]).toMatchObject({ type: 'provider-tool-call', id: 'srvtoolu_01', name: 'web_search', input: { query: 'weather Paris' }, wire: CALL });
    expect(r.content[2]).toMatchObject({ type: 'source', url: 'https://weather.example/paris', title: 'Paris weather' });
    expect(r.text).toBe('It is 18 degrees.');
  });

  it('the Anthropic SDK accepts them in a stream', async () => {
    const sdk = new Anthropic({ apiKey: 'k-0000000001', baseURL: mock.url, maxRetries: 0 });
    const final = await sdk.messages.stream({ model: 'claude-test', max_tokens: 100, messages: [{ role: 'user', content: 'weather?' }] }).finalMessage();
    expect(final.content.map((b) => b.type)).toEqual(['server_tool_use', 'web_search_tool_result', 'text']);
    expect(final.content[0]).toMatchObject(CALL);
  });

  it('through a gateway to another protocol they are left out, and said so', async () => {
    const gw = await startGateway({ listen: 'openai-chat', upstream: 'anthropic-messages', clientToken: 'gw-token-123456789', client: { apiKey: 'k-0000000001', baseUrl: mock.url, maxRetries: 0 } });
    try {
      const res = await fetch(`${gw.url}/chat/completions`, { method: 'POST', headers: { authorization: 'Bearer gw-token-123456789', 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'weather?' }] }) });
      const body = (await res.json()) as { choices: Array<{ message: { content: string } }> };
      expect(body.choices[0]!.message.content).toBe('It is 18 degrees.');
      expect(JSON.stringify(body)).not.toContain('srvtoolu_01');
      expect(JSON.parse(res.headers.get('x-wireforge-warnings') ?? '[]')).toEqual(expect.arrayContaining([expect.objectContaining({ message: expect.stringMatching(/cannot go to|no place/) })]));
    } finally {
      await gw.close();
    }
  });
});

describe('reasoning through a gateway to the same protocol', () => {
  it('keeps its signature on the stream (the caller’s next tool turn needs it)', async () => {
    const upstream = await createMockServer({ provider: 'anthropic-messages', script: [{ reply: { thinking: { text: 'Thinking it over.', signature: 'sig-upstream-1' }, text: 'Done.' } }] });
    const gw = await startGateway({ listen: 'anthropic-messages', upstream: 'anthropic-messages', clientToken: 'gw-token-123456789', client: { apiKey: 'k-0000000001', baseUrl: upstream.url, maxRetries: 0 } });
    try {
      const sdk = new Anthropic({ apiKey: 'gw-token-123456789', baseURL: gw.url, maxRetries: 0 });
      const final = await sdk.messages.stream({ model: 'claude-test', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] }).finalMessage();
      expect(final.content[0]).toMatchObject({ type: 'thinking', thinking: 'Thinking it over.', signature: 'sig-upstream-1' });
    } finally {
      await gw.close();
      await upstream.close();
    }
  });
});
