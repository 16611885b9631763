/**
 * Templates: a JSON value in the spec that is written to the wire, with `$slot` strings standing
 * for values of the request and `${slot}` interpolated into strings (`$${` is a literal `${`). Parsed once into a small
 * tree the emitter walks; a malformed string becomes a `bad` node the template-syntax rule
 * reports with its location.
 */
import type { Test } from '../../runtime/contract/profile.js';
import { escapePointer } from '../load/parse-spec.js';

export type TemplateNode =
  /** `$name`, or `$name|<JSON default>` used when the value is undefined or null. */
  | { kind: 'slot'; name: string; pointer: string; fallback?: SlotDefault }
  /** `$nothing`: send nothing (resolved here, never a value at run time). */
  | { kind: 'nothing' }
  | { kind: 'literal'; value: string | number | boolean | null }
  /** `"only:${name}"`: literal text and slots; undefined when any slot is. */
  | { kind: 'concat'; parts: Array<string | { slot: string; pointer: string }> }
  /**
   * `$when` makes the whole object disappear unless it holds: `$when: $slot` (the value is set
   * and not empty) or `$when: { slot: <test> }` in the condition vocabulary.
   */
  | { kind: 'object'; entries: Array<[string, TemplateNode]>; when?: TemplateWhen; pointer: string }
  | { kind: 'array'; items: TemplateNode[] }
  | { kind: 'bad'; pointer: string; message: string; hint?: string };

/** A slot's default: a JSON scalar, or an empty list or object (a field the wire always sends, empty). */
export type SlotDefault = string | number | boolean | null | readonly [] | Readonly<Record<string, never>>;

export type TemplateWhen = { kind: 'set'; slot: TemplateNode } | { kind: 'tests'; tests: Array<{ slot: string; test: Test; pointer: string }> };

const SLOT = /^[A-Za-z_][A-Za-z0-9_.]*$/;

export function parseTemplate(value: unknown, pointer: string): TemplateNode {
  if (typeof value === 'string') return parseString(value, pointer);
  if (Array.isArray(value)) return { kind: 'array', items: value.map((v, i) => parseTemplate(v, `${pointer}/${i}`)) };
  if (value !== null && typeof value === 'object') {
    const esc = (k: string) => `${pointer}/${escapePointer(k)}`;
    const entries = Object.entries(value).filter(([k]) => k !== '$when');
    const when = (value as Record<string, unknown>).$when;
    return {
      kind: 'object',
      pointer,
      entries: entries.map(([k, v]) => [k, parseTemplate(v, esc(k))]),
      ...(when === undefined ? {} : { when: parseWhen(when, esc('$when')) }),
    };
  }
  return { kind: 'literal', value: value as string | number | boolean | null };
}

function parseString(value: string, pointer: string): TemplateNode {
  if (value === '$nothing') return { kind: 'nothing' };
  // A YAML null removes a key when specs are merged (resolve-extends.ts); `$null` writes one.
  if (value === '$null') return { kind: 'literal', value: null };
  if (value.startsWith('$$') || (!value.startsWith('$') && !value.includes('${'))) {
    const t = literalText(value);
    return t.stray === undefined ? { kind: 'literal', value: t.text } : strayDollar(value, t.stray, pointer);
  }
  if (value.includes('${')) return parseConcat(value, pointer);
  const bar = value.indexOf('|');
  const name = value.slice(1, bar < 0 ? undefined : bar);
  if (!SLOT.test(name)) return { kind: 'bad', pointer, message: `${JSON.stringify(value)} is not a slot`, hint: 'a slot is $name, $name|<JSON default>, or ${name} inside a string; write $$ for a literal $' };
  if (bar < 0) return { kind: 'slot', name, pointer };
  const text = value.slice(bar + 1);
  let fallback: unknown;
  try {
    fallback = JSON.parse(text);
  } catch {
    return { kind: 'bad', pointer, message: `the default of ${JSON.stringify(value)} is not a JSON value`, hint: 'write $name|"text", $name|0, $name|true or $name|null' };
  }
  if (typeof fallback === 'object' && fallback !== null && Object.keys(fallback).length > 0) {
    return { kind: 'bad', pointer, message: `the default of ${JSON.stringify(value)} must be a string, number, boolean, null, [] or {}` };
  }
  return { kind: 'slot', name, pointer, fallback: fallback as SlotDefault };
}

function parseConcat(value: string, pointer: string): TemplateNode {
  const parts: Array<string | { slot: string; pointer: string }> = [];
  let rest = value;
  const text = (t: string) => {
    if (!t) return;
    const last = parts[parts.length - 1];
    if (typeof last === 'string') parts[parts.length - 1] = last + t;
    else parts.push(t);
  };
  while (rest.length) {
    const at = rest.indexOf('${');
    if (at < 0) {
      const tail = literalText(rest);
      if (tail.stray !== undefined) return strayDollar(value, tail.stray, pointer);
      text(tail.text);
      break;
    }
    // `$${` is a literal `${`.
    if (at > 0 && rest[at - 1] === '$') {
      const pre = literalText(rest.slice(0, at - 1));
      if (pre.stray !== undefined) return strayDollar(value, pre.stray, pointer);
      text(pre.text + '${');
      rest = rest.slice(at + 2);
      continue;
    }
    const before = literalText(rest.slice(0, at));
    if (before.stray !== undefined) return strayDollar(value, before.stray, pointer);
    text(before.text);
    const end = rest.indexOf('}', at);
    const name = end < 0 ? '' : rest.slice(at + 2, end);
    if (!SLOT.test(name)) return { kind: 'bad', pointer, message: `${JSON.stringify(value)} has an unclosed or empty \${…}`, hint: 'interpolate a slot as ${name}' };
    parts.push({ slot: name, pointer });
    rest = rest.slice(end + 1);
  }
  if (parts.every((p) => typeof p === 'string')) return { kind: 'literal', value: parts.join('') };
  return { kind: 'concat', parts };
}

/**
 * Text between slots: `$$` is a literal `$`; a `$name` there is not a slot (only a whole string
 * or `${name}` is), so it is named (`stray`) to be refused rather than sent as written.
 */
function literalText(text: string): { text: string; stray?: string } {
  if (!text.includes('$')) return { text };
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '$' && text[i + 1] === '$') i++;
    else if (c === '$' && /[A-Za-z_]/.test(text[i + 1] ?? '')) return { text: out, stray: /^[A-Za-z_][A-Za-z0-9_.]*/.exec(text.slice(i + 1))![0] };
    out += c;
  }
  return { text: out };
}

function strayDollar(value: string, name: string, pointer: string): TemplateNode {
  const fixed = value.replace(/(^|[^$])\$([A-Za-z_][A-Za-z0-9_.]*)/g, '$1$${$2}');
  return {
    kind: 'bad',
    pointer,
    message: `${JSON.stringify(value)} has $${name} inside a longer string, where it is not a slot`,
    hint: `interpolate it as ${JSON.stringify(fixed)}, or write $$${name} for the literal text`,
  };
}

function parseWhen(v: unknown, pointer: string): TemplateWhen {
  if (typeof v === 'string') return { kind: 'set', slot: parseString(v, pointer) };
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    return { kind: 'set', slot: { kind: 'bad', pointer, message: '$when takes a $slot or a condition { slot: <test> }' } };
  }
  return {
    kind: 'tests',
    tests: Object.entries(v).map(([slot, t]) => ({ slot, test: toTest(t), pointer: `${pointer}/${slot}` })),
  };
}

/** A condition value in the shared vocabulary: a literal is equality. */
export function toTest(t: unknown): Test {
  if (t !== null && typeof t === 'object' && !Array.isArray(t)) {
    const o = t as Record<string, unknown>;
    if ('exists' in o) return { exists: o.exists === true };
    if ('in' in o) return { in: o.in as Test extends { in: infer I } ? I : never };
    if ('matches' in o) return { matches: String(o.matches) };
    if ('not' in o) return { not: toTest(o.not) };
  }
  return { eq: t as string | number | boolean | null };
}

/**
 * A stream event written as a chunk, `{ $chunk: <part> }` (perhaps with `$when`): its part, which
 * serve.chunk places where it reads `$body`; undefined for a whole event.
 */
export function chunkPart(node: TemplateNode): TemplateNode | undefined {
  return node.kind === 'object' ? node.entries.find(([k]) => k === '$chunk')?.[1] : undefined;
}

export function slotsOf(node: TemplateNode): Array<{ name: string; pointer: string }> {
  switch (node.kind) {
    case 'slot':
      return [{ name: node.name, pointer: node.pointer }];
    case 'concat':
      return node.parts.flatMap((p) => (typeof p === 'string' ? [] : [{ name: p.slot, pointer: p.pointer }]));
    case 'object': {
      const when = node.when ? (node.when.kind === 'set' ? slotsOf(node.when.slot) : node.when.tests.map((t) => ({ name: t.slot, pointer: t.pointer }))) : [];
      return [...when, ...node.entries.flatMap(([, v]) => slotsOf(v))];
    }
    case 'array':
      return node.items.flatMap(slotsOf);
    default:
      return [];
  }
}

/** Every malformed string in a template. */
export function badNodes(node: TemplateNode): Array<Extract<TemplateNode, { kind: 'bad' }>> {
  switch (node.kind) {
    case 'bad':
      return [node];
    case 'object':
      return [...(node.when?.kind === 'set' ? badNodes(node.when.slot) : []), ...node.entries.flatMap(([, v]) => badNodes(v))];
    case 'array':
      return node.items.flatMap(badNodes);
    default:
      return [];
  }
}
