/**
 * Request building: what no single case can show. The request-mapping cases themselves (unified
 * request → exact wire body and warnings) are data in specs/cases/<id>.yaml (`match: exact`,
 * `warnings`), run by test/adapters/conformance/spec-cases.test.ts; here are the properties that
 * hold whatever the request (prototype pollution), that allow either of two documented outcomes
 * (a body the API accepts, or a refusal up front), and how many exact cases each spec keeps.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { adapter as openai } from '../../generated/openai-chat.js';
import { adapter as anthropic } from '../../generated/anthropic-messages.js';
import { adapter as gemini } from '../../generated/gemini.js';
import { createClient } from '../../generated/index.js';

const USER_HI = { role: 'user', content: 'Hi' } as const;
/** What goes on the wire: the body through JSON. */
const wire = (body: unknown): unknown => JSON.parse(JSON.stringify(body));

describe('exact request-mapping cases (specs/cases/<id>.yaml)', () => {
  // The least each spec's file keeps, as the TS tables they came from had: a floor, so a file cannot lose them unnoticed.
  const FLOOR: Record<string, number> = { 'openai-chat': 14, 'anthropic-messages': 14, 'openai-responses': 12, gemini: 12, ollama: 10, deepseek: 2, openrouter: 2, vllm: 2, groq: 2, mistral: 2, xai: 2, together: 2, 'openai-compatible': 2 };
  it.each(Object.entries(FLOOR))('%s keeps at least %i exact cases, and some give warnings', (id, floor) => {
    const doc = parse(readFileSync(new URL(`../../specs/cases/${id}.yaml`, import.meta.url), 'utf8')) as { requests?: Array<{ match?: string; warnings?: unknown[] }> };
    const exact = (doc.requests ?? []).filter((c) => c.match === 'exact' && Array.isArray(c.warnings));
    expect(exact.length).toBeGreaterThanOrEqual(floor);
    if (floor >= 14) expect(exact.some((c) => c.warnings!.length > 0)).toBe(true);
  });
});

describe.each([
  ['openai-chat', openai],
  ['anthropic-messages', anthropic],
] as const)('%s providerOptions with __proto__', (_id, adapter) => {
  afterEach(() => {
    delete (Object.prototype as Record<string, unknown>).polluted;
  });

  it.each(['blocking', 'stream'] as const)('does not pollute Object.prototype and never reaches the body (%s)', (mode) => {
    const providerOptions = JSON.parse('{"__proto__":{"polluted":true},"nested":{"__proto__":{"polluted":true},"ok":1}}') as Record<string, unknown>;
    const built = adapter.buildRequest({ model: 'm', messages: [USER_HI], providerOptions }, mode);

    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
    expect(Object.getPrototypeOf(built.body)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(built.body, '__proto__')).toBe(false);
    expect((built.body as Record<string, unknown>).polluted).toBeUndefined();
    expect(JSON.stringify(built.body)).not.toContain('__proto__');
    expect(JSON.stringify(built.body)).not.toContain('polluted');
    expect(wire(built.body)).toMatchObject({ nested: { ok: 1 } });
    expect(Object.keys(built.body.nested as object)).toEqual(['ok']);
  });
});

describe('anthropic-messages thinking budget vs max_tokens', () => {
  // docs/wire-facts.md#anthropic-request: thinking.budget_tokens must be ≥ 1024 and < max_tokens.
  // With maxTokens unset the adapter's own default (4096) must not yield a body the API rejects:
  // either it sends a max_tokens above the budget or it rejects the request up front.
  it('never sends budget_tokens ≥ max_tokens', () => {
    let body: Record<string, unknown> | undefined;
    try {
      body = anthropic.buildRequest({ model: 'claude-sonnet-4-5', messages: [USER_HI], reasoning: { budgetTokens: 8000 } }, 'blocking').body;
    } catch {
      return; // rejected up front: acceptable
    }
    const thinking = body.thinking as { budget_tokens: number };
    expect(thinking.budget_tokens).toBe(8000);
    expect(body.max_tokens as number).toBeGreaterThan(thinking.budget_tokens);
  });
});

describe('gemini model placement', () => {
  it.each(['blocking', 'stream'] as const)('the model is a path parameter and never in the body (%s)', (mode) => {
    const built = gemini.buildRequest({ model: 'gemini-2.5-flash', messages: [USER_HI] }, mode);
    expect(built.pathParams).toEqual({ model: 'gemini-2.5-flash' });
    expect(built.body).not.toHaveProperty('model');
  });
});

describe('gemini thinkingBudget vs thinkingLevel', () => {
  // docs/wire-facts.md#gemini-request: thinkingConfig takes thinkingBudget OR thinkingLevel; the API
  // rejects a request that sets both. With both effort and budgetTokens set, the adapter must send
  // only one (reporting the other as dropped) or reject the request up front.
  it('never sends both thinkingBudget and thinkingLevel', () => {
    let built;
    try {
      built = gemini.buildRequest({ model: 'gemini-3-pro-preview', messages: [USER_HI], reasoning: { effort: 'high', budgetTokens: 2048 } }, 'blocking');
    } catch {
      return; // rejected up front: acceptable
    }
    const cfg = (wire(built.body) as { generationConfig?: { thinkingConfig?: Record<string, unknown> } }).generationConfig?.thinkingConfig ?? {};
    const sent = ['thinkingBudget', 'thinkingLevel'].filter((k) => k in cfg);
    expect(sent).toHaveLength(1);
    const droppedField = sent[0] === 'thinkingBudget' ? 'reasoning.effort' : 'reasoning.budgetTokens';
    expect(built.warnings).toContainEqual(expect.objectContaining({ type: 'dropped', field: droppedField }));
  });
});

describe('openai-compatible needs a base URL', () => {
  it('createClient without baseUrl throws an error that names baseUrl', () => {
    expect(() => createClient('openai-compatible', {})).toThrow(/baseUrl/);
  });

  it('createClient with a baseUrl succeeds', () => {
    const client = createClient('openai-compatible', { baseUrl: 'http://localhost:1234/v1' });
    expect(client.provider).toBe('openai-compatible');
  });
});
