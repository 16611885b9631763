/**
 * An overlay's rule table from its base's (runtime/assemble/place-rules.ts), and the places the
 * generator computes for it (generator/emit/emit-readers.ts `placements`): the orders here are
 * written out by hand from what the spec language says (docs/spec-language.md, `before:`).
 */
import { describe, expect, it } from 'vitest';
import { placeRules } from '../../runtime/assemble/place-rules.js';
import { placements } from '../../generator/emit/emit-readers.js';
import type { Rule } from '../../generator/ir/types.js';

const noop = () => {};
const table = (...names: string[]) => Object.fromEntries(names.map((n) => [n, noop]));
const rule = (name: string): Rule => ({ name, pointer: `/response/${name}`, when: [], body: { kind: 'action', action: { kind: 'end' } } as Rule['body'] });

describe('placeRules', () => {
  const base = table('meta', 'text', 'toolCalls', 'finish', 'usage');

  it('places each own rule before the rule it names, in the order given, and others at the end', () => {
    const own = { details: noop, thinking: noop, extra: noop };
    const out = placeRules(base, { details: 'text', thinking: 'text' }, own);
    expect(Object.keys(out)).toEqual(['meta', 'details', 'thinking', 'text', 'toolCalls', 'finish', 'usage', 'extra']);
    expect(out.details).toBe(own.details);
  });

  it("keeps a changed rule in its base's place, with the overlay's function", () => {
    const text = () => {};
    const out = placeRules(base, {}, { text });
    expect(Object.keys(out)).toEqual(Object.keys(base));
    expect(out.text).toBe(text);
    expect(out.meta).toBe(base.meta);
  });

  it("moves a base rule the places name, keeping the base's function when the overlay has none", () => {
    const out = placeRules(base, { usage: 'text' }, {});
    expect(Object.keys(out)).toEqual(['meta', 'usage', 'text', 'toolCalls', 'finish']);
    expect(out.usage).toBe(base.usage);
  });

  it('an overlay of an overlay places over the placed order', () => {
    const first = placeRules(base, { details: 'text' }, { details: noop });
    const second = placeRules(first, { summary: 'details' }, { summary: noop });
    expect(Object.keys(second)).toEqual(['meta', 'summary', 'details', 'text', 'toolCalls', 'finish', 'usage']);
  });
});

describe('placements (the generator side)', () => {
  const base = ['meta', 'text', 'toolCalls', 'finish', 'usage'].map(rule);

  it('names the next base rule for each added rule, nothing for one added at the end', () => {
    const rules = ['meta', 'details', 'thinking', 'text', 'toolCalls', 'finish', 'usage', 'extra'].map(rule);
    const own = new Set(rules.filter((r) => ['details', 'thinking', 'extra'].includes(r.name)));
    expect(placements(rules, base, own)).toEqual({ before: { details: 'text', thinking: 'text' }, dropped: [] });
  });

  it('lists the base rules the overlay leaves out', () => {
    const rules = ['meta', 'text', 'toolCalls', 'finish'].map(rule);
    expect(placements(rules, base, new Set())).toEqual({ before: {}, dropped: ['usage'] });
  });

  it('places a base rule the overlay moves ahead', () => {
    const rules = ['meta', 'usage', 'text', 'toolCalls', 'finish'].map(rule);
    expect(placements(rules, base, new Set())).toEqual({ before: { usage: 'text' }, dropped: [] });
  });

  it('refuses an order placeRules cannot make (a base rule moved behind the last one), rather than emit a wrong reader', () => {
    const rules = ['text', 'toolCalls', 'finish', 'usage', 'meta'].map(rule);
    expect(() => placements(rules, base, new Set())).toThrow(/cannot place rules/);
  });
});
