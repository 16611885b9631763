/**
 * Every wire finish reason each spec lists, plus an unknown one and a missing one, through the
 * blocking parser: unified value from the table, raw value kept.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { adapter as anthropic } from '../generated/anthropic-messages.js';
import { adapter as openai } from '../generated/openai-chat.js';
import { TurnAssembler } from '../runtime/adapter-kit.js';
import type { ChatResponse, ProviderAdapter } from '../runtime/index.js';

interface Case {
  adapter: ProviderAdapter;
  /** A minimal blocking body with this finish reason (and a tool call when asked). */
  body(reason: string | null, toolCall: boolean): unknown;
}

const CASES: Record<string, Case> = {
  'openai-chat': {
    adapter: openai,
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
    adapter: anthropic,
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
};

function parseBody(adapter: ProviderAdapter, body: unknown): ChatResponse {
  const a = new TurnAssembler(adapter.rules, { streaming: false });
  adapter.readResponse(a, body as never);
  return a.result();
}

for (const [id, c] of Object.entries(CASES)) {
  const spec = parse(readFileSync(new URL(`../specs/${id}.yaml`, import.meta.url), 'utf8')) as { finishReasons: { map: Record<string, string> } };
  const table = Object.entries(spec.finishReasons.map);

  describe(`${id} finish reasons`, () => {
    it('lists the documented values', () => expect(table.length).toBeGreaterThanOrEqual(5));

    it.each(table)('%s → %s', (wire, unified) => {
      const r = parseBody(c.adapter, c.body(wire, false));
      expect(r.finishReason).toBe(unified);
      expect(r.rawFinishReason).toBe(wire);
    });

    it('an unknown value → other, raw kept', () => {
      const r = parseBody(c.adapter, c.body('brand_new_reason', false));
      expect([r.finishReason, r.rawFinishReason]).toEqual(['other', 'brand_new_reason']);
    });

    it('no finish reason → null', () => {
      const r = parseBody(c.adapter, c.body(null, false));
      expect([r.finishReason, r.rawFinishReason]).toEqual([null, null]);
    });

    it('a tool-calling turn reports tool_calls', () => {
      const wire = id === 'openai-chat' ? 'tool_calls' : 'tool_use';
      expect(parseBody(c.adapter, c.body(wire, true)).finishReason).toBe('tool_calls');
    });
  });
}

describe('openai-chat refusal', () => {
  it('stop with refusal text → refusal, the refusal as text', () => {
    const body = { choices: [{ message: { role: 'assistant', content: null, refusal: "I can't help with that." }, finish_reason: 'stop' }] };
    const r = parseBody(openai, body);
    expect([r.finishReason, r.rawFinishReason, r.text]).toEqual(['refusal', 'stop', "I can't help with that."]);
  });
});
