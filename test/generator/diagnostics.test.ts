/**
 * Spec diagnostics: each broken spec gives exactly the located, coded message we expect. The
 * expected lines are golden: they pin file, line, column, code, pointer and hint.
 */
import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../generator/diagnostics.js';
import { generate, type SpecSource } from '../../generator/pipeline.js';
import { MINI } from './helpers.js';

/** MINI with one line replaced (1-based line number), so locations stay predictable. */
function edit(line: number, replacement: string | string[]): SpecSource {
  const lines = MINI.text.split('\n');
  lines.splice(line - 1, 1, ...[replacement].flat());
  return { file: MINI.file, text: lines.join('\n') };
}
function lineOf(needle: string): number {
  const i = MINI.text.split('\n').findIndex((l) => l.includes(needle));
  if (i < 0) throw new Error(`not in mini.yaml: ${needle}`);
  return i + 1;
}
async function diagnose(...sources: SpecSource[]): Promise<string[]> {
  const r = await generate(sources);
  expect(r.files.size, 'nothing is emitted when a spec has problems').toBe(0);
  return r.diagnostics.map(formatDiagnostic);
}

const F = 'test/generator/mini.yaml';

describe('spec diagnostics', () => {
  it('the unedited spec is valid', async () => {
    expect((await generate([MINI])).diagnostics).toEqual([]);
  });

  it('unknown key, with did-you-mean', async () => {
    const l = lineOf('    maxTokens: { to: limits.output');
    expect(await diagnose(edit(lineOf('  params:'), '  parms:'))).toEqual([
      `${F}:${l - 1}:3 unknown-key Unknown key "parms" (at /request/parms); did you mean "params"?`,
    ]);
  });

  it('unknown unified field in params, with did-you-mean', async () => {
    const l = lineOf('    temperature: sampling.temperature');
    expect(await diagnose(edit(l, ['    temprature: sampling.temperature']))).toEqual([
      `${F}:${lineOf('  params:')}:3 fidelity-missing No disposition for the unified field "temperature" (at /request/params); map it (\`temperature: wire.path\`), or say \`temperature: { drop: <reason> }\` or \`{ reject: <reason> }\``,
      `${F}:${l}:5 unknown-field "temprature" is not a unified request field (at /request/params/temprature); did you mean "temperature"?`,
    ]);
  });

  it('wrong type', async () => {
    const l = lineOf('  framing: ndjson');
    expect(await diagnose(edit(l, '  framing: [sse]'))).toEqual([`${F}:${l}:12 wrong-type Expected string, got array (at /stream/framing)`]);
  });

  it('bad enum value, with did-you-mean', async () => {
    const l = lineOf('  framing: ndjson');
    expect(await diagnose(edit(l, '  framing: nd-json'))).toEqual([
      `${F}:${l}:12 bad-value "nd-json" is not allowed at /stream/framing (at /stream/framing); did you mean "ndjson"?`,
    ]);
  });

  it('missing required field', async () => {
    const l = lineOf('    to: functions');
    expect(await diagnose(edit(l, []))).toEqual([`${F}:${l}:5 missing-field Missing required field "to" (at /request/tools)`]);
  });

  it('bad extends target', async () => {
    const overlay = { file: 'specs/mini-plus.yaml', text: 'id: mini-plus\nextends: minni\nname: Mini Plus\n' };
    expect(await diagnose(MINI, overlay)).toEqual([
      `specs/mini-plus.yaml:2:10 bad-extends extends "minni", but no spec has that id (at /extends); did you mean "mini"?`,
    ]);
  });

  it('extends cycle', async () => {
    const a = { file: 'specs/a.yaml', text: 'id: a\nextends: b\n' };
    const b = { file: 'specs/b.yaml', text: 'id: b\nextends: a\n' };
    const out = await diagnose(a, b);
    expect(out).toEqual([
      'specs/a.yaml:2:10 extends-cycle extends "b", which leads back here: b → a → b (at /extends)',
      'specs/b.yaml:2:10 extends-cycle extends "a", which leads back here: a → b → a (at /extends)',
    ]);
  });

  it('an overlay is checked with its base, and located in its own file', async () => {
    const overlay = { file: 'specs/mini-plus.yaml', text: 'id: mini-plus\nextends: mini\nfinishReasons:\n  map: { halted: stopped }\n' };
    expect(await diagnose(MINI, overlay)).toEqual([
      `specs/mini-plus.yaml:4:18 finish-unknown-value "stopped" is not a unified finish reason (at /finishReasons/map/halted); one of: stop, length, tool_calls, content_filter, refusal, error, other`,
    ]);
  });

  it('finish-reason table without a fallback', async () => {
    const l = lineOf('  other: other');
    expect(await diagnose(edit(l, []))).toEqual([
      `${F}:${l - 2}:1 finish-no-fallback The finish-reason table has no fallback for values it does not list (at /finishReasons); add \`other: other\` so unknown non-null values map to "other"`,
    ]);
  });

  it('finish-reason table with an unknown unified value', async () => {
    const l = lineOf('  map: { done: stop, cut: length }');
    expect(await diagnose(edit(l, '  map: { done: stop, cut: lenght }'))).toEqual([
      `${F}:${l}:27 finish-unknown-value "lenght" is not a unified finish reason (at /finishReasons/map/cut); did you mean "length"?`,
    ]);
  });

  it('a stream rule on a path that cannot exist (text field read as an object)', async () => {
    const l = lineOf('      finish: stop');
    expect(await diagnose(edit(l, '      finish: delta.body.reason'))).toEqual([
      `${F}:${l}:15 path-conflict path "delta.body.reason" reads into delta.body, which /stream/on/*/text/text reads as a string (at /stream/on/*/finish/finish)`,
    ]);
  });

  it('a rule under a switch case that can never run', async () => {
    const text = MINI.text.replace(
      '      text: delta.body',
      '      byKind: { switch: delta.kind, cases: { a: { t: { when: { delta.kind: b }, text: delta.body } } } }',
    );
    const l = lineOf('      text: delta.body');
    expect(await diagnose({ file: F, text })).toEqual([
      `${F}:${l}:62 dead-rule rule "t" needs delta.kind = "b" inside the case "a" of a switch on delta.kind: it can never run (at /stream/on/*/byKind/cases/a/t/when)`,
    ]);
  });

  it('an unknown template slot', async () => {
    const l = lineOf('      user: { speaker: human, items: $parts }');
    expect(await diagnose(edit(l, '      user: { speaker: human, items: $prts }'))).toEqual([
      `${F}:${l}:38 unknown-slot $prts is not a slot of roles.user (at /request/messages/roles/user/items); did you mean "$parts"?`,
    ]);
  });

  it('two mappings writing one place', async () => {
    const l = lineOf('    temperature: sampling.temperature');
    expect(await diagnose(edit(l, '    temperature: limits.output'))).toEqual([
      `${F}:${l}:18 write-conflict writes limits.output, which /request/params/maxTokens also writes (at /request/params/temperature)`,
    ]);
  });

  it('YAML syntax error', async () => {
    const l = lineOf('  path: /chat/{model}');
    const out = await diagnose(edit(l, '  path: [unclosed'));
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(new RegExp(`^${F}:${l + 1}:\\d+ yaml-syntax `));
  });

  it('duplicate key', async () => {
    const l = lineOf('  apiKeyEnv: MINI_KEY');
    expect(await diagnose(edit(l, ['  apiKeyEnv: MINI_KEY', '  apiKeyEnv: OTHER_KEY']))).toEqual([
      `${F}:${l + 1}:3 duplicate-key Duplicate key: a later value would silently replace an earlier one (at /); remove or rename one of them`,
    ]);
  });

  it('id must match the file name', async () => {
    expect(await diagnose({ file: 'specs/other.yaml', text: MINI.text })).toEqual([
      'specs/other.yaml:2:5 bad-id id "mini" does not match the file name "other" (at /id); rename the file to mini.yaml or set id: other',
    ]);
  });

  it('collects every problem at once', async () => {
    let text = MINI.text.replace('  other: other\n', '').replace('framing: ndjson', 'framing: nd-json');
    text = text.replace('  params:', '  parms:');
    const out = await diagnose({ file: F, text });
    expect(out.map((l) => l.split(' ')[1])).toEqual(['unknown-key', 'bad-value']);
    // Semantic rules run once the schema is satisfied; the missing fallback shows up then.
    const next = await diagnose({ file: F, text: MINI.text.replace('  other: other\n', '').replace('cut: length', 'cut: lenght') });
    expect(next.map((l) => l.split(' ')[1])).toEqual(['finish-no-fallback', 'finish-unknown-value']);
  });
});
