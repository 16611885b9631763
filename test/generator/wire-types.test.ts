/**
 * Wire types are an IR product: built with the IR from every path the reader rules read, before
 * emit starts, and left as built by the emitter (which names shared element shapes on its own).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generate } from '../../generator/pipeline.js';
import { emitModule } from '../../generator/emit/emit-module.js';
import { kitNames } from '../../generator/emit/kit-names.js';
import { buildWireTypes, nodeAt, type TypeNode } from '../../generator/ir/wire-types.js';
import { MINI, repoSpecs } from './helpers.js';

const BEFORE = { file: 'test/generator/mini-before.yaml', text: readFileSync(new URL('mini-before.yaml', import.meta.url), 'utf8') };

/** A shape as plain data, for comparing two builds. */
function plain(n: TypeNode | undefined): unknown {
  if (!n) return undefined;
  if (n.kind === 'object') return { ...n, props: Object.fromEntries([...n.props].map(([k, v]) => [k, plain(v)])) };
  if (n.kind === 'array') return { ...n, element: plain(n.element) };
  return { ...n };
}

describe('wire types (ir.wire)', () => {
  it('hold every field the rules read, typed by how they read it; an overlay\'s hold its base\'s and its own', async () => {
    const { irs, diagnostics } = await generate([MINI, BEFORE]);
    expect(diagnostics).toEqual([]);
    const mini = irs.find((x) => x.id === 'mini')!;
    const over = irs.find((x) => x.id === 'mini-before')!;
    // `text: { each: output, … body }`: output is a list of objects with kind and body.
    const output = nodeAt(mini.wire.response, ['output']);
    expect(output?.kind).toBe('array');
    expect(nodeAt(mini.wire.response, ['output', 0, 'body'])).toMatchObject({ kind: 'leaf', leaf: 'string' });
    expect(nodeAt(mini.wire.response, ['counts'])).toMatchObject({ kind: 'leaf', leaf: 'usage' });
    expect(nodeAt(mini.wire.event, ['delta', 'body'])).toMatchObject({ kind: 'leaf', leaf: 'string' });
    expect(nodeAt(mini.wire.response, ['thought'])).toBeUndefined();
    expect(nodeAt(over.wire.response, ['thought'])).toMatchObject({ kind: 'leaf', leaf: 'string' });
    expect(nodeAt(over.wire.event, ['delta', 'thought'])).toMatchObject({ kind: 'leaf', leaf: 'string' });
    expect(nodeAt(over.wire.event, ['delta', 'body'])).toMatchObject({ kind: 'leaf', leaf: 'string' });
    expect(mini.wire.conflicts).toEqual([]);
  });

  it('the emitter leaves them as built: emitting twice gives the same module, and the shapes equal a fresh build', async () => {
    // OpenRouter's message additions are a shape both readers share (WireMessage: a body's
    // choices.0.message, an event's choices.0.delta), named in both wire types.
    const { irs, files } = await generate(repoSpecs().filter((s) => s.file === 'specs/openrouter.yaml' || s.file === 'specs/openai-chat.yaml'));
    const ir = irs.find((x) => x.id === 'openrouter')!;
    const base = irs.find((x) => x.id === 'openai-chat')!;
    expect(files.get('openrouter.ts')).toContain('choices?: Array<{ message?: WireMessage | null }> | null');
    expect(files.get('openrouter.ts')).toContain('choices?: Array<{ delta?: WireMessage | null }> | null');
    const options = { runtimeImport: '../runtime/adapter-kit.js', kitNames: kitNames(), baseImport: './openai-chat.js' };
    const once = emitModule(ir, base, options);
    const twice = emitModule(ir, base, options);
    expect(twice).toBe(once);
    const fresh = buildWireTypes(ir);
    for (const part of ['response', 'event', 'usage'] as const) expect(plain(ir.wire[part])).toEqual(plain(fresh[part]));
    expect(JSON.stringify(plain(ir.wire.response))).not.toContain('WireMessage');
  }, 120_000);
});
