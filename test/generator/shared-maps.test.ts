/**
 * A spec's own sharing in its request templates (generator/emit/emit-shared.ts): a form that
 * merges in a named map (`<<: *ref`) is printed as a spread of one constant named for the anchor,
 * and the data the module holds is what the spec says, key order included; where a spread could
 * not say the same, or the name is taken, the form is written out.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../generator/pipeline.js';
import { MINI } from './helpers.js';

// Blocks as a made-up wire would document them: each carries its ref and signature after its own keys.
const OVERLAY = `id: mini-shared
extends: mini
request:
  messages:
    blocks:
      text: { kind: text, body: $text, <<: &ref { ref: $id, sig: $signature } }
      # Merged over the base's toolCall, whose \`ref\` comes second: the spread would move it.
      toolCall: { kind: call, fn: $name, args: $argumentsObject, <<: *ref }
      # The named map first: the same keys, in another order than the merge at the end would give.
      thinking: { <<: *ref, kind: thought, body: $text }
      # A key of the named map changed: it cannot be the spread.
      redactedThinking: { kind: sealed, data: $data, <<: *ref, sig: $id }
    parts:
      # Anchored under a name the kit exports: written out, never a constant shadowing the import.
      text: { kind: text, body: $text, <<: &list { lang: en } }
`;

describe('named maps a spec merges into its request templates', () => {
  let text: string;
  let dir: string;
  let request: Record<string, Record<string, unknown>>;
  beforeAll(async () => {
    const kit = fileURLToPath(new URL('../../runtime/adapter-kit.js', import.meta.url));
    const { files, diagnostics } = await generate([MINI, { file: 'test/generator/mini-shared.yaml', text: OVERLAY }], { runtimeImport: kit });
    expect(diagnostics).toEqual([]);
    text = files.get('mini-shared.ts')!;
    dir = mkdtempSync(join(tmpdir(), 'wireforge-shared-'));
    for (const [name, t] of files) writeFileSync(join(dir, name), t);
    request = ((await import(join(dir, 'mini-shared.ts'))) as { serve: { request: typeof request } }).serve.request;
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the named map once and spreads it where the form merges it in at the end', () => {
    expect(text.match(/const ref = /g)).toHaveLength(1);
    expect(text).toContain("const ref = { ref: '$id', sig: '$signature' };");
    expect(text).toContain("text: { kind: 'text', body: '$text', ...ref }");
  });

  it('spreads it first where the spec merges it first', () => {
    expect(text).toContain("thinking: { ...ref, kind: 'thought', body: '$text' }");
  });

  it('writes out a form whose keys override the named map or keep the order of its base, and a map named like a kit export', () => {
    expect(text).toContain("toolCall: { kind: 'call', ref: '$id', fn: '$name', args: '$argumentsObject', sig: '$signature' }");
    expect(text).toContain("redactedThinking: { kind: 'sealed', data: '$data', ref: '$id', sig: '$id' }");
    expect(text).toContain("text: { kind: 'text', body: '$text', lang: 'en' }");
    expect(text).not.toMatch(/const list\b/);
  });

  it('holds the templates the spec writes, key order included', () => {
    const json = (v: unknown) => JSON.stringify(v);
    expect(json(request.blocks!.text)).toBe(json({ kind: 'text', body: '$text', ref: '$id', sig: '$signature' }));
    expect(json(request.blocks!.toolCall)).toBe(json({ kind: 'call', ref: '$id', fn: '$name', args: '$argumentsObject', sig: '$signature' }));
    expect(json(request.blocks!.thinking)).toBe(json({ ref: '$id', sig: '$signature', kind: 'thought', body: '$text' }));
    expect(json(request.blocks!.redactedThinking)).toBe(json({ kind: 'sealed', data: '$data', ref: '$id', sig: '$id' }));
    expect(json(request.parts!.text)).toBe(json({ kind: 'text', body: '$text', lang: 'en' }));
  });
});

describe('named maps in a base spec', () => {
  // MINI as a base of its own whose text and thinking blocks share their signature key.
  const BASE = MINI.text
    .replace(/^id: mini$/m, 'id: mini-base-shared')
    .replace('      text: { kind: text, body: $text }\n      toolCall:', '      text: { kind: text, body: $text, <<: &sig { sig: $signature } }\n      thinking: { kind: thought, body: $text, <<: *sig }\n      toolCall:');

  it('writes the constant once, before the serve export whose request templates spread it', async () => {
    expect(BASE).toContain('<<: *sig');
    const { files, diagnostics } = await generate([{ file: 'test/generator/mini-base-shared.yaml', text: BASE }]);
    expect(diagnostics).toEqual([]);
    const text = files.get('mini-base-shared.ts')!;
    expect(text.match(/const sig = /g)).toHaveLength(1);
    expect(text.indexOf("const sig = { sig: '$signature' };")).toBeLessThan(text.indexOf('export const serve'));
    expect(text).toContain("text: { kind: 'text', body: '$text', ...sig }");
    expect(text).toContain("thinking: { kind: 'thought', body: '$text', ...sig }");
  });
});
