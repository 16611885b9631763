/**
 * The readers' part of a module: element readers both readers share, the rule tables, and
 * `readResponse` / `readEvent` (straight-line in a base, composed from the rule tables in an
 * overlay; an overlay with its base's readers re-exports the base's tables).
 */
import { StructureKind, type InterfaceDeclarationStructure, type StatementStructures } from 'ts-morph';
import type { Rule, SpecIR } from '../ir/types.js';
import type { Segment } from '../ir/paths.js';
import { nodeAt, type TypeNode } from '../ir/wire-types.js';
import { commentText, constant, key, lit } from './code.js';
import { emitReadEvent, emitReadersComposed, emitReadResponse, placements, readerScope, ruleMember, sameRule, sharedElementRules, type ReaderScope } from './emit-readers.js';
import { member } from './emit-value.js';
import { emitInterface, fieldsBeyond, typeOf, type TypeNames } from './emit-wire-types.js';

export interface ReaderPart {
  /** Element shapes both readers share, by the name of their interface (for the wire types). */
  names: TypeNames;
  statements: StatementStructures[];
  /** An overlay without named events: its codec runs its tables (`runRules`), no reader functions of its own. */
  inCodec?: boolean;
  /** The part of the payload each reader hands the rules both share (`runRules`' scope), as reads of `r` and `e`. */
  scope?: { response: string; event: string };
}

/** Where a reader reads the scope its table's shared rules take, as reads of `r` and `e`. */
export type ScopeReads = { response: string; event: string };

/**
 * The scope a module's readers hand its tables' rules: the one its own shared rules read, or its
 * base's (its tables hold the base's shared rules, which take it). An overlay's own rules share a
 * scope only where it is its base's, or its base has none.
 */
export function moduleScope(ir: SpecIR, base: SpecIR | undefined, inherited: ScopeReads | undefined): ScopeReads | undefined {
  if (!base || ir.stream.events.length || ir.stream.ignore.length) return inherited;
  const own = sharedScope(ir, base, ownRules(ir, base), new Map());
  if (!own || (inherited && (own.response !== inherited.response || own.event !== inherited.event))) return inherited;
  return { response: own.response, event: own.event };
}

export function readerPart(ir: SpecIR, base: SpecIR | undefined, baseRef: string | undefined, sameReaders: boolean, baseImport: string | undefined, inherited?: ScopeReads): ReaderPart {
  const names: TypeNames = new Map();
  if (sameReaders) {
    // The base's rules are this module's too, for an overlay of it to compose its readers from.
    return { names, statements: [{ kind: StructureKind.ExportDeclaration, moduleSpecifier: baseImport!, namedExports: tableNames(ir) }] };
  }
  const statements: StatementStructures[] = [];
  const hoisted = new Map<string, string>();
  // The rules this module writes itself: all of a base's; an overlay's added, placed or changed ones.
  const own = ownRules(ir, base);
  const types = ir.wire;
  // An overlay's rules both readers run, written once over the part of the payload they read.
  const mine = base && !ir.stream.events.length && !ir.stream.ignore.length ? sharedScope(ir, base, own, names) : undefined;
  // A scope other than the base's would leave the base's shared rules without theirs.
  const scope = mine && (!inherited || (mine.response === inherited.response && mine.event === inherited.event)) ? mine : undefined;
  if (mine && !scope) for (const [n] of [...names].filter(([, v]) => v === mine.type.name)) names.delete(n);
  if (scope) statements.push(scope.type, constant('sharedRules', scope.table, scope.doc, false));
  // Element code both readers share (`each` rules written once, e.g. with a YAML anchor): one
  // function and one element interface, when the element's shape is the same at every site.
  for (const shared of sharedElementRules(ir, (r) => own.has(r) && !scope?.rules.has(r.name))) {
    const nodes = shared.sites.map((site) => nodeAt(types[site.part], [...site.path.segments, 0]));
    const texts = new Set(nodes.map((n) => (n ? typeOf(n, 0, names) : '')));
    if (texts.size !== 1 || nodes.some((n) => n?.kind !== 'object')) continue;
    // One element of `parts` is a Part, of `details` a Detail.
    const stem = pascal(shared.rule.name).replace(/([^s])s$/, '$1');
    const typeName = `Wire${stem}`;
    if (statements.some((x) => 'name' in x && x.name === typeName)) continue;
    const where = `\`${commentText(shared.sites[0]!.path.text)}\` (rule "${commentText(shared.rule.name)}")`;
    statements.push(emitInterface(typeName, `One element of ${where}; \`read${stem}\` reads it for both readers.`, nodes[0]!, names));
    statements.push({
      kind: StructureKind.Function,
      name: `read${stem}`,
      parameters: [
        { name: 'a', type: 'TurnAssembler' },
        { name: 'x', type: typeName },
      ],
      returnType: 'void',
      statements: shared.body.join('\n'),
    });
    for (const n of nodes) names.set(n!, typeName);
    hoisted.set(shared.body.join('\n'), `read${stem}`);
  }

  statements.push(...ruleTableStatements(ir, base, own, baseRef, hoisted, scope?.rules));
  // Without named events an overlay's readers are its tables run in order, made in its codec.
  const reads = scope ? { response: scope.response, event: scope.event } : inherited;
  if (base && !ir.stream.events.length && !ir.stream.ignore.length) return { names, statements, inCodec: true, ...(reads ? { scope: reads } : {}) };
  const composed = base ? emitReadersComposed(ir, { events: 'eventCaseRules' }, reads) : undefined;
  statements.push({
    kind: StructureKind.Function,
    isExported: true,
    name: 'readResponse',
    docs: [composed ? 'Feeds a blocking response body to the assembler: each rule of `responseRules`, in order.' : 'Feeds a blocking response body to the assembler.'],
    parameters: [
      { name: 'a', type: 'TurnAssembler' },
      { name: 'r', type: 'WireResponse' },
    ],
    returnType: 'void',
    statements: composed?.readResponse ?? emitReadResponse(ir, hoisted),
  });
  statements.push({
    kind: StructureKind.Function,
    isExported: true,
    name: 'readEvent',
    docs: [composed ? 'Feeds one decoded stream event to the assembler: each rule of `eventRules`, in order.' : 'Feeds one decoded stream event to the assembler.'],
    parameters: [
      { name: 'a', type: 'TurnAssembler' },
      { name: 'e', type: 'WireEvent' },
      { name: 'event', type: 'string | undefined' },
    ],
    returnType: 'void',
    statements: composed?.readEvent ?? emitReadEvent(ir, hoisted),
  });
  return { names, statements };
}

/** The rules a module writes itself: every rule of a base; an overlay's added, placed with `before:` or changed. */
function ownRules(ir: SpecIR, base: SpecIR | undefined): Set<Rule> {
  const out = new Set<Rule>();
  const add = (rules: Rule[], was: Rule[] | undefined, scope: 'r' | 'e') => {
    for (const r of rules) if (!was || !sameRule(was, r, scope)) out.add(r);
  };
  add(ir.response, base?.response, 'r');
  add(ir.stream.all, base?.stream.all, 'e');
  for (const ev of ir.stream.events) add(ev.rules, base ? (base.stream.events.find((x) => x.name === ev.name)?.rules ?? []) : undefined, 'e');
  return out;
}

/** The rule tables a module exports: the response's, every event's (`*`) and, with named events, each event's. */
function tableNames(ir: SpecIR): string[] {
  return ir.stream.events.length ? ['eventCaseRules', 'eventRules', 'responseRules'] : ['eventRules', 'responseRules'];
}

/**
 * The rule tables: each rule of the module's own as a named function; an overlay's spread over
 * its base's (the base's own table where it adds nothing).
 */
function ruleTableStatements(ir: SpecIR, base: SpecIR | undefined, own: Set<Rule>, baseRef: string | undefined, hoisted: Map<string, string>, shared: ReadonlyMap<string, unknown> = new Map()): StatementStructures[] {
  // Rules both readers share are one table, spread into each reader's (first, so `ownOrder` lists them first).
  const members = (rules: Rule[], scope: 'r' | 'e') => [...(shared.size ? ['...sharedRules'] : []), ...rules.filter((r) => own.has(r) && !shared.has(r.name)).map((r) => ruleMember(r, scope, hoisted))];
  const table = (rules: Rule[], scope: 'r' | 'e', baseTable: string | undefined): string => {
    const mine = members(rules, scope);
    if (baseTable && !mine.length) return baseTable;
    return `{\n${[...(baseTable ? [`...${baseTable}`] : []), ...mine].map((m) => `${m},`).join('\n')}\n}`;
  };
  const ownOrder = (rules: Rule[]) => (shared.size ? [...shared.keys(), ...rules.filter((r) => own.has(r) && !shared.has(r.name)).map((r) => r.name)] : undefined);
  // A table a reader runs in its order: an overlay's is its base's, placed (runtime/assemble/place-rules.ts).
  const places: Array<{ name: string; value: string }> = [];
  const ordered = (rules: Rule[], scope: 'r' | 'e', baseRules: Rule[] | undefined, baseTable: string | undefined, placesName: string): string => {
    if (!baseRules || !baseTable) return table(rules, scope, undefined);
    const { before, dropped } = placements(rules, baseRules, own, ownOrder(rules));
    const from = dropped.length ? `/* @__PURE__ */ omit(${baseTable}, ${dropped.map(lit).join(', ')})` : baseTable;
    if (!Object.keys(before).length) return table(rules, scope, from);
    // The places as a constant of their own, so the call reads as base, places, rules.
    const value = lit(before);
    const same = places.find((p) => p.value === value);
    if (!same) places.push({ name: placesName, value });
    const mine = members(rules, scope);
    const object = mine.length === 1 && shared.size ? 'sharedRules' : `{\n${mine.map((m) => `${m},`).join('\n')}\n}`;
    return `/* @__PURE__ */ placeRules(${from}, ${same?.name ?? placesName}, ${object})`;
  };
  const response = ordered(ir.response, 'r', base?.response, base && `${baseRef}.responseRules`, 'placed');
  const event = ordered(ir.stream.all, 'e', base?.stream.all, base && `${baseRef}.eventRules`, 'eventPlaced');
  const out = places.map((p) =>
    constant(p.name, p.value, p.name === 'placed' ? 'Where this overlay runs its own rules: before the rule each names.' : 'Where this overlay runs its own rules in every event: before the rule each names.', false),
  );
  out.push(
    constant('responseRules', response, 'The response rules by name, in the order they run (each reads the whole body).'),
    constant('eventRules', event, 'The rules every stream event goes through, by name, in the order they run.'),
  );
  if (ir.stream.events.length) {
    const baseCases = base?.stream.events.length ? `${baseRef}.eventCaseRules` : undefined;
    const cases = ir.stream.events
      .filter((ev) => !base || ev.rules.some((r) => own.has(r)))
      .map((ev) => `${key(ev.name)}: ${table(ev.rules, 'e', base?.stream.events.some((x) => x.name === ev.name) ? member(baseCases!, ev.name) : undefined)}`);
    const expr = baseCases && !cases.length ? baseCases : `{ ${[...(baseCases ? [`...${baseCases}`] : []), ...cases].join(', ')} }`;
    out.push(constant('eventCaseRules', expr, 'The rules of each named stream event, by event and name.'));
  }
  if (base && (ir.stream.events.length || ir.stream.ignore.length)) {
    // Each reader runs its table's rules, in order, as a list made once.
    if (ir.response.length) out.push(constant('responseSteps', '/* @__PURE__ */ Object.values(responseRules)', undefined, false));
    if (ir.stream.all.length) out.push(constant('eventSteps', '/* @__PURE__ */ Object.values(eventRules)', undefined, false));
  }
  return out;
}

/**
 * The rules an overlay shares between its readers (emit-readers.ts `readerScope`), with the
 * interface of the scope they read: its fields they read, when a body's and an event's are the
 * same; printed by name in the wire types too where it is all the overlay adds there.
 */
function sharedScope(ir: SpecIR, base: SpecIR, own: Set<Rule>, names: TypeNames): (ReaderScope & { type: InterfaceDeclarationStructure; table: string; doc: string }) | undefined {
  const scope = readerScope(ir, own);
  // As with shared element code, three lines or more: less is shorter written twice than a scope's interface.
  if (!scope || [...scope.rules.values()].flat().length < 3) return undefined;
  const code = [...scope.rules.values()].flat().join('\n');
  // Only reads of the scope's own fields (`m?.reasoning`), so its interface can name them.
  if (/\bm\b(?!\?\.[A-Za-z_$])/.test(code)) return undefined;
  const fields = new Set([...code.matchAll(/\bm\?\.([A-Za-z_$][\w$]*)/g)].map((m) => m[1]!));
  const at = (root: TypeNode, path: Segment[]): TypeNode | undefined => {
    const n = nodeAt(root, path);
    return n?.kind === 'object' ? { ...n, props: new Map([...n.props].filter(([k]) => fields.has(k))) } : undefined;
  };
  const r = at(ir.wire.response, scope.responsePath);
  const e = at(ir.wire.event, scope.eventPath);
  if (!r || !e || typeOf(r, 0, names) !== typeOf(e, 0, names)) return undefined;
  // The rules keep their places only if listing the shared ones first does not move them.
  try {
    const order = (rules: Rule[]) => [...scope.rules.keys(), ...rules.filter((x) => own.has(x) && !scope.rules.has(x.name)).map((x) => x.name)];
    placements(ir.response, base.response, own, order(ir.response));
    placements(ir.stream.all, base.stream.all, own, order(ir.stream.all));
  } catch {
    return undefined;
  }
  const last = [...scope.responsePath].reverse().find((s): s is string => typeof s === 'string') ?? 'scope';
  const typeName = `Wire${pascal(last).replace(/([^s])s$/, '$1')}`;
  if (['WireResponse', 'WireEvent', 'WireUsage'].includes(typeName)) return undefined;
  const where = (p: Segment[]) => `\`${commentText(p.join('.'))}\``;
  const type = emitInterface(typeName, `${where(scope.responsePath)} of a body, ${where(scope.eventPath)} of an event: what \`sharedRules\` read.`, r, names);
  // Where this is all the overlay adds at the scope, the wire types print it by this name.
  const added = (root: TypeNode, baseRoot: TypeNode, path: Segment[]) => {
    const n = nodeAt(root, path);
    const b = nodeAt(baseRoot, path);
    const extra = n && (b ? fieldsBeyond(n, b) : n);
    return n && extra && typeOf(extra, 0) === typeOf(r, 0) ? n : undefined;
  };
  const rn = added(ir.wire.response, base.wire.response, scope.responsePath);
  const en = added(ir.wire.event, base.wire.event, scope.eventPath);
  if (rn && en) (names.set(rn, typeName), names.set(en, typeName));
  const members = [...scope.rules].map(([name, body]) => [`${key(name)}(a: TurnAssembler, _: unknown, m?: ${typeName} | null): void {`, ...body.map((l) => (l ? `  ${l}` : l)), '}'].join('\n'));
  return {
    ...scope,
    type,
    table: `{\n${members.map((m) => `${m},`).join('\n')}\n}`,
    doc: `The rules both readers run, on the part of the payload each hands them (\`m\`, a ${typeName}).`,
  };
}

function pascal(name: string): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const out = words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
  return /^[A-Za-z]/.test(out) ? out : `Rule${out}`;
}

