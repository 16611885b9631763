/**
 * Finish-reason behaviour of the runtime that holds for every spec, whatever its table says: an
 * unknown value → other with the raw value kept, no value → null, a tool-calling turn → tool_calls,
 * an OpenAI refusal → refusal. Blocking bodies go through the public client and a loopback server.
 *
 * The wire value → unified value of each documented finish reason is not tested here: those
 * expectations are written by hand from the providers' documentation in specs/cases/<id>.yaml
 * (test/adapters/conformance/spec-cases.test.ts), never read from the spec under test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { familySpecIds, wireFamilyOf } from '../helpers/scripted-turns.js';
import { adapters } from '../../generated/index.js';
import { createClientFor, type ChatResponse } from '../../runtime/index.js';
import { jsonResponse, startLoopbackServer, type LoopbackServer } from '../helpers/loopback-server.js';

type Adapter = Parameters<typeof createClientFor>[0];

/** A minimal blocking body of one wire family, with this finish reason (and a tool call when asked). */
type Body = (reason: string | null, toolCall: boolean) => unknown;

const FAMILIES: Record<string, { body: Body; toolReason: string }> = {
  'openai-chat': {
    toolReason: 'tool_calls',
    body: (reason, toolCall) => ({
      id: 'chatcmpl-1',
      model: 'gpt-4o',
      choices: [
        {
          index: 0,
          message: toolCall
            ? { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }] }
            : { role: 'assistant', content: 'ok' },
          finish_reason: reason,
        },
      ],
    }),
  },
  'anthropic-messages': {
    toolReason: 'tool_use',
    body: (reason, toolCall) => ({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: toolCall ? [{ type: 'tool_use', id: 'toolu_1', name: 'f', input: {} }] : [{ type: 'text', text: 'ok' }],
      stop_reason: reason,
      usage: { input_tokens: 1, output_tokens: 1 },
    }),
  },
  'openai-responses': {
    toolReason: 'completed',
    body: (reason, toolCall) => ({
      id: 'resp_1',
      object: 'response',
      model: 'gpt-5',
      status: reason === 'max_output_tokens' || reason === 'content_filter' ? 'incomplete' : reason,
      incomplete_details: reason === 'max_output_tokens' || reason === 'content_filter' ? { reason } : null,
      error: null,
      output: toolCall
        ? [{ type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'f', arguments: '{}', status: 'completed' }]
        : [{ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'ok', annotations: [] }] }],
      usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
    }),
  },
  gemini: {
    toolReason: 'STOP',
    body: (reason, toolCall) => ({
      candidates: [
        {
          content: { role: 'model', parts: toolCall ? [{ functionCall: { name: 'f', args: {} } }] : [{ text: 'ok' }] },
          ...(reason === null ? {} : { finishReason: reason }),
          index: 0,
        },
      ],
      usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
      modelVersion: 'gemini-2.5-flash',
      responseId: 'r1',
    }),
  },
  ollama: {
    toolReason: 'stop',
    body: (reason, toolCall) => ({
      model: 'llama3.2',
      message: toolCall ? { role: 'assistant', content: '', tool_calls: [{ function: { name: 'f', arguments: {} } }] } : { role: 'assistant', content: 'ok' },
      done: true,
      ...(reason === null ? {} : { done_reason: reason }),
      prompt_eval_count: 1,
      eval_count: 1,
    }),
  },
};

// One server for the file; the first path segment says which body to answer with.
const bodies = new Map<string, unknown>();
let server: LoopbackServer;
let next = 0;
beforeAll(async () => {
  server = await startLoopbackServer((req) => jsonResponse(200, bodies.get(req.url.split('/')[1] ?? '') ?? {}));
});
afterAll(() => server.close());

async function parseBody(adapter: Adapter, body: unknown): Promise<ChatResponse> {
  const token = `b${++next}`;
  bodies.set(token, body);
  try {
    const client = createClientFor(adapter, { apiKey: 'test-key', baseUrl: `${server.url}/${token}`, maxRetries: 0 });
    return await client.chat({ model: 'test-model', messages: [{ role: 'user', content: 'Hi' }] });
  } finally {
    bodies.delete(token);
  }
}

// Specs of the wire families above (overlays through their extends chain); a spec of another
// protocol has its own cases.
for (const id of familySpecIds()) {
  const adapter = (adapters as unknown as Record<string, Adapter>)[id]!;
  const c = FAMILIES[wireFamilyOf(id)]!;

  describe(`${id} finish reasons`, () => {
    it('has a body factory for its wire family', () => expect(c).toBeDefined());

    it('an unknown value → other, raw kept', async () => {
      const r = await parseBody(adapter, c.body('brand_new_reason', false));
      expect([r.finishReason, r.rawFinishReason]).toEqual(['other', 'brand_new_reason']);
    });

    it('no finish reason → null', async () => {
      const r = await parseBody(adapter, c.body(null, false));
      expect([r.finishReason, r.rawFinishReason]).toEqual([null, null]);
    });

    it('a tool-calling turn reports tool_calls', async () => {
      const r = await parseBody(adapter, c.body(c.toolReason, true));
      expect(r.toolCalls).toHaveLength(1);
      expect(r.finishReason).toBe('tool_calls');
    });
  });
}

describe('openai-chat refusal', () => {
  it('stop with refusal text → refusal, the refusal as text', async () => {
    const body = { choices: [{ message: { role: 'assistant', content: null, refusal: "I can't help with that." }, finish_reason: 'stop' }] };
    const r = await parseBody(adapters['openai-chat'] as unknown as Adapter, body);
    expect([r.finishReason, r.rawFinishReason, r.text]).toEqual(['refusal', 'stop', "I can't help with that."]);
  });
});
