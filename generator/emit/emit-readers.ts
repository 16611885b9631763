/**
 * Response and stream rules → straight-line reader functions: one call per action (on the
 * assembler, on one of its units — `a.thinking`, `a.parts` — or, for what only some wires do
 * (tool calls that arrive in pieces, text blocks, text signatures and phases, usage in pieces),
 * a kit function given the assembler), a `switch` per event type and per `switch:` rule, a
 * for-of per `each:`.
 */
import type { Segment } from '../ir/paths.js';
import type { Action, Condition, Rule, SpecIR } from '../ir/types.js';
import { access, commentText, firstOf, key, lit } from './code.js';
import { member } from './emit-value.js';
import { testCode } from './emit-test.js';

/** The kinds of action the spec's readers take, over every rule of the response and the stream. */
export function actionKinds(ir: SpecIR): Set<Action['kind'] | 'textMeta'> {
  const out = new Set<Action['kind'] | 'textMeta'>();
  const walk = (rules: Rule[]): void => {
    for (const r of rules) {
      if (r.body.kind === 'action') {
        const a = r.body.action;
        out.add(a.kind);
        // Text rules that read a signature or a phase need the TextMeta unit.
        if (a.kind === 'text' && (a.signature || a.phase || a.id)) out.add('textMeta');
      }
      else if (r.body.kind === 'group') walk(r.body.rules);
      else for (const c of r.body.cases) walk(c.rules);
    }
  };
  walk(ir.response);
  walk(ir.stream.all);
  for (const ev of ir.stream.events) walk(ev.rules);
  return out;
}

/** The statements of `readResponse(a, r)`. */
export function emitReadResponse(ir: SpecIR, hoisted: Hoisted = NONE): string {
  const lines = rulesCode(ir.response, 'r', 0, hoisted, 2);
  return (lines.length ? hoistFirst(lines, 'r') : ['void a;', 'void r;']).join('\n');
}

/** The statements of `readEvent(a, e, event)`. */
export function emitReadEvent(ir: SpecIR, hoisted: Hoisted = NONE): string {
  const lines: string[] = [];
  const { stream } = ir;
  lines.push(...rulesCode(stream.all, 'e', 0, hoisted, 2));
  if (stream.events.length || stream.ignore.length) {
    const on = stream.eventKey ? `${access('e', stream.eventKey)} ?? event` : 'event';
    lines.push(`switch (${on}) {`);
    for (const ev of stream.events) {
      lines.push(`  case ${lit(ev.name)}: {`);
      lines.push(...indent(rulesCode(ev.rules, 'e', 0, hoisted, 6), 4));
      lines.push('    break;', '  }');
    }
    for (const name of stream.ignore) if (!stream.events.some((e) => e.name === name)) lines.push(`  case ${lit(name)}:`);
    if (stream.ignore.length) lines.push('    break;');
    lines.push('  default:', '    // Events this spec does not name carry nothing it needs.', '    break;', '}');
  }
  return (lines.length ? hoistFirst(lines, 'e') : ['void a;', 'void e;', 'void event;']).join('\n');
}

const RESERVED = new Set(
  'a r e x event arguments eval undefined NaN Infinity break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with let static yield await implements interface package private protected public'.split(' '),
);

/**
 * The first element of a wire list that several statements read (`r?.choices?.[0]`), read once
 * into a const named after it (`const choice = r?.choices?.[0];`): shorter readers, the same
 * reads (wire data is plain JSON). Skipped where the name would clash with one the code uses.
 */
export function hoistFirst(lines: string[], scope: 'r' | 'e'): string[] {
  let body = lines.join('\n');
  const first = new RegExp(`\\b${scope}\\?\\.([a-z][A-Za-z0-9_]*)\\?\\.\\[0\\]`, 'g');
  const counts = new Map<string, number>();
  for (const m of body.matchAll(first)) counts.set(m[1]!, (counts.get(m[1]!) ?? 0) + 1);
  const consts: string[] = [];
  for (const [list, n] of counts) {
    const name = list.replace(/([^s])s$/, '$1');
    if (n < 3 || name === list || RESERVED.has(name) || new RegExp(`\\b${name}\\b`).test(body)) continue;
    const read = `${scope}?.${list}?.[0]`;
    body = body.replace(new RegExp(`\\b${scope}\\?\\.${list}\\?\\.\\[0\\]`, 'g'), name);
    consts.push(`const ${name} = ${read};`);
    // And an object of that element that several read (`choice?.delta`), named as its field.
    const inner = new Map<string, number>();
    for (const m of body.matchAll(new RegExp(`\\b${name}\\?\\.([a-z][A-Za-z0-9_]*)\\?\\.`, 'g'))) inner.set(m[1]!, (inner.get(m[1]!) ?? 0) + 1);
    for (const [field, k] of inner) {
      const reads = new RegExp(`\\b${name}\\?\\.${field}\\?\\.`, 'g');
      if (k < 3 || RESERVED.has(field) || new RegExp(`\\b${field}\\b`).test(body.replace(reads, ''))) continue;
      body = body.replace(reads, `${field}?.`);
      consts.push(`const ${field} = ${name}?.${field};`);
    }
  }
  // And a top-level object several statements read (`e?.error?.message`, `e?.error?.type`), named as its field.
  const top = new Map<string, number>();
  for (const m of body.matchAll(new RegExp(`\\b${scope}\\?\\.([a-z][A-Za-z0-9_]*)\\?\\.`, 'g'))) top.set(m[1]!, (top.get(m[1]!) ?? 0) + 1);
  for (const [field, k] of top) {
    const reads = new RegExp(`\\b${scope}\\?\\.${field}\\b(?!\\s*=)`, 'g');
    if (k < 3 || RESERVED.has(field) || new RegExp(`\\b${field}\\b`).test(body.replace(reads, ''))) continue;
    body = body.replace(reads, field);
    consts.push(`const ${field} = ${scope}?.${field};`);
  }
  return consts.length ? [...consts, ...body.split('\n')] : lines;
}

/**
 * Every named top-level rule of a section as a function over the payload, so an overlay's
 * readers (generated later, perhaps in another project) can call the base's rules by name and
 * splice their own between them. A module's own readers stay straight-line; the tables are
 * exports a bundle drops unless an overlay calls them.
 */
export interface RuleTables {
  response: Rule[];
  /** Rules run on every event (`*`). */
  all: Rule[];
  /** Rules of each named event. */
  events: Array<{ name: string; rules: Rule[] }>;
}

export function ruleTables(ir: SpecIR): RuleTables {
  return { response: ir.response, all: ir.stream.all, events: ir.stream.events };
}

/** A rule's body as a table member: `name(a: TurnAssembler, r: WireResponse): void { … }`. */
export function ruleMember(r: Rule, scope: 'r' | 'e', hoisted: Hoisted = NONE): string {
  const code = ruleCode(r, scope, 0, hoisted, 4);
  // The member's name is the rule's: its comment line says it again.
  const body = code[0] === `// ${commentText(r.name)}` ? code.slice(1) : code;
  const payload = scope === 'r' ? 'r: WireResponse' : 'e: WireEvent';
  return [`${key(r.name)}(a: TurnAssembler, ${payload}): void {`, ...indent(hoistFirst(body, scope)), '}'].join('\n');
}

/** Whether an overlay's rule is its base's own: the same name and the same code. */
export function sameRule(base: Rule[], r: Rule, scope: 'r' | 'e'): boolean {
  const was = base.find((b) => b.name === r.name);
  return was !== undefined && ruleCode(was, scope, 0).join('\n') === ruleCode(r, scope, 0).join('\n');
}

/**
 * An overlay's readers composed from its rule tables: every rule of the response table, or of
 * the every-event table, in the table's order (`placeRules` orders it: the base's, with the
 * overlay's own placed by name); named events keep a `switch`, each case calling its rules by name.
 */
export function emitReadersComposed(ir: SpecIR, tables: { events: string }, scope?: { response: string; event: string }): { readResponse: string; readEvent: string } {
  // Rules a base shares between its readers take the scope each reader reads (emit-reader-part.ts).
  const m = scope ? ', m' : '';
  const calls = (rules: Rule[], table: string) => rules.map((r) => `${member(table, r.name)}(a, e${m});`);
  const response = ir.response.length ? [...(scope ? [`const m = ${scope.response};`] : []), `for (const rule of responseSteps) rule(a, r${m});`] : [];
  const event = ir.stream.all.length || ir.stream.events.length ? [...(scope ? [`const m = ${scope.event};`] : [])] : [];
  if (ir.stream.all.length) event.push(`for (const rule of eventSteps) rule(a, e${m});`);
  const { stream } = ir;
  if (stream.events.length || stream.ignore.length) {
    const on = stream.eventKey ? `${access('e', stream.eventKey)} ?? event` : 'event';
    event.push(`switch (${on}) {`);
    for (const ev of stream.events) {
      event.push(`  case ${lit(ev.name)}:`, ...indent(calls(ev.rules, member(tables.events, ev.name)), 4), '    break;');
    }
    for (const name of stream.ignore) if (!stream.events.some((e) => e.name === name)) event.push(`  case ${lit(name)}:`);
    if (stream.ignore.length) event.push('    break;');
    event.push('  default:', '    break;', '}');
  }
  return {
    readResponse: (response.length ? response : ['void a;', 'void r;']).join('\n'),
    readEvent: (event.length ? event : ['void a;', 'void e;', 'void event;']).join('\n'),
  };
}

/**
 * Where an overlay's own rules go in its base's order, for `placeRules`: each rule the base does
 * not have, and each it moves, before the next rule that keeps its base place (none: at the end);
 * and the base's rules the overlay leaves out.
 */
export function placements(rules: Rule[], base: Rule[], own: Set<Rule>, ownOrder?: string[]): { before: Record<string, string>; dropped: string[] } {
  const names = rules.map((r) => r.name);
  const baseNames = base.map((r) => r.name);
  // The base's rules that keep their place: the longest run of them the overlay keeps in the base's order.
  const stays = new Set(longestCommon(baseNames, names));
  const before: Record<string, string> = {};
  rules.forEach((r, i) => {
    if (stays.has(r.name)) return;
    const next = names.slice(i + 1).find((n) => stays.has(n));
    if (next !== undefined) before[r.name] = next;
  });
  const dropped = baseNames.filter((n) => !names.includes(n));
  // What placeRules will make of it (runtime/assemble/place-rules.ts); a rule moved to the end has no anchor.
  const placed = baseNames.filter((n) => !dropped.includes(n) && !(n in before));
  // The overlay's own rules in the order its table object lists them (`ownOrder`: shared ones first).
  for (const n of [...Object.keys(before), ...(ownOrder ?? rules.filter((r) => own.has(r)).map((r) => r.name))]) {
    if (placed.includes(n)) continue;
    const at = n in before ? placed.indexOf(before[n]!) : -1;
    placed.splice(at < 0 ? placed.length : at, 0, n);
  }
  if (placed.join('\n') !== names.join('\n')) throw new Error(`cannot place rules ${JSON.stringify(names)} over ${JSON.stringify(baseNames)}`);
  return { before, dropped };
}

/** The longest common subsequence of two short name lists. */
function longestCommon(a: string[], b: string[]): string[] {
  const t = a.map(() => b.map(() => 0));
  const at = (i: number, j: number) => (i < a.length && j < b.length ? t[i]![j]! : 0);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) t[i]![j] = a[i] === b[j] ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1));
  }
  const out: string[] = [];
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    if (a[i] === b[j]) (out.push(a[i]!), i++, j++);
    else if (at(i + 1, j) >= at(i, j + 1)) i++;
    else j++;
  }
  return out;
}

/**
 * The part of the payload an overlay's rules read in both readers, and the rules written once over
 * it: pairs of own rules of one name whose code is the same once the body's read (`r?.choices?.[0]?.message`)
 * and the event's (`e?.choices?.[0]?.delta`) are each the scope `m`, and read nothing else of the payload.
 */
export interface ReaderScope {
  /** The scope as a read of `r` and of `e`. */
  response: string;
  event: string;
  responsePath: Segment[];
  eventPath: Segment[];
  /** Shared rule name → its statements over `a` and `m`, in the response table's order. */
  rules: Map<string, string[]>;
}

export function readerScope(ir: SpecIR, own: Set<Rule>): ReaderScope | undefined {
  const pairs: Array<{ name: string; r: string[]; e: string[] }> = [];
  for (const r of ir.response) {
    const e = ir.stream.all.find((x) => x.name === r.name);
    if (own.has(r) && e && own.has(e)) pairs.push({ name: r.name, r: ruleCode(r, 'r', 0, NONE, 4), e: ruleCode(e, 'e', 0, NONE, 4) });
  }
  // Each pair's scopes (a read of r, a read of e); the one most pairs share, the widest (shortest read) of those.
  const counts = new Map<string, number>();
  const fits = pairs.map((p) => {
    const ok = new Set<string>();
    for (const pr of reads(p.r.join('\n'), 'r')) for (const pe of reads(p.e.join('\n'), 'e')) if (over(p.r, pr) === over(p.e, pe) && !/\b[re]\b/.test(over(p.r, pr))) ok.add(`${pr} ${pe}`);
    for (const k of ok) counts.set(k, (counts.get(k) ?? 0) + 1);
    return ok;
  });
  const best = [...counts].sort((x, y) => y[1] - x[1] || x[0].length - y[0].length)[0]?.[0];
  if (best === undefined) return undefined;
  const [response, event] = best.split(' ') as [string, string];
  const rules = new Map<string, string[]>();
  pairs.forEach((p, i) => {
    if (!fits[i]!.has(best)) return;
    // The member's name is the rule's: its comment line says it again.
    const code = p.r[0] === `// ${commentText(p.name)}` ? p.r.slice(1) : p.r;
    rules.set(p.name, over(code, response).split('\n'));
  });
  return { response, event, responsePath: segmentsOf(response), eventPath: segmentsOf(event), rules };
}

const READ = /(?:\?\.[A-Za-z_$][\w$]*|\?\.\[\d+\])/g;

/** Every read of `v` the code makes, and each read's shorter prefixes: `r?.choices`, `r?.choices?.[0]`, …. */
function reads(code: string, v: 'r' | 'e'): Set<string> {
  const out = new Set<string>();
  for (const m of code.matchAll(new RegExp(`\\b${v}((?:\\?\\.[A-Za-z_$][\\w$]*|\\?\\.\\[\\d+\\])+)`, 'g'))) {
    let at = v as string;
    for (const seg of m[1]!.match(READ)!) out.add((at += seg));
  }
  return out;
}

/** The code with a read replaced by the scope `m`. */
function over(code: string[], read: string): string {
  return code.join('\n').replace(new RegExp(`${read.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w$])`, 'g'), 'm');
}

function segmentsOf(read: string): Segment[] {
  return (read.match(READ) ?? []).map((s) => (s.startsWith('?.[') ? Number(s.slice(3, -1)) : s.slice(2)));
}

/** An `each` rule whose per-element code is the same in the body reader and the stream reader. */
export interface SharedElementRule {
  rule: Rule;
  /** The element code, as a statement list over `a` and `x`. */
  body: string[];
  /** The array each reader iterates, from its payload. */
  sites: Array<{ part: 'response' | 'event'; path: Rule['each'] & object }>;
}

/** Top-level `each` rules whose element code (three lines or more) both readers share. */
export function sharedElementRules(ir: SpecIR, keep: (r: Rule) => boolean = () => true): SharedElementRule[] {
  const seen = new Map<string, SharedElementRule>();
  const visit = (rules: Rule[], part: 'response' | 'event') => {
    for (const r of rules) {
      if (!r.each || !keep(r)) continue;
      const body = bodyOf(r, 'x', 0, NONE, 2);
      if (body.length < 3) continue;
      const key = body.join('\n');
      const hit = seen.get(key) ?? { rule: r, body, sites: [] };
      hit.sites.push({ part, path: r.each });
      seen.set(key, hit);
    }
  };
  visit(ir.response, 'response');
  visit(ir.stream.all, 'event');
  for (const e of ir.stream.events) visit(e.rules, 'event');
  return [...seen.values()].filter((s) => s.sites.some((x) => x.part === 'response') && s.sites.some((x) => x.part === 'event'));
}

function indent(lines: string[], n = 2): string[] {
  const pad = ' '.repeat(n);
  return lines.map((l) => (l ? pad + l : l));
}

/** Element readers emitted once and called from both readers: body text → function name. */
export type Hoisted = ReadonlyMap<string, string>;
const NONE: Hoisted = new Map();

/** `pad`: the columns the lines will stand at in the function, so a one-line `if` is kept only where it fits. */
function rulesCode(rules: Rule[], scope: string, depth: number, hoisted: Hoisted = NONE, pad = 2): string[] {
  return rules.flatMap((r) => ruleCode(r, scope, depth, hoisted, pad));
}

/** What a rule does to one element (or to the payload, without `each`). */
function bodyOf(r: Rule, inner: string, depth: number, hoisted: Hoisted, pad: number): string[] {
  if (r.body.kind === 'group') return rulesCode(r.body.rules, inner, depth + 1, hoisted, pad);
  if (r.body.kind === 'switch') {
    const body = [`switch (${access(inner, r.body.on)}) {`];
    // `*` is every value no other case names (the kind table takes the rest).
    for (const c of r.body.cases) {
      body.push(c.value === '*' ? '  default:' : `  case ${lit(c.value)}:`, ...indent(rulesCode(c.rules, inner, depth + 1, hoisted, pad + 4), 4), '    break;');
    }
    body.push('}');
    return body;
  }
  return actionCode(r.body.action, inner);
}

function ruleCode(r: Rule, scope: string, depth: number, hoisted: Hoisted = NONE, pad = 2): string[] {
  const elementVar = depth === 0 ? 'x' : `x${depth + 1}`;
  let body = bodyOf(r, r.each ? elementVar : scope, depth, hoisted, pad + (r.each ? 2 : 0) + (r.when.length ? 2 : 0));
  const fn = r.each && depth === 0 ? hoisted.get(body.join('\n')) : undefined;
  if (r.each) body = fn ? [`for (const x of list(${access(scope, r.each)})) ${fn}(a, x);`] : [`for (const ${elementVar} of list(${access(scope, r.each)})) {`, ...indent(body), '}'];
  if (r.when.length) {
    const cond = `if (${r.when.map((c) => conditionCode(c, scope)).join(' && ')})`;
    // One statement needs no block (the runtime's own style); more get braces.
    const line = `${cond} ${body[0]}`;
    body = body.length === 1 && body[0]!.endsWith(';') && pad + line.length <= 110 ? [line] : [`${cond} {`, ...indent(body), '}'];
  }
  // A rule named after its own action, or read by a function named after it, needs no comment;
  // other names are the spec's words for it.
  if (fn || (r.body.kind === 'action' && r.body.action.kind === r.name)) return body;
  // Rule names come from the spec: a comment line may not end early or hide code.
  return [`// ${commentText(r.name)}`, ...body];
}

function conditionCode(c: Condition, scope: string): string {
  return testCode(c.test, access(scope, c.path));
}

function actionCode(a: Action, s: string): string[] {
  const p = (path: Parameters<typeof access>[1] | undefined) => (path ? access(s, path) : 'undefined');
  switch (a.kind) {
    case 'meta':
      return [`a.setMeta(${firstOf(s, a.id)}, ${firstOf(s, a.model)});`];
    case 'text': {
      const out: string[] = [];
      // A phase starts a new item: null (no phase on the wire) clears the one before.
      // An item id (Responses `msg_…`) goes with the item's first text part.
      if (a.start) out.push(a.phase || a.id ? `startText(a, ${a.phase ? `${p(a.phase)} ?? null` : 'undefined'}${a.id ? `, ${p(a.id)}` : ''});` : 'startText(a);');
      // The signature first: a signed wire part is a text part of its own.
      if (a.signature) out.push(`setTextSignature(a, ${p(a.signature)});`);
      if (a.paths.length) out.push(`a.appendText(${firstOf(s, a.paths)});`);
      if (a.citations) out.push(`a.addCitations(${p(a.citations)});`);
      return out;
    }
    case 'part': {
      const object = a.at ? p(a.at) : s;
      const kind = a.name !== undefined ? lit(a.name) : p(a.kindAt);
      if (a.delta) return [`a.parts.applyDelta(${p(a.open)}, ${p(a.delta)});`];
      if (a.open) return [`a.parts.openBlock(${p(a.open)}, ${kind}, ${object});`];
      return [`a.parts.add(${kind}, ${object});`];
    }
    case 'refusal':
      return [`a.appendRefusal(${firstOf(s, a.paths)});`];
    case 'thinking': {
      const out: string[] = [];
      if (a.index) out.push(`a.thinking.select(${p(a.index)});`);
      if (a.start) out.push(`a.thinking.start(${p(a.id)});`);
      else if (a.id) out.push(`a.thinking.setId(${p(a.id)});`);
      if (a.break !== undefined) out.push(`a.thinking.breakText(${lit(a.break)});`);
      if (a.redacted) out.push(`a.thinking.setRedacted(${p(a.redacted)});`);
      if (a.text.length) out.push(`a.thinking.append(${firstOf(s, a.text)});`);
      if (a.summary) out.push(`a.thinking.appendSummary(${p(a.summary)});`);
      if (a.signature) out.push(`a.thinking.setSignature(${p(a.signature)});`);
      if (a.format) out.push(`a.thinking.setFormat(${p(a.format)});`);
      return out;
    }
    case 'toolCall': {
      const k = p(a.index);
      if (a.complete && (a.pieces || a.continues)) {
        // A call that may arrive whole, or over several parts with its arguments in JSON-path pieces.
        const args = a.argumentsObject ?? a.argumentsFull ?? a.arguments;
        const more = p(a.continues);
        const pc = a.pieces;
        const q = (path: Parameters<typeof access>[1] | undefined) => (path ? access('piece', path) : 'undefined');
        const open = `piecedToolCall(a, ${p(a.id)}, ${p(a.name)}, ${p(args)}, ${p(a.signature)}, ${more}, ${pc ? access(s, pc.each) : 'undefined'})`;
        return [
          `if (${open}) {`,
          ...(pc
            ? [
                `  for (const piece of list(${access(s, pc.each)})) {`,
                `    argumentPiece(a, ${q(pc.path)}, ${q(pc.continues)}, ${q(pc.string)}, ${q(pc.number)}, ${q(pc.boolean)}, ${q(pc.null)});`,
                '  }',
              ]
            : []),
          `  endPieces(a, ${more});`,
          '}',
        ];
      }
      if (a.complete) {
        const args = a.argumentsObject ?? a.argumentsFull ?? a.arguments;
        const extra = a.signature ? `, ${k}, ${p(a.signature)}` : a.index ? `, ${k}` : '';
        return [`a.addToolCall(${p(a.id)}, ${p(a.name)}, ${p(args)}${extra});`];
      }
      const out: string[] = [];
      if (a.start) {
        // With `start`, an arguments object is what the opening event already holds (used when no fragment follows).
        out.push(`openToolCall(a, ${k}, ${p(a.id)}, ${p(a.name)}${a.argumentsObject ? `, ${p(a.argumentsObject)}` : ''});`);
        if (a.arguments) out.push(`appendToolArguments(a, ${k}, ${p(a.arguments)});`);
      } else if (a.arguments || a.id || a.name) {
        out.push(`toolCallDelta(a, ${k}, ${p(a.id)}, ${p(a.name)}, ${p(a.arguments)});`);
      }
      if (a.argumentsFull) out.push(`setToolArguments(a, ${k}, ${p(a.argumentsFull)});`);
      if (a.argumentsObject && !a.start) out.push(`setToolArgumentsObject(a, ${k}, ${p(a.argumentsObject)});`);
      if (a.signature) out.push(`setToolSignature(a, ${k}, ${p(a.signature)});`);
      if (a.wire) out.push(`setToolWire(a, ${k}, ${p(a.wire)});`);
      if (a.end) out.push(`closeToolCall(a, ${k});`);
      return out;
    }
    case 'finish':
      return [`a.setFinishReason(${firstOf(s, a.paths)});`];
    case 'usage':
      return [a.merge ? `mergeUsage(a, ${firstOf(s, a.paths)});` : `a.setUsage(${firstOf(s, a.paths)});`];
    case 'error': {
      const fail = `a.fail(${strings(s, a.message)}, ${strings(s, a.type)}, ${strings(s, a.code)}, ${s});`;
      return a.at ? [`if (${p(a.at)} != null) {`, `  ${fail}`, '}'] : [fail];
    }
    case 'end':
      return ['a.end();'];
  }
}

/** The first string among several paths, or `undefined` when the spec names none. */
function strings(scope: string, paths: Parameters<typeof access>[1][]): string {
  return paths.length ? `firstString(${paths.map((p) => access(scope, p)).join(', ')})` : 'undefined';
}
