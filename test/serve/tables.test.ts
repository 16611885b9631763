/**
 * The finish and usage tables read backwards, checked against what each wire documents
 * (docs/wire-facts.md): the expected wire values are written out by hand here.
 */
import { describe, expect, it } from 'vitest';
import { adapters } from '../../generated/index.js';
import { wireFinish, wireUsage } from '../../generated/serve.js';

describe('usage, written back', () => {
  it('Anthropic: input_tokens excludes cache reads and writes', () => {
    const u = wireUsage(adapters['anthropic-messages'].profile.usage, { inputTokens: 100, outputTokens: 7, totalTokens: 107, cachedInputTokens: 30, cacheWriteTokens: 20 });
    expect(u).toEqual({ input_tokens: 50, cache_read_input_tokens: 30, cache_creation_input_tokens: 20, output_tokens: 7 });
  });
  it('Gemini: candidatesTokenCount excludes thoughts', () => {
    const u = wireUsage(adapters.gemini.profile.usage, { inputTokens: 12, outputTokens: 50, totalTokens: 62, reasoningTokens: 20 });
    expect(u).toEqual({ promptTokenCount: 12, candidatesTokenCount: 30, thoughtsTokenCount: 20, totalTokenCount: 62 });
  });
  it('Chat Completions: nested details', () => {
    const u = wireUsage(adapters['openai-chat'].profile.usage, { inputTokens: 9, outputTokens: 4, totalTokens: 13, cachedInputTokens: 3, reasoningTokens: 2 });
    expect(u).toEqual({ prompt_tokens: 9, completion_tokens: 4, total_tokens: 13, prompt_tokens_details: { cached_tokens: 3 }, completion_tokens_details: { reasoning_tokens: 2 } });
  });
  it('Ollama: the two counts, nothing else', () => {
    expect(wireUsage(adapters.ollama.profile.usage, { inputTokens: 5, outputTokens: 6, totalTokens: 11, cachedInputTokens: 1 })).toEqual({ prompt_eval_count: 5, eval_count: 6 });
  });
});

describe('finish reasons, written back', () => {
  it.each([
    ['anthropic-messages', 'stop', 'end_turn'],
    ['anthropic-messages', 'tool_calls', 'tool_use'],
    ['anthropic-messages', 'length', 'max_tokens'],
    ['anthropic-messages', 'refusal', 'refusal'],
    ['openai-chat', 'tool_calls', 'tool_calls'],
    // A refusal is a stop with refusal text on this wire.
    ['openai-chat', 'refusal', 'stop'],
    ['openai-chat', 'error', undefined],
    ['gemini', 'stop', 'STOP'],
    // Gemini stops with STOP when it calls tools.
    ['gemini', 'tool_calls', 'STOP'],
    ['gemini', 'length', 'MAX_TOKENS'],
    ['openai-responses', 'tool_calls', 'completed'],
    ['openai-responses', 'length', 'max_output_tokens'],
    ['ollama', 'tool_calls', 'stop'],
  ] as const)('%s: %s → %s', (id, reason, wire) => {
    expect(wireFinish(adapters[id].profile.finish, reason)).toBe(wire);
  });
  it('no reason, no wire value', () => {
    expect(wireFinish(adapters['openai-chat'].profile.finish, null)).toBeUndefined();
  });
});
