/**
 * Usage of other models within a turn (Anthropic's advisor iterations; docs/unified-model.md#usage)
 * over a tool loop: the steps' own counts add up, and every other model's step stays listed
 * apart, in turn order. Bodies written from the documented `usage.iterations` shape
 * (docs/wire-facts.md#anthropic-usage).
 */
import { describe, expect, it } from 'vitest';
import { createClient } from '../../generated/index.js';
import { runTools } from '../../runtime/index.js';

const advisorStep = (input: number, output: number) => ({ type: 'advisor_message', model: 'claude-opus-4-6', input_tokens: input, output_tokens: output, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 });
const ownStep = (input: number, output: number) => ({ type: 'message', input_tokens: input, output_tokens: output, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 });

const BODIES = [
  {
    id: 'msg_u1',
    type: 'message',
    role: 'assistant',
    model: 'claude-haiku-4-5',
    content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_tide', input: { port: 'Brest' } }],
    stop_reason: 'tool_use',
    stop_sequence: null,
    usage: { input_tokens: 30, output_tokens: 12, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, iterations: [ownStep(10, 4), advisorStep(500, 300), ownStep(20, 8)] },
  },
  {
    id: 'msg_u2',
    type: 'message',
    role: 'assistant',
    model: 'claude-haiku-4-5',
    content: [{ type: 'text', text: 'High tide is at 06:12.' }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 40, output_tokens: 9, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, iterations: [ownStep(15, 3), advisorStep(700, 200), ownStep(25, 6)] },
  },
];

describe('usage.otherModels over a tool loop', () => {
  it('own counts add up; the advisor steps of every step are listed apart, in order', async () => {
    let n = 0;
    const fetch = (async () => new Response(JSON.stringify(BODIES[n++]), { headers: { 'content-type': 'application/json' } })) as typeof globalThis.fetch;
    const client = createClient('anthropic-messages', { apiKey: 'k-0000000001', baseUrl: 'http://127.0.0.1:9/v1', model: 'claude-haiku-4-5', fetch, maxRetries: 0 });
    const r = await runTools(client, { messages: [{ role: 'user', content: 'High tide in Brest?' }] }, { tools: { get_tide: { description: 'Tide times', parameters: { type: 'object', properties: { port: { type: 'string' } } }, execute: () => '06:12' } } });
    expect(r.response.usage).toEqual({
      inputTokens: 40,
      outputTokens: 9,
      totalTokens: 49,
      cachedInputTokens: 0,
      cacheWriteTokens: 0,
      otherModels: [{ kind: 'advisor_message', model: 'claude-opus-4-6', inputTokens: 700, outputTokens: 200, totalTokens: 900, cachedInputTokens: 0, cacheWriteTokens: 0 }],
    });
    // Step 1: 10 + 20 in, 4 + 8 out; step 2: 15 + 25 in, 3 + 6 out. The advisor's 1,200 in and 500 out are apart.
    expect(r.usage).toEqual({
      inputTokens: 70,
      outputTokens: 21,
      totalTokens: 91,
      cachedInputTokens: 0,
      cacheWriteTokens: 0,
      otherModels: [
        { kind: 'advisor_message', model: 'claude-opus-4-6', inputTokens: 500, outputTokens: 300, totalTokens: 800, cachedInputTokens: 0, cacheWriteTokens: 0 },
        { kind: 'advisor_message', model: 'claude-opus-4-6', inputTokens: 700, outputTokens: 200, totalTokens: 900, cachedInputTokens: 0, cacheWriteTokens: 0 },
      ],
    });
  });
});
