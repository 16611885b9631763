/**
 * The template parser (generator/ir/templates.ts): spec values in, template nodes out, each
 * expectation written from the template language (docs/spec-language.md), not from a run. Malformed
 * strings become `bad` nodes carrying the message and hint the bad-template diagnostic shows
 * (diagnostics.test.ts checks them located in a spec).
 */
import { describe, expect, it } from 'vitest';
import { badNodes, parseTemplate, slotsOf, toTest } from '../../generator/ir/templates.js';

const P = '/request/x';

describe('parseTemplate: strings', () => {
  it.each([
    ['$text', { kind: 'slot', name: 'text', pointer: P }],
    ['$reasoning.effort', { kind: 'slot', name: 'reasoning.effort', pointer: P }],
    ['$maxTokens|256', { kind: 'slot', name: 'maxTokens', pointer: P, fallback: 256 }],
    ['$name|"anon"', { kind: 'slot', name: 'name', pointer: P, fallback: 'anon' }],
    ['$flag|false', { kind: 'slot', name: 'flag', pointer: P, fallback: false }],
    ['$x|null', { kind: 'slot', name: 'x', pointer: P, fallback: null }],
    ['$nothing', { kind: 'nothing' }],
    ['$null', { kind: 'literal', value: null }],
    ['$$5 off', { kind: 'literal', value: '$5 off' }],
    ['plain text', { kind: 'literal', value: 'plain text' }],
    ['', { kind: 'literal', value: '' }],
    ['cost $${x}', { kind: 'literal', value: 'cost ${x}' }],
    // Inside a longer string too, $$ is a literal $; a $ before anything but a name is text.
    ['pay $$name now', { kind: 'literal', value: 'pay $name now' }],
    ['costs $5', { kind: 'literal', value: 'costs $5' }],
    ['a $$${x}', { kind: 'literal', value: 'a $${x}' }],
  ])('%j', (input, node) => {
    expect(parseTemplate(input, P)).toEqual(node);
  });

  it('interpolation: literal text and slots in order, an escaped ${ kept as text and joined to its neighbours', () => {
    expect(parseTemplate('only:${name}', P)).toEqual({ kind: 'concat', parts: ['only:', { slot: 'name', pointer: P }] });
    expect(parseTemplate('a $${b} ${c}d', P)).toEqual({ kind: 'concat', parts: ['a ${b} ', { slot: 'c', pointer: P }, 'd'] });
    expect(parseTemplate('${a}${b}', P)).toEqual({ kind: 'concat', parts: [{ slot: 'a', pointer: P }, { slot: 'b', pointer: P }] });
  });

  it('malformed strings: a bad node with the message and hint the diagnostic shows', () => {
    const slotHint = 'a slot is $name, $name|<JSON default>, or ${name} inside a string; write $$ for a literal $';
    expect(parseTemplate('$', P)).toEqual({ kind: 'bad', pointer: P, message: '"$" is not a slot', hint: slotHint });
    expect(parseTemplate('$9lives', P)).toEqual({ kind: 'bad', pointer: P, message: '"$9lives" is not a slot', hint: slotHint });
    expect(parseTemplate('$two words', P)).toEqual({ kind: 'bad', pointer: P, message: '"$two words" is not a slot', hint: slotHint });
    expect(parseTemplate('$a|nope', P)).toEqual({ kind: 'bad', pointer: P, message: 'the default of "$a|nope" is not a JSON value', hint: 'write $name|"text", $name|0, $name|true or $name|null' });
    expect(parseTemplate('$a|{"x":1}', P)).toEqual({ kind: 'bad', pointer: P, message: 'the default of "$a|{\\"x\\":1}" must be a string, number, boolean, null, [] or {}' });
    expect(parseTemplate('$a|[1]', P)).toMatchObject({ kind: 'bad', message: 'the default of "$a|[1]" must be a string, number, boolean, null, [] or {}' });
    // An empty list or object is a default (a field a wire always sends, empty: Responses' `tools: []`).
    expect(parseTemplate('$a|[]', P)).toEqual({ kind: 'slot', name: 'a', pointer: P, fallback: [] });
    expect(parseTemplate('$a|{}', P)).toEqual({ kind: 'slot', name: 'a', pointer: P, fallback: {} });
    // A $name inside a longer string is not a slot: refused, with the interpolation that was meant.
    expect(parseTemplate('only:$name', P)).toEqual({ kind: 'bad', pointer: P, message: '"only:$name" has $name inside a longer string, where it is not a slot', hint: 'interpolate it as "only:${name}", or write $$name for the literal text' });
    expect(parseTemplate('${a} and $b', P)).toMatchObject({ kind: 'bad', message: '"${a} and $b" has $b inside a longer string, where it is not a slot', hint: 'interpolate it as "${a} and ${b}", or write $$b for the literal text' });
    expect(parseTemplate('$$x and $y', P)).toMatchObject({ kind: 'bad', message: '"$$x and $y" has $y inside a longer string, where it is not a slot' });
    const unclosed = { kind: 'bad', pointer: P, hint: 'interpolate a slot as ${name}' };
    expect(parseTemplate('x ${', P)).toEqual({ ...unclosed, message: '"x ${" has an unclosed or empty ${…}' });
    expect(parseTemplate('x ${}', P)).toEqual({ ...unclosed, message: '"x ${}" has an unclosed or empty ${…}' });
    expect(parseTemplate('${name', P)).toEqual({ ...unclosed, message: '"${name" has an unclosed or empty ${…}' });
    expect(parseTemplate('${a b}', P)).toEqual({ ...unclosed, message: '"${a b}" has an unclosed or empty ${…}' });
  });
});

describe('parseTemplate: values, objects and arrays', () => {
  it('numbers, booleans and null are literals', () => {
    for (const v of [0, 2.5, true, false, null]) expect(parseTemplate(v, P)).toEqual({ kind: 'literal', value: v });
  });

  it('an object keeps its keys in order, each value parsed at its own pointer (keys escaped)', () => {
    expect(parseTemplate({ fn: '$name', 'a/b~c': 3, nested: { on: true } }, P)).toEqual({
      kind: 'object',
      pointer: P,
      entries: [
        ['fn', { kind: 'slot', name: 'name', pointer: `${P}/fn` }],
        ['a/b~c', { kind: 'literal', value: 3 }],
        ['nested', { kind: 'object', pointer: `${P}/nested`, entries: [['on', { kind: 'literal', value: true }]] }],
      ],
    });
  });

  it('an array parses each item at its index', () => {
    expect(parseTemplate(['$a', 'x', ['$b']], P)).toEqual({
      kind: 'array',
      items: [
        { kind: 'slot', name: 'a', pointer: `${P}/0` },
        { kind: 'literal', value: 'x' },
        { kind: 'array', items: [{ kind: 'slot', name: 'b', pointer: `${P}/2/0` }] },
      ],
    });
  });

  it('$when: a slot, or conditions in the shared vocabulary; it is not an entry of the object', () => {
    expect(parseTemplate({ type: 'function', $when: '$strict' }, P)).toEqual({
      kind: 'object',
      pointer: P,
      entries: [['type', { kind: 'literal', value: 'function' }]],
      when: { kind: 'set', slot: { kind: 'slot', name: 'strict', pointer: `${P}/$when` } },
    });
    expect(parseTemplate({ k: 1, $when: { effort: { in: ['low', 'high'] }, flag: true, gone: { not: { exists: true } }, model: { matches: '^o' } } }, P)).toEqual({
      kind: 'object',
      pointer: P,
      entries: [['k', { kind: 'literal', value: 1 }]],
      when: {
        kind: 'tests',
        tests: [
          { slot: 'effort', test: { in: ['low', 'high'] }, pointer: `${P}/$when/effort` },
          { slot: 'flag', test: { eq: true }, pointer: `${P}/$when/flag` },
          { slot: 'gone', test: { not: { exists: true } }, pointer: `${P}/$when/gone` },
          { slot: 'model', test: { matches: '^o' }, pointer: `${P}/$when/model` },
        ],
      },
    });
  });

  it('a malformed $when is a bad node at its pointer', () => {
    const message = '$when takes a $slot or a condition { slot: <test> }';
    for (const when of [5, ['$a'], null]) {
      expect(parseTemplate({ k: 1, $when: when }, P)).toMatchObject({ when: { kind: 'set', slot: { kind: 'bad', pointer: `${P}/$when`, message } } });
    }
    expect(parseTemplate({ $when: '$' }, P)).toMatchObject({ when: { kind: 'set', slot: { kind: 'bad', message: '"$" is not a slot' } } });
  });
});

describe('toTest', () => {
  it('a literal is equality; exists, in, matches and not are read as such', () => {
    expect(toTest('x')).toEqual({ eq: 'x' });
    expect(toTest(null)).toEqual({ eq: null });
    expect(toTest({ exists: false })).toEqual({ exists: false });
    expect(toTest({ matches: 5 })).toEqual({ matches: '5' });
    expect(toTest({ not: 'x' })).toEqual({ not: { eq: 'x' } });
    expect(toTest({ in: [1, 2] })).toEqual({ in: [1, 2] });
  });
});

describe('slotsOf and badNodes', () => {
  const tree = parseTemplate({ $when: '$strict', a: ['$one', 'pre-${two}-post', '$'], b: { c: '$three|0', d: 'x ${' } }, P);

  it('slotsOf lists the $when slot first, then every slot in document order, with its pointer', () => {
    expect(slotsOf(tree)).toEqual([
      { name: 'strict', pointer: `${P}/$when` },
      { name: 'one', pointer: `${P}/a/0` },
      { name: 'two', pointer: `${P}/a/1` },
      { name: 'three', pointer: `${P}/b/c` },
    ]);
    expect(slotsOf(parseTemplate({ $when: { x: 1, y: { exists: true } } }, P)).map((s) => s.name)).toEqual(['x', 'y']);
  });

  it('badNodes finds every malformed string, nested ones and a bad $when included', () => {
    expect(badNodes(tree).map((b) => b.pointer)).toEqual([`${P}/a/2`, `${P}/b/d`]);
    expect(badNodes(parseTemplate({ $when: 7, a: '$' }, P)).map((b) => b.pointer)).toEqual([`${P}/$when`, `${P}/a`]);
    expect(badNodes(parseTemplate({ ok: '$fine', list: ['$also|1'] }, P))).toEqual([]);
  });
});
