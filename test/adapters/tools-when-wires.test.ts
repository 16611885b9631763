/**
 * The built-in wires that refuse a tool choice (and OpenAI Chat a parallel flag) without tools
 * declared send neither then, with a dropped warning naming the field; with tools they do.
 * Expectations from docs/wire-facts.md, not from the specs.
 */
import { describe, expect, it } from 'vitest';
import type { ProviderAdapter } from '../../runtime/contract/adapter.js';
import type { ChatRequest } from '../../runtime/contract/unified-model.js';
import { adapter as openaiChat } from '../../generated/openai-chat.js';
import { adapter as mistral } from '../../generated/mistral.js';
import { adapter as anthropic } from '../../generated/anthropic-messages.js';
import { adapter as gemini } from '../../generated/gemini.js';
import { adapter as bedrock } from '../../generated/bedrock-converse.js';
import { adapter as responses } from '../../generated/openai-responses.js';

const weather = { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } };
const hi: ChatRequest = { model: 'm', maxTokens: 100, messages: [{ role: 'user', content: 'Hi' }] };

function build(adapter: ProviderAdapter, req: ChatRequest) {
  const r = adapter.buildRequest(req, 'blocking');
  return { body: r.body, dropped: r.warnings.filter((w) => w.type === 'dropped') };
}

describe('built-in wires that refuse a tool choice without tools', () => {
  // OpenAI Chat (and overlays such as Mistral): 400 "tool_choice is only allowed when tools are
  // specified", the same for parallel_tool_calls; Anthropic: tool_choice only with tools;
  // Bedrock Converse: toolConfig requires its tools; Gemini: no function-calling config without declarations.
  const cases: Array<[string, ProviderAdapter, (b: Record<string, unknown>) => unknown, unknown]> = [
    ['OpenAI Chat', openaiChat, (b) => b.tool_choice, 'auto'],
    ['Mistral (extends OpenAI Chat)', mistral, (b) => b.tool_choice, 'auto'],
    ['Anthropic Messages', anthropic, (b) => b.tool_choice, { type: 'auto' }],
    ['Gemini', gemini, (b) => (b.toolConfig as { functionCallingConfig?: unknown } | undefined)?.functionCallingConfig, { mode: 'AUTO' }],
    ['Bedrock Converse', bedrock, (b) => (b.toolConfig as { toolChoice?: unknown } | undefined)?.toolChoice, { auto: {} }],
  ];
  for (const [name, adapter, choiceOf, auto] of cases) {
    it(`${name}: toolChoice 'auto' without tools is not sent, with a warning; with tools it is`, () => {
      const none = build(adapter, { ...hi, toolChoice: 'auto' });
      expect(choiceOf(none.body)).toBeUndefined();
      expect(none.dropped).toEqual([{ type: 'dropped', field: 'toolChoice', message: 'no tools are declared' }]);
      const some = build(adapter, { ...hi, tools: [weather], toolChoice: 'auto' });
      expect(choiceOf(some.body)).toEqual(auto);
      expect(some.dropped).toEqual([]);
    });
  }

  it('OpenAI Chat: parallelToolCalls without tools is not sent, with a warning; with tools it is', () => {
    const none = build(openaiChat, { ...hi, parallelToolCalls: false });
    expect(none.body).not.toHaveProperty('parallel_tool_calls');
    expect(none.dropped).toEqual([{ type: 'dropped', field: 'parallelToolCalls', message: 'no tools are declared' }]);
    expect(build(openaiChat, { ...hi, tools: [weather], parallelToolCalls: false }).body).toHaveProperty('parallel_tool_calls', false);
  });

  it('Anthropic: parallelToolCalls false rides on the choice, so it is dropped with it, each with a warning', () => {
    const none = build(anthropic, { ...hi, toolChoice: 'required', parallelToolCalls: false });
    expect(none.body).not.toHaveProperty('tool_choice');
    expect(none.dropped.map((w) => w.field).sort()).toEqual(['parallelToolCalls', 'toolChoice']);
    const some = build(anthropic, { ...hi, tools: [weather], toolChoice: 'required', parallelToolCalls: false });
    expect(some.body).toHaveProperty('tool_choice', { type: 'any', disable_parallel_tool_use: true });
    expect(some.dropped).toEqual([]);
  });

  it('OpenAI Responses, which takes a choice without tools, still sends it', () => {
    expect(build(responses, { ...hi, toolChoice: 'auto' })).toEqual({ body: expect.objectContaining({ tool_choice: 'auto' }), dropped: [] });
  });
});
