/**
 * Overlays as their differences (made-up overlays of MINI in test/generator/): golden files for
 * one that adds a rule, one that places a rule with `before:`, and one that removes; and their
 * generated readers run, to see the order of the composed rules and what a removal leaves out.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate, type SpecSource } from '../../generator/pipeline.js';
import { TurnAssembler } from '../../runtime/assemble/turn-assembler.js';
import type { ProviderAdapter } from '../../runtime/contract/adapter.js';
import { MINI } from './helpers.js';

const spec = (name: string): SpecSource => ({ file: `test/generator/${name}.yaml`, text: readFileSync(new URL(`${name}.yaml`, import.meta.url), 'utf8') });
const OVERLAYS = ['mini-adds', 'mini-before', 'mini-removes'] as const;
const generated = generate([MINI, ...OVERLAYS.map(spec)]);

describe('overlay modules (golden files)', () => {
  for (const id of OVERLAYS) {
    it(`${id} is emitted as reviewed`, async () => {
      const { files, diagnostics } = await generated;
      expect(diagnostics).toEqual([]);
      await expect(files.get(`${id}.ts`)).toMatchFileSnapshot(`./golden/${id}.ts.golden`);
    });
  }
});

interface Module {
  adapter: ProviderAdapter;
  codec: {
    readResponse(a: TurnAssembler, r: unknown): void;
    readEvent(a: TurnAssembler, e: unknown, event: string | undefined): void;
  };
}

describe('overlay readers composed from named rules, run', () => {
  let dir: string;
  const mods = new Map<string, Module>();
  beforeAll(async () => {
    // The modules import the runtime by absolute path, so they run from a folder of their own.
    const kit = fileURLToPath(new URL('../../runtime/adapter-kit.js', import.meta.url));
    const { files, diagnostics } = await generate([MINI, ...OVERLAYS.map(spec)], { runtimeImport: kit });
    expect(diagnostics).toEqual([]);
    dir = mkdtempSync(join(tmpdir(), 'wireforge-overlays-'));
    for (const [name, text] of files) writeFileSync(join(dir, name), text);
    for (const id of ['mini', ...OVERLAYS]) mods.set(id, (await import(join(dir, `${id}.ts`))) as Module);
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const blocking = (id: string, body: unknown) => {
    const m = mods.get(id)!;
    const a = new TurnAssembler(m.adapter.rules, { streaming: false });
    m.codec.readResponse(a, body);
    a.closeAll();
    return a.result();
  };
  const streamed = (id: string, events: unknown[]) => {
    const m = mods.get(id)!;
    const a = new TurnAssembler(m.adapter.rules, { streaming: false });
    for (const e of events) m.codec.readEvent(a, e, undefined);
    a.closeAll();
    return a.result();
  };
  const body = { output: [{ kind: 'text', body: 'Answer.' }], thought: 'Hmm.', afterthought: 'Done.', stop: 'done', counts: { in: 3, out: 4 } };
  const event = { delta: { body: 'Answer.', thought: 'Hmm.', afterthought: 'Done.' }, stop: 'done', counts: { in: 3, out: 4 }, final: true };
  const order = (r: { content: Array<{ type: string }> }) => r.content.map((p) => p.type);

  it('a rule placed with before: runs ahead of the base rule it names, in both readers', () => {
    expect(order(blocking('mini-before', body))).toEqual(['thinking', 'text']);
    expect(order(streamed('mini-before', [event]))).toEqual(['thinking', 'text']);
    expect(blocking('mini-before', body).thinking).toBe('Hmm.');
    // The base reads neither field of the overlay's.
    expect(order(blocking('mini', body))).toEqual(['text']);
  });

  it('an added rule follows the base rules', () => {
    expect(order(blocking('mini-adds', body))).toEqual(['text', 'thinking']);
    expect(order(streamed('mini-adds', [event]))).toEqual(['text', 'thinking']);
    expect(streamed('mini-adds', [event]).thinking).toBe('Done.');
  });

  it('a removed rule is not run, and the rest of the base still is', () => {
    const base = blocking('mini', body);
    const removed = blocking('mini-removes', body);
    expect(base.usage?.inputTokens).toBe(3);
    expect(removed.usage ?? null).toBeNull();
    expect(removed.text).toBe('Answer.');
    expect(removed.finishReason).toBe('stop');
    expect(streamed('mini-removes', [event]).usage ?? null).toBeNull();
    expect(streamed('mini', [event]).usage?.outputTokens).toBe(4);
  });

  it('a removed profile key is absent from the overlay\'s object, the base\'s other keys kept', () => {
    const base = mods.get('mini')!.adapter.profile.endpoint;
    const ep = mods.get('mini-removes')!.adapter.profile.endpoint;
    expect(base.apiKeyEnv).toBe('MINI_KEY');
    expect('apiKeyEnv' in ep).toBe(false);
    expect(ep.path).toBe(base.path);
    expect(ep.auth.header).toBe('x-token');
  });
});
