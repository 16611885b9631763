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

  // One line of mini.yaml replaced → exactly these located, coded lines. `l` is the edited line.
  const EDITS: Array<[string, { line: string; replace: string | string[]; want: (l: number) => string[] }]> = [
    [
      'unknown key, with did-you-mean',
      { line: '  params:', replace: '  parms:', want: (l) => [`${F}:${l}:3 unknown-key Unknown key "parms" (at /request/parms); did you mean "params"?`] },
    ],
    [
      'unknown unified field in params, with did-you-mean',
      {
        line: '    temperature: sampling.temperature',
        replace: '    temprature: sampling.temperature',
        want: (l) => [
          `${F}:${lineOf('  params:')}:3 fidelity-missing No disposition for the unified field "temperature" (at /request/params); map it (\`temperature: wire.path\`), or say \`temperature: { drop: <reason> }\` or \`{ reject: <reason> }\``,
          `${F}:${l}:5 unknown-field "temprature" is not a unified request field (at /request/params/temprature); did you mean "temperature"?`,
        ],
      },
    ],
    ['wrong type', { line: '  framing: ndjson', replace: '  framing: [sse]', want: (l) => [`${F}:${l}:12 wrong-type Expected string, got array (at /stream/framing)`] }],
    [
      'bad enum value, with did-you-mean',
      { line: '  framing: ndjson', replace: '  framing: nd-json', want: (l) => [`${F}:${l}:12 bad-value "nd-json" is not allowed at /stream/framing (at /stream/framing); did you mean "ndjson"?`] },
    ],
    [
      'a schema fallback beside a jsonSchema form, which it could never be used for',
      {
        line: '  params:',
        replace: ['  responseFormat: { to: format, jsonSchema: { schema: $schema }, schemaFallback: instruction }', '  params:'],
        want: (l) => [
          `${F}:${l}:82 bad-value this spec has a jsonSchema form, which a typed reply always uses: the fallback would never be used (at /request/responseFormat/schemaFallback); remove schemaFallback, or write \`jsonSchema: null\` when the wire has no JSON-schema mode`,
        ],
      },
    ],
    [
      'a forced-tool schema fallback on a wire without a named tool choice',
      {
        line: '  params:',
        replace: ['  responseFormat: { schemaFallback: tool }', '  params:'],
        want: (l) => [
          `${F}:${l}:37 bad-value a forced tool needs a \`request.toolChoice.named\` form: the reply is asked for as a call of one named tool (at /request/responseFormat/schemaFallback); declare the tool templates and the named tool choice, or use \`schemaFallback: instruction\``,
        ],
      },
    ],
    [
      'a schema fallback that is neither tool nor instruction',
      {
        line: '  params:',
        replace: ['  responseFormat: { schemaFallback: tools }', '  params:'],
        want: (l) => [`${F}:${l}:37 bad-value "tools" is not allowed at /request/responseFormat/schemaFallback (at /request/responseFormat/schemaFallback); did you mean "tool"?`],
      },
    ],
    ['missing required field', { line: '    to: functions', replace: [], want: (l) => [`${F}:${l}:5 missing-field Missing required field "to" (at /request/tools)`] }],
    [
      'finish-reason table without a fallback',
      {
        line: '  other: other',
        replace: [],
        want: (l) => [`${F}:${l - 2}:1 finish-no-fallback The finish-reason table has no fallback for values it does not list (at /finish); add \`other: other\` so unknown non-null values map to "other"`],
      },
    ],
    [
      'finish-reason table with an unknown unified value',
      {
        line: '  map: { done: stop, cut: length }',
        replace: '  map: { done: stop, cut: lenght }',
        want: (l) => [`${F}:${l}:27 finish-unknown-value "lenght" is not a unified finish reason (at /finish/map/cut); did you mean "length"?`],
      },
    ],
    [
      'a stream rule on a path that cannot exist (text field read as an object)',
      {
        line: '      finish: stop',
        replace: '      finish: delta.body.reason',
        want: (l) => [`${F}:${l}:15 path-conflict path "delta.body.reason" reads into delta.body, which /stream/on/*/text/text reads as a string (at /stream/on/*/finish/finish)`],
      },
    ],
    [
      'a rule under a switch case that can never run',
      {
        line: '      text: delta.body',
        replace: '      byKind: { switch: delta.kind, cases: { a: { t: { when: { delta.kind: b }, text: delta.body } } } }',
        want: (l) => [`${F}:${l}:62 dead-rule rule "t" needs delta.kind = "b" inside the case "a" of a switch on delta.kind: it can never run (at /stream/on/*/byKind/cases/a/t/when)`],
      },
    ],
    [
      'named events on NDJSON with no eventKey: nothing names a line',
      {
        line: '    "*":',
        replace: '    piece:',
        want: (l) => [
          `${F}:${l}:5 dead-rule NDJSON lines carry no event name, and no \`stream.eventKey\` says which field names them: the rules under "piece" can never run (at /stream/on/piece); set stream.eventKey to the field that names each line (e.g. eventKey: type), or put the rules under the \`"*"\` event (every line)`,
        ],
      },
    ],
    [
      'a placeholder in the endpoint that is neither the model nor a declared option',
      {
        line: '  path: /chat/{model}',
        replace: '  path: /chat/{modle}',
        want: (l) => [`${F}:${l}:9 unknown-placeholder {modle} is neither the model nor an endpoint option of this spec (at /endpoint/path); did you mean "model"?`],
      },
    ],
    [
      'endpoint option defaults that lead back to themselves',
      {
        line: '  path: /chat/{model}',
        replace: ['  path: /chat/{model}', '  options:', '    a: { default: "{b}" }', '    b: { default: "{a}" }'],
        want: (l) => [`${F}:${l + 2}:19 unknown-placeholder the default of "a" leads back to itself through other options' defaults (at /endpoint/options/a/default); give one of them a value that uses no other option`],
      },
    ],
    [
      'an unknown template slot',
      {
        line: '      user: { speaker: human, items: $parts }',
        replace: '      user: { speaker: human, items: $prts }',
        want: (l) => [`${F}:${l}:38 unknown-slot $prts is not a slot of roles.user (at /request/messages/roles/user/items); did you mean "$parts"?`],
      },
    ],
    [
      'two mappings writing one place',
      {
        line: '    temperature: sampling.temperature',
        replace: '    temperature: limits.output',
        want: (l) => [`${F}:${l}:18 write-conflict writes limits.output, which /request/params/maxTokens also writes (at /request/params/temperature)`],
      },
    ],
    [
      'a slot default that is not JSON (was a raw SyntaxError)',
      {
        line: '      tool: { speaker: human, items: [{ kind: result, ref: $toolCallId, output: $text }] }',
        replace: "      tool: { speaker: human, items: [{ kind: result, ref: $toolCallId, output: '$text|$nothing' }] }",
        want: (l) => [`${F}:${l}:81 bad-template the default of "$text|$nothing" is not a JSON value (at /request/messages/roles/tool/items/0/output); write $name|"text", $name|0, $name|true or $name|null`],
      },
    ],
    [
      'an unclosed interpolation',
      {
        line: '      text: { kind: text, body: $text }',
        replace: '      text: { kind: text, body: "#${text" }',
        want: (l) => [`${F}:${l}:33 bad-template "#\${text" has an unclosed or empty \${…} (at /request/messages/parts/text/body); interpolate a slot as \${name}`],
      },
    ],
    [
      'a $slot inside a longer string (was sent as the literal text)',
      {
        line: '      text: { kind: text, body: $text }',
        replace: '      text: { kind: text, body: "#$text" }',
        want: (l) => [`${F}:${l}:33 bad-template "#$text" has $text inside a longer string, where it is not a slot (at /request/messages/parts/text/body); interpolate it as "#\${text}", or write $$text for the literal text`],
      },
    ],
    [
      'merging a field a role writes as a string, without join (two strings went as ["a","b"])',
      {
        line: '      user: { speaker: human, items: $parts }',
        replace: '      user: { speaker: human, items: $text }',
        want: (l) => [`${F}:${l - 2}:12 bad-value merging "items" without join: the user template writes it as a string, and two strings would be sent as a list (at /request/messages/merge); give the separator: merge: { field: items, join: "\\n" }`],
      },
    ],
    [
      'a second-edition form (request.stream.body), named with the third-edition form',
      {
        line: '  streamBody: { live: true }',
        replace: ['  stream:', '    body: { live: true }'],
        want: (l) => [`${F}:${l}:3 earlier-edition \`request.stream.body\` is \`request.streamBody\` in the third edition (\`stream\` is only the stream section) (at /request/stream); write request: { streamBody: { … } }`],
      },
    ],
    [
      'a second-edition section name (finishReasons), named with the third-edition one',
      {
        line: 'finish:',
        replace: 'finishReasons:',
        want: (l) => [`${F}:${l}:1 earlier-edition \`finishReasons\` is \`finish\` in the third edition (the profile's name) (at /finishReasons); write finish: { map: { … }, other: other }`],
      },
    ],
    [
      'a second-edition key (mergeConsecutive), named with the third-edition one',
      {
        line: '    merge: items',
        replace: '    mergeConsecutive: items',
        want: (l) => [`${F}:${l}:5 earlier-edition \`mergeConsecutive\` is \`merge\` in the third edition (the profile's name) (at /request/messages/mergeConsecutive); write messages: { merge: content } or merge: { field: text, join: "\\n" }`],
      },
    ],
    [
      'a first-edition param form (droppedWhen) under any param, named with the second-edition form',
      {
        line: '    maxTokens: { to: limits.output, default: 256 }',
        replace: '    maxTokens: { to: limits.output, default: 256, droppedWhen: reasoning.budgetTokens }',
        want: (l) => [`${F}:${l}:51 earlier-edition \`droppedWhen: <field>\` (first edition) is a \`when\` condition since the second edition (at /request/params/maxTokens/droppedWhen); write when: { reasoning.budgetTokens: { exists: false } } (sent only while the field is unset)`],
      },
    ],
    [
      'a first-edition continuity model test (a regular expression, now a literal), named with the matches form',
      {
        line: 'serve:',
        replace: ['continuity:', '  rules:', '    - { when: { model: "^mini-r" }, drop: [thinking] }', 'serve:'],
        want: (l) => [`${F}:${l + 2}:17 earlier-edition a continuity \`model\` test is a literal since the second edition (the first edition read it as a regular expression) (at /continuity/rules/0/when/model); write when: { model: { matches: "^x" } }`],
      },
    ],
    [
      'a rule named after an action that names it again inside (one meaning per name)',
      {
        line: '      text: delta.body',
        replace: '      text: { when: { delta.body: { exists: true } }, text: { start: true, text: delta.body } }',
        want: (l) => [`${F}:${l}:55 rule-shape the rule "text" names its action again inside: a rule named after an action takes the action's arguments directly (at /stream/on/*/text/text); write text: { when: …, start: true, text: "delta.body" }`],
      },
    ],
    [
      'a rule named after an action that holds another action',
      {
        line: '      text: delta.body',
        replace: '      text: { thinking: { text: delta.body } }',
        want: (l) => [`${F}:${l}:15 rule-shape the rule "text" is named after an action but holds the action "thinking": name it for what it does (at /stream/on/*/text/thinking); rename the rule (e.g. thinkingRule: { thinking: … })`],
      },
    ],
    [
      'a rule that is not an action, with did-you-mean and the allowed forms',
      {
        line: '      text: delta.body',
        replace: '      txt: delta.body',
        want: (l) => [`${F}:${l}:7 rule-shape "txt" is not an action, so its rule needs an object (an action key, switch/cases, or rules) (at /stream/on/*/txt); did you mean "text"? actions: meta, text, refusal, part, thinking, toolCall, finish, usage, error, end`],
      },
    ],
    [
      'an unknown key in a rule, with did-you-mean and the allowed forms',
      {
        line: '      call: { when: { delta.call: { exists: true } }, toolCall:',
        replace: MINI.text.split('\n').find((x) => x.startsWith('      call: { when:'))!.replace('toolCall:', 'toolCal:'),
        want: (l) => [`${F}:${l}:55 unknown-key "toolCal" is not an action or a rule key (at /stream/on/*/call/toolCal); did you mean "toolCall"? actions: meta, text, refusal, part, thinking, toolCall, finish, usage, error, end; rule keys: when, each, before, switch, cases, rules`],
      },
    ],
    [
      'a body path through __proto__ (would reach a prototype at run time)',
      {
        line: '    temperature: sampling.temperature',
        replace: '    temperature: __proto__.polluted',
        want: (l) => [`${F}:${l}:18 forbidden-key the path __proto__.polluted writes __proto__ (at /request/params/temperature); __proto__, constructor, prototype can reach a prototype; use another key`],
      },
    ],
    [
      'a template key __proto__',
      {
        line: '      user: { speaker: human, items: $parts }',
        replace: '      user: { speaker: human, items: $parts, __proto__: x }',
        want: (l) => [`${F}:${l}:46 forbidden-key a template writes the key __proto__ (at /request/messages/roles/user/__proto__); __proto__, constructor, prototype can reach a prototype; use another key`],
      },
    ],
    [
      'a pattern that is not a regular expression',
      {
        line: '      end: { when: { final: true }, end: true }',
        replace: '      end: { when: { final: { matches: "(" } }, end: true }',
        want: (l) => [`${F}:${l}:20 bad-pattern "(" is not a regular expression: Invalid regular expression: /(/: Unterminated group (at /stream/on/*/end/when)`],
      },
    ],
  ];

  it('merging a field that may be a string ($content), without join or a text part template', async () => {
    const text = MINI.text
      .replace('      user: { speaker: human, items: $parts }', '      user: { speaker: human, items: $content }')
      .replace('    parts:\n      text: { kind: text, body: $text }', '    parts:\n      imageUrl: { kind: image, url: $url }');
    expect(text).not.toBe(MINI.text);
    expect(await diagnose({ file: MINI.file, text })).toEqual([
      `${F}:14:12 bad-value merging "items" without join: the user template may write it as a string, and with no text part template two strings would be sent as a list (at /request/messages/merge); give the separator (merge: { field: items, join: "\\n" }) or a parts.text template`,
    ]);
    // With the text part template kept, a string becomes a text part: no diagnostic.
    expect((await generate([{ file: MINI.file, text: MINI.text.replace('items: $parts }', 'items: $content }') }])).diagnostics).toEqual([]);
  });

  it.each(EDITS)('%s', async (_name, { line, replace, want }) => {
    const l = lineOf(line);
    expect(await diagnose(edit(l, replace))).toEqual(want(l));
  });

  it('the kind table and what reads it: unknown part fields, an unknown fixed kind, before naming no rule', async () => {
    const overlay = {
      file: 'specs/mini-plus.yaml',
      text: [
        'id: mini-plus',
        'extends: mini',
        'response:',
        '  searched: { each: output, rules: { s: { when: { kind: search }, part: { kind: serach } } } }',
        '  early: { before: nothing, finish: stop }',
        'parts:',
        '  kinds:',
        '    search: { provider-tool-call: { id: ref, nmae: fn, input: args } }',
        '',
      ].join('\n'),
    };
    expect(await diagnose(MINI, overlay)).toEqual([
      'specs/mini-plus.yaml:4:81 unknown-kind kind "serach" is not in the kind table (parts.kinds) (at /response/searched/rules/s/part/kind); did you mean "search"?',
      'specs/mini-plus.yaml:5:20 unknown-rule "before: nothing" names no other rule of this map (at /response/early/before)',
      'specs/mini-plus.yaml:8:46 unknown-field a provider-tool-call part has no field "nmae" (at /parts/kinds/search/provider-tool-call/nmae); did you mean "name"? fields: id, name, input',
    ]);
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
    const overlay = { file: 'specs/mini-plus.yaml', text: 'id: mini-plus\nextends: mini\nfinish:\n  map: { halted: stopped }\n' };
    expect(await diagnose(MINI, overlay)).toEqual([
      `specs/mini-plus.yaml:4:18 finish-unknown-value "stopped" is not a unified finish reason (at /finish/map/halted); one of: stop, length, tool_calls, content_filter, refusal, error, other`,
    ]);
  });

  it('YAML syntax error', async () => {
    const l = lineOf('  path: /chat/{model}');
    const out = await diagnose(edit(l, '  path: [unclosed'));
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(new RegExp(`^${F}:${l + 1}:\\d+ yaml-syntax `));
  });

  it('aliases of aliases that expand too far are a located diagnostic, not a crash', async () => {
    // Nine levels of ten aliases each: 10^9 strings if expanded.
    const lines = ['id: laughs', 'a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 9; i++) lines.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10).fill(`*${String.fromCharCode(96 + i)}`).join(', ')}]`);
    expect(await diagnose({ file: 'specs/laughs.yaml', text: `${lines.join('\n')}\n` })).toEqual([
      'specs/laughs.yaml:1:1 too-many-aliases Aliases expand to too much data (more than 100 uses of one anchor, counting nested ones) (at /); write the repeated part out, or alias it fewer times',
    ]);
  });

  it('duplicate key', async () => {
    const l = lineOf('  apiKeyEnv: MINI_KEY');
    expect(await diagnose(edit(l, ['  apiKeyEnv: MINI_KEY', '  apiKeyEnv: OTHER_KEY']))).toEqual([
      `${F}:${l + 1}:3 duplicate-key Duplicate key: a later value would silently replace an earlier one (at /); remove or rename one of them`,
    ]);
  });

  it('an empty file is a located problem, not a crash', async () => {
    expect(await diagnose({ file: 'specs/empty.yaml', text: '' })).toEqual([
      'specs/empty.yaml:1:1 wrong-type A spec is a YAML mapping (id, endpoint, request, …); this file holds none (at /); start from a spec in specs/, or `extends:` one',
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
    // Schema problems and the semantic ones elsewhere in the document, in one run; nothing that
    // only echoes a schema problem (no "missing" params because `params` is misspelt).
    expect(out.map((l) => l.split(' ')[1])).toEqual(['unknown-key', 'bad-value', 'finish-no-fallback']);
    const next = await diagnose({ file: F, text: MINI.text.replace('  other: other\n', '').replace('cut: length', 'cut: lenght') });
    expect(next.map((l) => l.split(' ')[1])).toEqual(['finish-no-fallback', 'finish-unknown-value']);
  });
});
