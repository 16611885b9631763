/**
 * Generated code records the adapter-kit version it was generated for; a runtime that cannot
 * serve it says so at once, with both versions and what to do, instead of failing in a reader.
 */
import { describe, expect, it } from 'vitest';
import { adapters, defineAdapter, KIT_VERSION, WireforgeError } from '../../generated/index.js';
import { profile, codec } from '../../generated/openai-chat.js';
import * as ollama from '../../generated/ollama.js';
import * as anthropic from '../../generated/anthropic-messages.js';
import * as gemini from '../../generated/gemini.js';
import { TurnAssembler } from '../../runtime/assemble/turn-assembler.js';

describe('the adapter-kit version', () => {
  it('every generated adapter was made for this runtime', () => {
    expect(Object.keys(adapters).length).toBeGreaterThan(0);
    expect(() => defineAdapter(profile, codec, { kit: KIT_VERSION })).not.toThrow();
  });

  it.each([
    [KIT_VERSION + 1, /generated for adapter kit \d+, and this runtime serves kits \d+–\d+: install the runtime/],
    [0, /generated for adapter kit 0, and this runtime serves kits \d+–\d+: regenerate it/],
  ])('kit %i is refused with both versions and the fix', (kit, message) => {
    expect(() => defineAdapter(profile, codec, { kit })).toThrow(WireforgeError);
    expect(() => defineAdapter(profile, codec, { kit })).toThrow(message);
  });

  it('a codec without a unit its profile or readers need is told which (hand-written codecs)', () => {
    const { uses: _u, ...bare } = ollama.codec;
    expect(() => defineAdapter(ollama.profile, bare, { kit: KIT_VERSION })).toThrow(/adapter "ollama" needs codec\.uses\.ndjson \(generated modules supply it\)/);
    const { uses, ...rest } = anthropic.codec;
    expect(() => defineAdapter(anthropic.profile, { ...rest, uses: { ...uses, continuity: undefined } }, { kit: KIT_VERSION })).toThrow(/needs codec\.uses\.continuity/);
    expect(() => defineAdapter(anthropic.profile, { ...rest, uses: { ...uses, paramRules: undefined } }, { kit: KIT_VERSION })).toThrow(/needs codec\.uses\.paramRules/);
    expect(() => defineAdapter(anthropic.profile, { ...rest, uses: { ...uses, toolChoiceRules: undefined } }, { kit: KIT_VERSION })).toThrow(/needs codec\.uses\.toolChoiceRules/);
    expect(() => defineAdapter(anthropic.profile, { ...rest, uses: { ...uses, providerTools: undefined } }, { kit: KIT_VERSION })).toThrow(/needs codec\.uses\.providerTools/);
    expect(() => defineAdapter(anthropic.profile, { ...rest, uses: { ...uses, usageSteps: undefined } }, { kit: KIT_VERSION })).toThrow(/needs codec\.uses\.usageSteps/);
    expect(() => defineAdapter(gemini.profile, { ...gemini.codec, uses: { ...gemini.codec.uses, urlTemplate: undefined } }, { kit: KIT_VERSION })).toThrow(/adapter "gemini" needs codec\.uses\.urlTemplate/);
    expect(() => defineAdapter(gemini.profile, { ...gemini.codec, uses: { ...gemini.codec.uses, foreignTurns: undefined } }, { kit: KIT_VERSION })).toThrow(/adapter "gemini" needs codec\.uses\.foreignTurns/);
    const noThinking = defineAdapter(anthropic.profile, { ...rest, uses: { ...uses, thinking: undefined } }, { kit: KIT_VERSION });
    const a = new TurnAssembler(noThinking.rules, { streaming: false });
    expect(() => a.thinking.append('x')).toThrow(/needs codec\.uses\.thinking/);
    const noBlocks = defineAdapter(anthropic.profile, { ...rest, uses: { ...uses, blocks: undefined } }, { kit: KIT_VERSION });
    const turn = { role: 'assistant' as const, content: 'hi' };
    expect(() => noBlocks.buildRequest({ model: 'm', messages: [{ role: 'user', content: 'q' }, turn] }, 'blocking')).toThrow(/needs codec\.uses\.blocks/);
  });
});
