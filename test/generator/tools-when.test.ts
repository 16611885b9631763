/**
 * `when: { tools: { exists: … } }` on the tool-choice forms and on params: compiled into the
 * codec, so a wire that refuses a choice or a parallel flag without tools is never sent one, and
 * the drop is a warning naming the field. Run on a made-up overlay of MINI; the diagnostics for
 * a wrong `when` in that position. The built-in wires: test/adapters/tools-when-wires.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../generator/diagnostics.js';
import { generate } from '../../generator/pipeline.js';
import type { ProviderAdapter } from '../../runtime/contract/adapter.js';
import type { ChatRequest } from '../../runtime/contract/unified-model.js';
import { MINI } from './helpers.js';

const OVERLAY = { file: 'test/generator/mini-tools-when.yaml', text: readFileSync(new URL('mini-tools-when.yaml', import.meta.url), 'utf8') };
// An overlay of it whose wire takes a choice without tools: `when: null` removes the base's condition.
const ALWAYS = { file: 'test/generator/mini-tools-always.yaml', text: 'id: mini-tools-always\nextends: mini-tools-when\nrequest:\n  toolChoice: { when: null }\n' };
// The same with a form of its own: its templates are compiled by the kit, the base's condition still taken away.
const ALWAYS_OWN = { file: 'test/generator/mini-tools-always-own.yaml', text: 'id: mini-tools-always-own\nextends: mini-tools-when\nrequest:\n  toolChoice: { when: null, auto: { mode: whatever } }\n' };
const weather = { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } };
const hi: ChatRequest = { model: 'm', messages: [{ role: 'user', content: 'Hi' }] };

function build(adapter: ProviderAdapter, req: ChatRequest) {
  const r = adapter.buildRequest(req, 'blocking');
  return { body: r.body, dropped: r.warnings.filter((w) => w.type === 'dropped') };
}

describe('a made-up wire with tools-conditional forms and params', () => {
  let dir: string;
  let adapter: ProviderAdapter;
  let always: ProviderAdapter;
  let alwaysOwn: ProviderAdapter;
  let source: string;
  beforeAll(async () => {
    const kit = fileURLToPath(new URL('../../runtime/adapter-kit.js', import.meta.url));
    const { files, diagnostics } = await generate([MINI, OVERLAY, ALWAYS, ALWAYS_OWN], { runtimeImport: kit });
    expect(diagnostics).toEqual([]);
    dir = mkdtempSync(join(tmpdir(), 'wireforge-tools-when-'));
    for (const [name, text] of files) writeFileSync(join(dir, name), text);
    source = files.get('mini-tools-when.ts')!;
    adapter = ((await import(join(dir, 'mini-tools-when.ts'))) as { adapter: ProviderAdapter }).adapter;
    always = ((await import(join(dir, 'mini-tools-always.ts'))) as { adapter: ProviderAdapter }).adapter;
    alwaysOwn = ((await import(join(dir, 'mini-tools-always-own.ts'))) as { adapter: ProviderAdapter }).adapter;
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('without tools, no choice and no parallel flag go out, each a dropped warning naming its field', () => {
    const { body, dropped } = build(adapter, { ...hi, toolChoice: 'auto', parallelToolCalls: false });
    expect(body).not.toHaveProperty('pick');
    expect(body).not.toHaveProperty('pick_many');
    expect(dropped.map((w) => w.field).sort()).toEqual(['parallelToolCalls', 'toolChoice']);
    for (const w of dropped) expect(w.message).toMatch(/no tools are declared/);
  });

  it('with tools, every form and the flag (through its template) are written', () => {
    const tools = [weather];
    expect(build(adapter, { ...hi, tools, toolChoice: 'auto', parallelToolCalls: false })).toEqual({
      body: expect.objectContaining({ pick: { mode: 'any' }, pick_many: { many: false } }),
      dropped: [],
    });
    expect(build(adapter, { ...hi, tools, toolChoice: 'required' }).body).toHaveProperty('pick', { mode: 'must' });
    expect(build(adapter, { ...hi, tools, toolChoice: { name: 'get_weather' } }).body).toHaveProperty('pick', { mode: 'one', fn: 'get_weather' });
  });

  it('an empty tools list is no tools declared', () => {
    const { body, dropped } = build(adapter, { ...hi, tools: [], toolChoice: 'required' });
    expect(body).not.toHaveProperty('pick');
    expect(dropped.map((w) => w.field)).toEqual(['toolChoice']);
  });

  it('a form the spec lacks is still dropped as unsupported when tools are declared', () => {
    const { body, dropped } = build(adapter, { ...hi, tools: [weather], toolChoice: 'none' });
    expect(body).not.toHaveProperty('pick');
    expect(dropped).toEqual([expect.objectContaining({ field: 'toolChoice', message: expect.stringMatching(/no "none" tool choice/) })]);
  });

  it('`tools` beside a unified field: both must hold (exists: false sends it only without tools)', () => {
    const sent = build(adapter, { ...hi, temperature: 0.5, maxTokens: 10 });
    expect(sent.body).toHaveProperty('sampling', { temperature: 0.5 });
    const withTools = build(adapter, { ...hi, tools: [weather], temperature: 0.5, maxTokens: 10 });
    expect(withTools.body).not.toHaveProperty('sampling');
    expect(withTools.dropped).toEqual([{ type: 'dropped', field: 'temperature', message: 'tools are declared' }]);
    const noMax = build(adapter, { ...hi, temperature: 0.5 });
    expect(noMax.body).not.toHaveProperty('sampling');
    expect(noMax.dropped.map((w) => w.field)).toEqual(['temperature']);
  });

  it('an overlay that says `when: null` sends the choice without tools; the param keeps its condition', () => {
    const { body, dropped } = build(always, { ...hi, toolChoice: 'auto', parallelToolCalls: true });
    expect(body).toHaveProperty('pick', { mode: 'any' });
    expect(body).not.toHaveProperty('pick_many');
    expect(dropped.map((w) => w.field)).toEqual(['parallelToolCalls']);
  });

  it('an overlay that says `when: null` and changes a form sends its own form without tools', () => {
    expect(build(alwaysOwn, { ...hi, toolChoice: 'auto' })).toEqual({ body: expect.objectContaining({ pick: { mode: 'whatever' } }), dropped: [] });
    expect(build(alwaysOwn, { ...hi, toolChoice: 'required' }).body).toHaveProperty('pick', { mode: 'must' });
  });

  it('the condition is compiled into the codec, not carried as data for the runtime', () => {
    expect(source).toMatch(/when: \(r, w\) => r\.tools\?\.length \|\| w\.drop\('toolChoice'/);
    expect(source).not.toMatch(/tools: \{ exists/);
    expect(adapter.profile.request.params.temperature).toEqual({ to: ['sampling', 'temperature'], when: { maxTokens: { exists: true } } });
  });
});

describe('diagnostics for `when` on a tool choice', () => {
  const overlay = (when: string) => ({
    file: 'test/generator/mini-when.yaml',
    text: ['id: mini-when', 'extends: mini', 'request:', '  toolChoice:', '    to: pick', `    when: ${when}`, '    auto: any', ''].join('\n'),
  });
  const diagnose = async (when: string) => (await generate([MINI, overlay(when)])).diagnostics.map(formatDiagnostic);

  it('a subject other than `tools`, with did-you-mean', async () => {
    expect(await diagnose('{ tool: { exists: true } }')).toEqual([
      'test/generator/mini-when.yaml:6:13 unknown-field "tool" is not a subject of a tool choice\'s condition: it names only `tools` (at /request/toolChoice/when/tool); did you mean "tools"?',
    ]);
    expect(await diagnose('{ model: { matches: "^o1" } }')).toEqual([
      'test/generator/mini-when.yaml:6:13 unknown-field "model" is not a subject of a tool choice\'s condition: it names only `tools` (at /request/toolChoice/when/model); write `when: { tools: { exists: true } }` (sent only with tools declared)',
    ]);
  });

  it('`tools` tested other than by exists', async () => {
    expect(await diagnose('{ tools: true }')).toEqual([
      'test/generator/mini-when.yaml:6:20 bad-value `tools` is tested only for being declared (at /request/toolChoice/when/tools); write `when: { tools: { exists: true } }` (sent only with tools declared) or `{ tools: { exists: false } }`',
    ]);
  });

  it('`tools` in a param condition is a subject, not an unknown field; tested by exists only', async () => {
    const param = (when: string) => ({
      file: 'test/generator/mini-when.yaml',
      text: ['id: mini-when', 'extends: mini', 'request:', '  params:', `    temperature: { to: t, when: ${when} }`, ''].join('\n'),
    });
    expect((await generate([MINI, param('{ tools: { exists: true } }')])).diagnostics).toEqual([]);
    expect((await generate([MINI, param('{ tools: { in: [a] } }')])).diagnostics.map(formatDiagnostic)).toEqual([
      'test/generator/mini-when.yaml:5:42 bad-value `tools` is tested only for being declared (at /request/params/temperature/when/tools); write `when: { tools: { exists: true } }` (sent only with tools declared) or `{ tools: { exists: false } }`',
    ]);
  });
});
