/**
 * Every wire finish reason each spec lists (overlays included), plus an unknown one and a missing
 * one, through the blocking parser: unified value from the table, raw value kept.
 */
import { describe, expect, it } from 'vitest';
import { adapters } from '../generated/index.js';
import { generate } from '../generator/pipeline.js';
import { TurnAssembler } from '../runtime/adapter-kit.js';
import type { ChatResponse, ProviderAdapter } from '../generated/index.js';
import { repoSpecs } from './generator/helpers.js';

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

function parseBody(adapter: ProviderAdapter, body: unknown): ChatResponse {
  const a = new TurnAssembler(adapter.rules, { streaming: false });
  adapter.readResponse(a, body as never);
  return a.result();
}

const { irs } = await generate(repoSpecs());

for (const ir of irs) {
  const family = ir.files.at(-1)!.replace(/^specs\/(.*)\.yaml$/, '$1');
  const c = FAMILIES[family]!;
  const adapter = (adapters as Record<string, ProviderAdapter>)[ir.id]!;
  const table = Object.entries(ir.profile.finish.map);

  describe(`${ir.id} finish reasons`, () => {
    it('has a body factory for its wire family', () => expect(c, family).toBeDefined());

    it.each(table)('%s → %s', (wire, unified) => {
      const r = parseBody(adapter, c.body(wire, false));
      expect(r.finishReason).toBe(unified);
      expect(r.rawFinishReason).toBe(wire);
    });

    it('an unknown value → other, raw kept', () => {
      const r = parseBody(adapter, c.body('brand_new_reason', false));
      expect([r.finishReason, r.rawFinishReason]).toEqual(['other', 'brand_new_reason']);
    });

    it('no finish reason → null', () => {
      const r = parseBody(adapter, c.body(null, false));
      expect([r.finishReason, r.rawFinishReason]).toEqual([null, null]);
    });

    it('a tool-calling turn reports tool_calls', () => {
      const r = parseBody(adapter, c.body(c.toolReason, true));
      expect(r.toolCalls).toHaveLength(1);
      expect(r.finishReason).toBe('tool_calls');
    });
  });
}

describe('openai-chat refusal', () => {
  it('stop with refusal text → refusal, the refusal as text', () => {
    const body = { choices: [{ message: { role: 'assistant', content: null, refusal: "I can't help with that." }, finish_reason: 'stop' }] };
    const r = parseBody(adapters['openai-chat'], body);
    expect([r.finishReason, r.rawFinishReason, r.text]).toEqual(['refusal', 'stop', "I can't help with that."]);
  });
});
