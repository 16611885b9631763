/**
 * The unified request is checked at the boundary (calls from plain JavaScript, or with `as any`):
 * a RequestError names the path and what is wrong, before anything is sent; a request that never
 * got a response is a ConnectionError with the transport's cause and the attempts made.
 */
import { createServer } from 'node:net';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { adapters, ConnectionError, createClientFor, RequestError, runTools, type ChatRequest } from '../../generated/index.js';

let sent = 0;
const fetch = (async () => {
  sent++;
  return new Response('{}', { headers: { 'content-type': 'application/json' } });
}) as typeof globalThis.fetch;
const client = createClientFor(adapters['anthropic-messages'], { apiKey: 'k-0000000000', fetch, model: 'claude-x', maxRetries: 0 });

const bad = (req: unknown) => req as ChatRequest;
const CASES: Array<[string, unknown, string, RegExp]> = [
  ['not an object', undefined, 'request', /must be an object, got nothing/],
  ['no messages', {}, 'messages', /must be an array of messages, got nothing/],
  ['empty messages', { messages: [] }, 'messages', /at least one message/],
  ['an unknown role', { messages: [{ role: 'usr', content: 'hi' }] }, 'messages[0].role', /"usr" is not one of system, user, assistant, tool, approval/],
  ['a number as text', { temperature: '0.5', messages: [{ role: 'user', content: 'hi' }] }, 'temperature', /must be a finite number, got "0.5"/],
  ['a bad maxTokens', { maxTokens: 0, messages: [{ role: 'user', content: 'hi' }] }, 'maxTokens', /positive integer, got 0/],
  ['a content part of no known type', { messages: [{ role: 'user', content: [{ type: 'audio', data: 'x' }] }] }, 'messages[0].content[0].type', /"audio" is not one of text, image/],
  ['a tool result without its call id', { messages: [{ role: 'user', content: 'hi' }, { role: 'tool', content: 'ok' }] }, 'messages[1].toolCallId', /must be a string, got nothing/],
  ['a tool without a schema', { tools: [{ name: 'f' }], messages: [{ role: 'user', content: 'hi' }] }, 'tools[0].parameters', /must be a JSON Schema object/],
  ['a bad tool choice', { toolChoice: 'any', messages: [{ role: 'user', content: 'hi' }] }, 'toolChoice', /"auto", "none", "required" or \{ name \}, got "any"/],
  ['a budget below -1', { reasoning: { budgetTokens: -2 }, messages: [{ role: 'user', content: 'hi' }] }, 'reasoning.budgetTokens', /integer of at least -1, got -2/],
  ['reasoning as text', { reasoning: 'high', messages: [{ role: 'user', content: 'hi' }] }, 'reasoning', /must be an object, got "high"/],
  ['stop as one string', { stop: 'END', messages: [{ role: 'user', content: 'hi' }] }, 'stop', /must be an array of strings, got "END"/],
  ['metadata with a number', { metadata: { run: 1 }, messages: [{ role: 'user', content: 'hi' }] }, 'metadata', /must be an object of strings, got an object/],
  ['store as text', { store: 'yes', messages: [{ role: 'user', content: 'hi' }] }, 'store', /must be true or false, got "yes"/],
  ['a json_schema format without a schema', { responseFormat: { type: 'json_schema', name: 'r' }, messages: [{ role: 'user', content: 'hi' }] }, 'responseFormat.schema', /must be a JSON Schema object, got nothing/],
  ['an unknown response format', { responseFormat: { type: 'xml' }, messages: [{ role: 'user', content: 'hi' }] }, 'responseFormat.type', /"xml" is not one of text, json, json_schema/],
  ['an image without a source', { messages: [{ role: 'user', content: [{ type: 'image' }] }] }, 'messages[0].content[0]', /an image needs a url or base64 data/],
  ['a text part without text', { messages: [{ role: 'user', content: [{ type: 'text', text: 3 }] }] }, 'messages[0].content[0].text', /must be a string, got 3/],
  ['a call without arguments', { messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: null, toolCalls: [{ id: 'c', name: 'f' }] }] }, 'messages[1].toolCalls[0].arguments', /must be a string, got nothing/],
  ['thinking without text', { messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'ok', thinking: [{ signature: 's' }] }] }, 'messages[1].thinking[0].text', /must be a string, got nothing/],
  ['assistant content as parts', { messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: [{ type: 'text', text: 'x' }] }] }, 'messages[1].content', /must be a string or null, got an array/],
  ['an approval without a decision', { messages: [{ role: 'user', content: 'hi' }, { role: 'approval', requestId: 'r' }] }, 'messages[1].approve', /must be true or false, got nothing/],
  ['a system message with parts', { messages: [{ role: 'system', content: [] }, { role: 'user', content: 'hi' }] }, 'messages[0].content', /must be a string, got an array/],
  ['a tool with an empty name', { tools: [{ name: '', parameters: {} }], messages: [{ role: 'user', content: 'hi' }] }, 'tools[0].name', /must be a non-empty string, got ""/],
  ['a tool of no known type', { tools: [{ type: 'mcp', name: 'f', parameters: {} }], messages: [{ role: 'user', content: 'hi' }] }, 'tools[0].type', /"mcp" is not one of function, provider/],
  ['provider tool options as text', { tools: [{ type: 'provider', name: 'web_search', options: 'x' }], messages: [{ role: 'user', content: 'hi' }] }, 'tools[0].options', /must be an object, got "x"/],
  ['a message that is not an object', { messages: ['hi'] }, 'messages[0]', /must be a message object, got "hi"/],
  ['user text that is not text', { messages: [{ role: 'user', content: 42 }] }, 'messages[0].content', /must be a string or an array of parts, got 42/],
  ['a long string never quoted', { temperature: 'x'.repeat(40), messages: [{ role: 'user', content: 'hi' }] }, 'temperature', /got a string of 40 characters/],
  ['a bad reasoning effort', { reasoning: { effort: 'max' }, messages: [{ role: 'user', content: 'hi' }] }, 'reasoning.effort', /"max" is not one of minimal, low, medium, high/],
];

describe('a request that does not match the unified types is a RequestError naming the path, and nothing is sent', () => {
  it.each(CASES)('%s', async (_name, req, field, message) => {
    sent = 0;
    for (const call of [async () => client.chat(bad(req)), async () => client.stream(bad(req)).final(), async () => runTools(client, bad(req), { tools: {} })]) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RequestError);
      expect((error as RequestError).field).toBe(field);
      expect((error as RequestError).message).toMatch(message);
    }
    expect(sent).toBe(0);
  });

  it('an empty baseUrl is none: the client is refused when made, not sent to a relative URL', () => {
    for (const baseUrl of ['', undefined]) {
      const make = () => createClientFor(adapters['openai-compatible'], { apiKey: 'k-0000000000', fetch, ...(baseUrl === undefined ? {} : { baseUrl }) });
      expect(make).toThrow(RequestError);
      expect(make).toThrow(/needs a baseUrl/);
    }
    expect(() => createClientFor(adapters['openai-chat'], { apiKey: 'k-0000000000', fetch, baseUrl: '' })).toThrow(/request field baseUrl: openai-chat needs a baseUrl/);
  });

  it('no model on the request or the client', async () => {
    const noModel = createClientFor(adapters['openai-chat'], { apiKey: 'k-0000000000', fetch });
    const error = await noModel.chat({ messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestError);
    expect((error as RequestError).field).toBe('model');
  });
});

describe('no response at all is a ConnectionError with its cause', () => {
  it('a refused connection, after the retries', async () => {
    // A port that was just free: nothing listens there.
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const c = createClientFor(adapters['openai-chat'], { apiKey: 'k-0000000000', baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm', maxRetries: 1 });
    const error = (await c.chat({ messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e)) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.attempts).toBe(2);
    expect(error.cause).toBeInstanceOf(Error);
    expect(error.message).toContain('ECONNREFUSED');
  });

  it('a URL that is not one, or not http(s): no retries, it would fail the same way again', async () => {
    for (const baseUrl of ['not a url', 'ftp://127.0.0.1/v1']) {
      const c = createClientFor(adapters['openai-chat'], { apiKey: 'k-0000000000', baseUrl, model: 'm', maxRetries: 2 });
      const error = (await c.chat({ messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e)) as ConnectionError;
      expect(error, baseUrl).toBeInstanceOf(ConnectionError);
      expect(error.attempts, baseUrl).toBe(1);
    }
  });

  it('a URL that is not one: the cause is the transport error', async () => {
    const c = createClientFor(adapters['openai-chat'], { apiKey: 'k-0000000000', baseUrl: 'not a url', model: 'm', maxRetries: 0 });
    const error = (await c.chat({ messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e)) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error.cause as Error).name).toBe('TypeError');
    expect(error.attempts).toBe(1);
  });

  it('the cause is a redacted copy: a key the transport quotes never reaches it', async () => {
    const key = 'sk-secret\nwf0123456789';
    const c = createClientFor(adapters['openai-chat'], { apiKey: key, baseUrl: 'http://127.0.0.1:9/v1', model: 'm', maxRetries: 0 });
    const error = await c.chat({ messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(inspect(error, { depth: 10 })).not.toContain('wf0123456789');
  });
});
