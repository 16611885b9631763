/**
 * Generation-time notes on what the server side reads back differently: each names the spec's
 * file, line and field, and none stops generation (the client side is unaffected).
 */
import { describe, expect, it } from 'vitest';
import { generate } from '../../generator/pipeline.js';
import { MINI } from './helpers.js';

const variant = (from: string, to: string) => ({ ...MINI, text: MINI.text.replace(from, to) });
const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

describe('serve notes', () => {
  it('the small test spec reads back whole, but for its maxTokens default', async () => {
    const r = await generate([MINI]);
    expect(r.diagnostics).toEqual([]);
    expect(r.notes).toEqual([expect.objectContaining({ code: 'reads-back-as', pointer: '/request/params/maxTokens/default', line: lineOf(MINI.text, 'maxTokens:') })]);
  });

  it('a failed tool result with the same form as a plain one', async () => {
    const spec = variant("      tool: { speaker: human, items: [{ kind: result, ref: $toolCallId, output: $text }] }\n", "      tool: { speaker: human, items: [{ kind: result, ref: $toolCallId, output: $text }] }\n      toolError: { speaker: human, items: [{ kind: result, ref: $toolCallId, output: $text }] }\n");
    const r = await generate([spec]);
    expect(r.diagnostics).toEqual([]);
    expect(r.files.size).toBeGreaterThan(0);
    expect(r.notes).toContainEqual(expect.objectContaining({ file: MINI.file, line: lineOf(spec.text, 'toolError:'), code: 'reads-back-as', pointer: '/request/messages/roles/toolError', message: expect.stringContaining('isError is lost') }));
  });

  it('two slots with nothing between them cannot be split back', async () => {
    const spec = variant('      text: { kind: text, body: $text }\n    blocks:', '      text: { kind: text, body: $text }\n      imageUrl: { kind: image, ref: "${mediaType}${url}" }\n    blocks:');
    const r = await generate([spec]);
    expect(r.diagnostics).toEqual([]);
    expect(r.notes).toContainEqual(expect.objectContaining({ code: 'not-invertible', line: lineOf(spec.text, 'imageUrl:'), message: expect.stringMatching(/parts\.imageUrl: "\$\{mediaType\}\$\{url\}" has no text between the slots/) }));
  });

  it('calls sent without ids', async () => {
    const spec = variant('    toolCall: { kind: call, ref: $id, fn: $name, args: $argumentsObject }', '    toolCall: { kind: call, fn: $name, args: $argumentsObject }');
    const r = await generate([spec]);
    expect(r.notes.map((n) => `${n.pointer} ${n.message}`)).toContain('/request/messages/blocks/toolCall calls are sent without ids: they read back as call_<message>_<n>, and results take the id of the first unanswered call of their name');
  });

  it('a spec without serve.response cannot be served', async () => {
    const text = MINI.text.slice(0, MINI.text.indexOf('\nserve:') + 1);
    const r = await generate([{ ...MINI, text }]);
    expect(r.diagnostics).toEqual([]);
    expect(r.notes.map((n) => n.code)).toContain('not-served');
  });
});
