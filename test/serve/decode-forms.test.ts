/**
 * Request forms real clients send, read back by the server side (from a review of the first
 * version): params named by dotted unified fields, value tables keyed by booleans, Gemini results
 * as objects or under `result`, Anthropic prefills, Gemini turns without a role, bad path escapes.
 */
import { describe, expect, it } from 'vitest';
import { adapters } from '../../generated/index.js';
import { decodeRequest, serves, StreamWriter } from '../../generated/serve.js';

const decode = (id: keyof typeof adapters, body: unknown, path = '') => decodeRequest(adapters[id], serves[id], body, path).request;

describe('request forms read back', () => {
  it('Anthropic thinking is reasoning.budgetTokens', () => {
    const r = decode('anthropic-messages', { model: 'c', max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 1024 }, messages: [{ role: 'user', content: 'hi' }] });
    expect(r.reasoning).toEqual({ budgetTokens: 1024 });
    expect(r.providerOptions).toBeUndefined();
  });

  it('Responses reasoning.summary "auto" is summary: true', () => {
    const r = decode('openai-responses', { model: 'o', input: 'hi', reasoning: { summary: 'auto', effort: 'low' } });
    expect(r.reasoning).toEqual({ summary: true, effort: 'low' });
  });

  it('Gemini results as an object, or under `result`, keep their content', () => {
    const call = { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] };
    const asObject = decode('gemini', { contents: [{ role: 'user', parts: [{ text: 'w?' }] }, call, { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { output: { temp: 18 } } } }] }] }, '/models/g:generateContent');
    expect(asObject.messages.at(-1)).toMatchObject({ role: 'tool', toolName: 'get_weather', content: '{"temp":18}' });
    expect(asObject.messages.at(-1)).not.toHaveProperty('isError');
    const asResult = decode('gemini', { contents: [{ role: 'user', parts: [{ text: 'w?' }] }, call, { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { result: 'the answer is 42' } } }] }] }, '/models/g:generateContent');
    expect(asResult.messages.at(-1)).toMatchObject({ role: 'tool', content: 'the answer is 42' });
  });

  it('a Gemini turn without a role is the user’s', () => {
    const r = decode('gemini', { contents: [{ parts: [{ text: 'hello' }] }] }, '/models/g:generateContent');
    expect(r.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'hello' }] }]);
  });

  it('an Anthropic prefill (assistant content as a string)', () => {
    const r = decode('anthropic-messages', { model: 'c', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'Sure,' }] });
    expect(r.messages.at(-1)).toEqual({ role: 'assistant', content: 'Sure,' });
  });

  it('a malformed escape in the model path does not throw', () => {
    expect(() => decode('gemini', { contents: [{ role: 'user', parts: [{ text: 'x' }] }] }, '/v1beta/models/%E0%A4%A:generateContent')).not.toThrow();
  });
});

describe('streams written', () => {
  it('Anthropic message_delta always has usage (the SDKs read output_tokens from it)', () => {
    const w = new StreamWriter(adapters['anthropic-messages'], serves['anthropic-messages'], { id: 'm1', model: 'c', created: 0 });
    const out = [...w.write({ type: 'text-delta', delta: 'hi' }), ...w.write({ type: 'finish', finishReason: 'stop', rawFinishReason: null, usage: null }), ...w.end()];
    expect(out.find((e) => e.event === 'message_delta')?.data).toMatchObject({ usage: { output_tokens: 0 } });
  });
});

describe('interleaved tool calls on a wire of call blocks', () => {
  it.each(['anthropic-messages', 'openai-responses'] as const)('%s: one call block at a time, each with all its arguments', async (id) => {
    const w = new StreamWriter(adapters[id], serves[id], { id: 'm1', model: 'c', created: 0 });
    const events = [
      ...w.write({ type: 'tool-call-start', index: 0, id: 'call_a', name: 'alpha' }),
      ...w.write({ type: 'tool-call-delta', index: 0, delta: '{"a"' }),
      ...w.write({ type: 'tool-call-start', index: 1, id: 'call_b', name: 'beta' }),
      ...w.write({ type: 'tool-call-delta', index: 1, delta: '{"b":2}' }),
      ...w.write({ type: 'tool-call-delta', index: 0, delta: ':1}' }),
      ...w.write({ type: 'tool-call', index: 0, call: { id: 'call_a', name: 'alpha', arguments: '{"a":1}' } }),
      ...w.write({ type: 'tool-call', index: 1, call: { id: 'call_b', name: 'beta', arguments: '{"b":2}' } }),
      ...w.write({ type: 'finish', finishReason: 'tool_calls', rawFinishReason: null, usage: null }),
      ...w.end(),
    ];
    // Block boundaries in order: every start is closed before the next begins.
    const starts = events.map((e) => e.event).filter((n) => n === 'content_block_start' || n === 'response.output_item.added' || n === 'content_block_stop' || n === 'response.output_item.done');
    expect(starts).toEqual(id === 'anthropic-messages' ? ['content_block_start', 'content_block_stop', 'content_block_start', 'content_block_stop'] : ['response.output_item.added', 'response.output_item.done', 'response.output_item.added', 'response.output_item.done']);
    const { eventEncoder } = await import('../../generated/serve.js');
    const { createClientFor } = await import('../../generated/index.js');
    const enc = eventEncoder(adapters[id]);
    const body = new Uint8Array([...enc.bytes(events), ...enc.end()]);
    const fetchBody: typeof fetch = async () => new Response(body, { headers: { 'content-type': enc.contentType } });
    const r = await createClientFor(adapters[id], { apiKey: 'k-000000001', baseUrl: 'http://127.0.0.1:9', fetch: fetchBody, maxRetries: 0 }).stream({ model: 'c', messages: [{ role: 'user', content: 'x' }] }).final();
    expect(r.toolCalls.map((c) => [c.id, c.name, c.arguments])).toEqual([
      ['call_a', 'alpha', '{"a":1}'],
      ['call_b', 'beta', '{"b":2}'],
    ]);
  });
});
