/**
 * Rules an overlay shares between its readers (docs/architecture.md#rules-both-readers-share):
 * written once over the part of the payload each reader hands them (the Chat family's
 * `choices.0.message` of a body, `choices.0.delta` of an event), and run with that part.
 */
import { describe, expect, it } from 'vitest';
import { generate } from '../../generator/pipeline.js';
import { adapters } from '../../generated/index.js';
import { runRules } from '../../runtime/assemble/place-rules.js';
import { TurnAssembler } from '../../runtime/assemble/turn-assembler.js';
import { repoSpecs } from './helpers.js';

const CHAT = repoSpecs().find((s) => s.file === 'specs/openai-chat.yaml')!;
const overlay = (text: string) => ({ file: 'specs/chat-plus.yaml', text: `id: chat-plus\nextends: openai-chat\nname: Chat Plus\n${text}` });

async function moduleOf(text: string): Promise<string> {
  const r = await generate([CHAT, overlay(text)]);
  expect(r.diagnostics).toEqual([]);
  return r.files.get('chat-plus.ts')!;
}

describe('rules both readers share, in the emitted module', () => {
  it('rules equal but for message/delta are one table over the scope; the wire types name its shape', async () => {
    const code = await moduleOf(
      [
        'response:',
        '  notes: { before: text, each: choices.0.message.notes, thinking: { text: body, signature: sig, id: id } }',
        'stream:',
        '  on:',
        '    "*":',
        '      notes: { before: text, each: choices.0.delta.notes, thinking: { text: body, signature: sig, id: id } }',
      ].join('\n'),
    );
    expect(code).toContain('placeRules(base.responseRules, placed, sharedRules)');
    expect(code).toContain('placeRules(base.eventRules, placed, sharedRules)');
    expect(code).toContain('readResponse: runRules(responseRules, (r: WireResponse) => r?.choices?.[0]?.message)');
    expect(code).toContain('readEvent: runRules(eventRules, (e: WireEvent) => e?.choices?.[0]?.delta)');
    expect(code).toContain('for (const x of list(m?.notes))');
    expect(code).toContain('message?: WireMessage | null');
    expect(code).toContain('delta?: WireMessage | null');
    // Written once: no rule reads the payload's message or delta itself.
    expect(code).not.toMatch(/[re]\?\.choices\?\.\[0\]\?\.(message|delta)\?\.notes/);
  });

  it('a rule that differs beyond the scope, or reads the payload itself, stays in its reader', async () => {
    const code = await moduleOf(
      [
        'response:',
        '  notes: { before: text, each: choices.0.message.notes, thinking: { text: body, signature: sig, id: id } }',
        'stream:',
        '  on:',
        '    "*":',
        '      notes: { before: text, each: choices.0.delta.other_notes, thinking: { text: body, signature: sig, id: id } }',
      ].join('\n'),
    );
    expect(code).not.toContain('sharedRules');
    expect(code).toContain('readResponse: runRules(responseRules)');
    expect(code).toContain('r?.choices?.[0]?.message?.notes');
    expect(code).toContain('e?.choices?.[0]?.delta?.other_notes');
  });

  it('a one-line rule is written in each reader (shorter than a scope interface)', async () => {
    const code = await moduleOf(['response:', '  extra: { before: text, thinking: { text: choices.0.message.extra } }', 'stream:', '  on:', '    "*":', '      extra: { before: text, thinking: { text: choices.0.delta.extra } }'].join('\n'));
    expect(code).not.toContain('sharedRules');
  });
});

describe('an overlay of an overlay with shared rules', () => {
  const OPENROUTER = repoSpecs().find((s) => s.file === 'specs/openrouter.yaml')!;
  const derived = (text: string) => ({ file: 'specs/router-plus.yaml', text: `id: router-plus\nextends: openrouter\nname: Router Plus\n${text}` });

  it("runs its tables with its base's scope, which the base's shared rules take", async () => {
    const r = await generate([CHAT, OPENROUTER, derived(['response:', '  extra: { before: text, thinking: { text: choices.0.message.extra } }', 'stream:', '  on:', '    "*":', '      extra: { before: text, thinking: { text: choices.0.delta.extra } }'].join('\n'))]);
    expect(r.diagnostics).toEqual([]);
    const code = r.files.get('router-plus.ts')!;
    expect(code).toContain('readResponse: runRules(responseRules, (r: WireResponse) => r?.choices?.[0]?.message)');
    expect(code).toContain('readEvent: runRules(eventRules, (e: WireEvent) => e?.choices?.[0]?.delta)');
  });

  it("shares its own rules only over its base's scope", async () => {
    const notes = (at: string) => `notes: { before: text, each: ${at}.notes, thinking: { text: body, signature: sig, id: id } }`;
    // Its own rules would share `choices.0.message` of a body and `choices.0` of an event; the base's take `…message` and `…delta`.
    const r = await generate([CHAT, OPENROUTER, derived(['response:', `  ${notes('choices.0.message')}`, 'stream:', '  on:', '    "*":', `      ${notes('choices.0')}`].join('\n'))]);
    expect(r.diagnostics).toEqual([]);
    const code = r.files.get('router-plus.ts')!;
    expect(code).not.toContain('sharedRules');
    expect(code).toContain('r?.choices?.[0]?.message?.notes');
    expect(code).toContain('e?.choices?.[0]?.notes');
    expect(code).toContain('readEvent: runRules(eventRules, (e: WireEvent) => e?.choices?.[0]?.delta)');
    // Alone over Chat, the same rules do share that scope.
    const alone = (await generate([CHAT, { file: 'specs/chat-plus.yaml', text: `id: chat-plus\nextends: openai-chat\nname: Chat Plus\nresponse:\n  ${notes('choices.0.message')}\nstream:\n  on:\n    "*":\n      ${notes('choices.0')}\n` }])).files.get('chat-plus.ts')!;
    expect(alone).toContain('readEvent: runRules(eventRules, (e: WireEvent) => e?.choices?.[0])');
  });
});

describe('runRules with a scope', () => {
  it('reads the scope once per payload and hands it to every rule, after the payload', () => {
    const seen: unknown[] = [];
    let reads = 0;
    const read = runRules(
      {
        first: (_a: never, p: { n: number }, s: string) => seen.push(['first', p.n, s]),
        second: (_a: never, p: { n: number }) => seen.push(['second', p.n]),
        third: (_a: never, _p: unknown, s: string) => seen.push(['third', s]),
      },
      (p: { n: number }) => (reads++, `scope-${p.n}`),
    );
    read(undefined as never, { n: 1 });
    read(undefined as never, { n: 2 });
    expect(reads).toBe(2);
    expect(seen).toEqual([['first', 1, 'scope-1'], ['second', 1], ['third', 'scope-1'], ['first', 2, 'scope-2'], ['second', 2], ['third', 'scope-2']]);
  });

  it('OpenRouter: a body and the same turn streamed give the same reasoning (the shared rules, each reader its scope)', () => {
    const adapter = adapters.openrouter;
    const details = [
      { type: 'reasoning.text', text: 'Step one. ', signature: null, index: 0, format: 'anthropic-claude-v1' },
      { type: 'reasoning.encrypted', data: 'opaque==', id: 'rs_1', index: 1, format: 'openai-responses-v1' },
    ];
    const body = new TurnAssembler(adapter.rules, { streaming: false });
    adapter.codec.readResponse(body as never, { id: 'g1', model: 'm', choices: [{ message: { role: 'assistant', content: 'Hi.', reasoning: 'Step one. ', reasoning_details: details }, finish_reason: 'stop' }] } as never);
    const stream = new TurnAssembler(adapter.rules, { streaming: false });
    const chunk = (delta: object, finish: string | null = null) => ({ id: 'g1', model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] });
    for (const e of [chunk({ reasoning: 'Step ', reasoning_details: [{ ...details[0], text: 'Step ' }] }), chunk({ reasoning: 'one. ', reasoning_details: [{ ...details[0], text: 'one. ' }] }), chunk({ reasoning: null, reasoning_details: [details[1]] }), chunk({ content: 'Hi.' }, 'stop')]) {
      adapter.codec.readEvent(stream as never, e as never, undefined);
    }
    const thinking = (a: TurnAssembler) => (a.closeAll(), a.result().message.thinking);
    expect(thinking(body)).toMatchObject([
      { text: 'Step one. ', format: 'anthropic-claude-v1' },
      { text: '', redacted: 'opaque==', id: 'rs_1', format: 'openai-responses-v1' },
    ]);
    expect(thinking(stream)).toEqual(thinking(body));
  });
});
