/**
 * Streams far longer than a fixture: text, thinking and argument fragments are folded as they
 * arrive (runtime/assemble/text-buffer.ts), and what comes out must still be every piece, in
 * order, byte for byte — across fold boundaries, with thinking paragraph breaks and blocks that
 * a wire addresses by key.
 */
import { describe, expect, it } from 'vitest';
import { adapters } from '../../generated/index.js';
import { TextBuffer } from '../../runtime/assemble/text-buffer.js';
import { TurnAssembler, toolCallDelta } from '../../runtime/adapter-kit.js';
import type { ProviderAdapter } from '../../generated/index.js';

/** Pieces of varied length, some multi-byte, some one character. */
function pieces(n: number, tag: string): string[] {
  return Array.from({ length: n }, (_, i) => (i % 7 === 0 ? `${tag}·${i}→` : i % 5 === 0 ? 'x' : `${tag}${i} `));
}

describe('TextBuffer', () => {
  it.each([0, 1, 255, 256, 257, 511, 512, 513, 2000])('gives back %i pieces joined, in order', (n) => {
    const b = new TextBuffer();
    const input = pieces(n, 'p');
    for (const p of input) b.push(p);
    expect(b.empty).toBe(n === 0);
    expect(b.toString()).toBe(input.join(''));
    // Reading does not consume: a second read, and reading after more pieces, are whole too.
    expect(b.toString()).toBe(input.join(''));
    b.push('tail');
    expect(b.toString()).toBe(`${input.join('')}tail`);
  });

  it('ignores empty pieces: a buffer of empty strings is empty', () => {
    const b = new TextBuffer();
    for (let i = 0; i < 300; i++) b.push('');
    expect(b.empty).toBe(true);
    expect(b.toString()).toBe('');
  });
});

describe('a long turn through the assembler', () => {
  const chat = adapters['openai-chat'] as ProviderAdapter;
  const openrouter = adapters.openrouter as ProviderAdapter;

  it('keeps 3,000 text deltas and 1,000 argument fragments of two interleaved calls exactly', () => {
    const a = new TurnAssembler(chat.rules, { streaming: false });
    const text = pieces(3000, 't');
    const args0 = ['{"path":"', ...pieces(1000, 'a'), '"}'];
    const args1 = ['{"q":"', ...pieces(700, 'b'), '"}'];
    toolCallDelta(a, 0, 'call_0', 'write', args0[0]);
    toolCallDelta(a, 1, 'call_1', 'search', args1[0]);
    for (let i = 0; i < text.length; i++) {
      a.appendText(text[i]);
      if (i + 1 < args0.length) toolCallDelta(a, 0, undefined, undefined, args0[i + 1]);
      if (i + 1 < args1.length) toolCallDelta(a, 1, undefined, undefined, args1[i + 1]);
    }
    a.closeAll();
    const r = a.result();
    expect(r.text).toBe(text.join(''));
    expect(r.toolCalls.map((c) => c.arguments)).toEqual([args0.join(''), args1.join('')]);
    expect(r.toolCalls.every((c) => c.argumentsError === undefined)).toBe(true);
  });

  it('keeps long thinking blocks addressed by key, with paragraph breaks, apart and exact', () => {
    const a = new TurnAssembler(openrouter.rules, { streaming: false });
    const first = pieces(900, 'f');
    const second = pieces(600, 's');
    for (let i = 0; i < first.length; i++) {
      a.thinking.select(0);
      if (i === 400) a.thinking.breakText('\n\n');
      a.thinking.append(first[i]);
      if (i < second.length) {
        a.thinking.select(1);
        a.thinking.append(second[i]);
      }
    }
    const r = a.result();
    const expectedFirst = [...first.slice(0, 400), '\n\n', ...first.slice(400)].join('');
    expect(r.message.thinking?.map((t) => t.text)).toEqual([expectedFirst, second.join('')]);
    expect(r.thinking).toBe(expectedFirst + second.join(''));
  });

  it('keeps a block\'s other fields, and hands out every piece as an event when streaming', () => {
    const a = new TurnAssembler(openrouter.rules, { streaming: true });
    const texts = pieces(700, 'r');
    const deltas: string[] = [];
    a.thinking.select(0);
    a.thinking.setId('rs_1');
    a.thinking.setFormat('anthropic-claude-v1');
    for (const t of texts) a.thinking.append(t);
    a.thinking.setSignature('sig==');
    for (const t of pieces(600, 'x')) a.appendText(t);
    for (const e of a.events) if (e.type === 'thinking-delta') deltas.push(e.delta);
    const r = a.result();
    expect(deltas.join('')).toBe(texts.join(''));
    expect(r.message.thinking).toEqual([{ text: texts.join(''), id: 'rs_1', format: 'anthropic-claude-v1', signature: 'sig==' }]);
    expect(r.text).toBe(pieces(600, 'x').join(''));
    // A second read (finish event, then final()) gives the same response.
    expect(a.result()).toEqual(r);
  });
});
