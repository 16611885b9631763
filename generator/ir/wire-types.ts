/**
 * The wire shapes a spec reads, derived from every path its rules use: the emitter prints them
 * as typed interfaces, and the path-conflict rule reports paths that contradict each other
 * (a field read as text in one rule and as an object in another cannot exist).
 */
import type { Segment, WirePath } from './paths.js';
import type { Test, UsageCount } from '../../runtime/contract/profile.js';
import type { Leaf, PathConflict, Rule, SpecIR, TypeNode, WireTypes } from './types.js';

export type { Leaf, PathConflict, TypeNode, WireTypes } from './types.js';


export function buildWireTypes(ir: Pick<SpecIR, 'response' | 'stream' | 'profile'>): WireTypes {
  const conflicts: PathConflict[] = [];
  const root = (): TypeNode => ({ kind: 'object', props: new Map(), firstPointer: '' });
  const response = root();
  const event = root();
  const usage = root();

  const add = (scope: TypeNode, segments: Segment[], leaf: Leaf | 'array' | 'object', pointer: string, text: string): TypeNode => {
    let node = scope;
    for (let i = 0; i < segments.length; i++) {
      const s = segments[i]!;
      const last = i === segments.length - 1;
      const want: TypeNode['kind'] = typeof s === 'number' ? 'array' : 'object';
      if (node.kind === 'leaf') {
        if (node.leaf === 'usage') return node;
        conflicts.push({ pointer, message: `path "${text}" reads into ${segments.slice(0, i).join('.')}, which ${node.firstPointer} reads as a ${node.leaf}` });
        return node;
      }
      if (node.kind !== want) {
        conflicts.push({ pointer, message: `path "${text}" uses ${segments.slice(0, i).join('.') || 'the payload'} as ${want === 'array' ? 'an array' : 'an object'}, but ${node.firstPointer} uses it as ${node.kind === 'array' ? 'an array' : 'an object'}` });
        return node;
      }
      let next: TypeNode | undefined;
      if (node.kind === 'array') next = node.element;
      else next = node.props.get(s as string);
      const childKind = last ? leaf : typeof segments[i + 1] === 'number' ? 'array' : 'object';
      if (!next) {
        next = make(childKind, pointer);
        if (node.kind === 'array') node.element = next;
        else node.props.set(s as string, next);
      } else if (last || (next.kind === 'leaf' && (next.leaf === 'unknown' || (next.leaf === 'string' && childKind === 'array')))) {
        // A field seen only as "some value" so far takes the shape this path gives it.
        next = unify(next, childKind, pointer, text, conflicts);
        if (node.kind === 'array') node.element = next;
        else node.props.set(s as string, next);
      }
      node = next;
    }
    return node;
  };

  const walk = (rules: Rule[], scope: TypeNode): void => {
    for (const r of rules) {
      for (const c of r.when) {
        const leaf: Leaf = literalLeaf(sample(c.test));
        add(scope, c.path.segments, leaf, `${r.pointer}/when`, c.path.text);
      }
      let inner = scope;
      if (r.each) {
        const arr = add(scope, [...r.each.segments, 0], 'object', `${r.pointer}/each`, `${r.each.text}[]`);
        inner = arr;
      }
      const use = (p: WirePath | undefined, leaf: Leaf, field: string) => p && add(inner, p.segments, leaf, `${r.pointer}/${field}`, p.text);
      if (r.body.kind === 'group') walk(r.body.rules, inner);
      else if (r.body.kind === 'switch') {
        use(r.body.on, 'string', 'switch');
        for (const c of r.body.cases) walk(c.rules, inner);
      } else {
        const a = r.body.action;
        switch (a.kind) {
          case 'meta':
            a.id.forEach((p) => use(p, 'string', 'meta/id'));
            a.model.forEach((p) => use(p, 'string', 'meta/model'));
            break;
          case 'text':
            a.paths.forEach((p) => use(p, 'string', a.kind));
            use(a.citations, 'unknown', 'text/citations');
            use(a.signature, 'string', 'text/signature');
            use(a.phase, 'string', 'text/phase');
            use(a.id, 'string', 'text/id');
            break;
          case 'refusal':
            a.paths.forEach((p) => use(p, 'string', a.kind));
            break;
          case 'part':
            use(a.kindAt, 'string', 'part/kindAt');
            use(a.at, 'unknown', 'part/at');
            use(a.open, 'unknown', 'part/open');
            use(a.delta, 'unknown', 'part/delta');
            break;
          case 'thinking':
            a.text.forEach((p) => use(p, 'string', 'thinking/text'));
            use(a.signature, 'string', 'thinking/signature');
            use(a.redacted, 'string', 'thinking/redacted');
            use(a.id, 'string', 'thinking/id');
            use(a.index, 'unknown', 'thinking/index');
            use(a.format, 'string', 'thinking/format');
            use(a.summary, 'string', 'thinking/summary');
            break;
          case 'toolCall':
            use(a.index, 'unknown', 'toolCall/index');
            use(a.id, 'string', 'toolCall/id');
            use(a.name, 'string', 'toolCall/name');
            use(a.arguments, 'string', 'toolCall/arguments');
            use(a.argumentsFull, 'string', 'toolCall/argumentsFull');
            use(a.argumentsObject, 'unknown', 'toolCall/argumentsObject');
            use(a.signature, 'string', 'toolCall/signature');
            use(a.wire, 'unknown', 'toolCall/wire');
            use(a.continues, 'boolean', 'toolCall/continues');
            if (a.pieces) {
              const pc = a.pieces;
              const piece = add(inner, [...pc.each.segments, 0], 'object', `${r.pointer}/toolCall/pieces/each`, `${pc.each.text}[]`);
              const usePiece = (p: WirePath | undefined, leaf: Leaf, field: string) => p && add(piece, p.segments, leaf, `${r.pointer}/toolCall/pieces/${field}`, p.text);
              usePiece(pc.path, 'string', 'path');
              usePiece(pc.continues, 'boolean', 'continues');
              usePiece(pc.string, 'string', 'string');
              usePiece(pc.number, 'number', 'number');
              usePiece(pc.boolean, 'boolean', 'boolean');
              usePiece(pc.null, 'unknown', 'null');
            }
            break;
          case 'finish':
            a.paths.forEach((p) => use(p, 'string', 'finish'));
            break;
          case 'usage':
            // The payload itself as usage (`$`) adds no shape of its own.
            a.paths.forEach((p) => p.segments.length && use(p, 'usage', 'usage'));
            break;
          case 'error':
            use(a.at, 'unknown', 'error/at');
            [...a.message, ...a.type, ...a.code].forEach((p) => use(p, 'unknown', 'error'));
            break;
          case 'end':
            break;
        }
      }
    }
  };

  walk(ir.response, response);
  walk(ir.stream.all, event);
  for (const e of ir.stream.events) walk(e.rules, event);
  if (ir.stream.eventKey) add(event, ir.stream.eventKey.segments, 'string', '/stream/eventKey', ir.stream.eventKey.text);
  const { otherModels, ...counts } = ir.profile.usage;
  for (const [field, count] of Object.entries(counts)) {
    const c = count as UsageCount;
    if (!('over' in c)) for (const p of c as Segment[][]) add(usage, p, 'number', `/usage/${field}`, p.join('.'));
    else {
      const step = add(usage, [...(c.over as Segment[]), 0], 'object', `/usage/${field}/over`, `${c.over.join('.')}[]`);
      for (const p of c.sum as Segment[][]) add(step, p, 'number', `/usage/${field}/sum`, p.join('.'));
      for (const p of c.otherwise as Segment[][]) add(usage, p, 'number', `/usage/${field}/otherwise`, p.join('.'));
      if (c.only) add(step, c.only.at as Segment[], 'unknown', `/usage/${field}/only/at`, c.only.at.join('.'));
    }
  }
  if (otherModels) {
    const step = add(usage, [...(otherModels.over as Segment[]), 0], 'object', '/usage/otherModels/over', `${otherModels.over.join('.')}[]`);
    add(step, otherModels.kind as Segment[], 'string', '/usage/otherModels/kind', otherModels.kind.join('.'));
    add(step, otherModels.model as Segment[], 'string', '/usage/otherModels/model', otherModels.model.join('.'));
  }
  return { response, event, usage, conflicts };
}

function make(kind: Leaf | 'array' | 'object', pointer: string): TypeNode {
  if (kind === 'object') return { kind: 'object', props: new Map(), firstPointer: pointer };
  if (kind === 'array') return { kind: 'array', element: { kind: 'leaf', leaf: 'unknown', firstPointer: pointer }, firstPointer: pointer };
  return { kind: 'leaf', leaf: kind, firstPointer: pointer };
}

function unify(node: TypeNode, kind: Leaf | 'array' | 'object', pointer: string, text: string, conflicts: PathConflict[]): TypeNode {
  if (kind === 'unknown') return node;
  // A string read as text by one rule and iterated by another is a union (text or chunks).
  if (node.kind === 'leaf' && node.leaf === 'string' && kind === 'array') return { ...(make('array', node.firstPointer) as Extract<TypeNode, { kind: 'array' }>), orString: true };
  if (node.kind === 'array' && kind === 'string') {
    node.orString = true;
    return node;
  }
  if (node.kind === 'leaf') {
    if (node.leaf === 'unknown') return make(kind, node.firstPointer);
    if (node.leaf === kind || kind === 'usage') return node;
    if (node.leaf === 'usage' && kind === 'object') return node;
    conflicts.push({ pointer, message: `path "${text}" reads a ${kind}, but ${node.firstPointer} reads the same field as a ${node.leaf}` });
    return node;
  }
  if (kind === node.kind || kind === 'usage') return node;
  if (node.kind === 'array' && kind !== 'object') {
    conflicts.push({ pointer, message: `path "${text}" reads a ${kind}, but ${node.firstPointer} iterates the same field as an array` });
  } else if (node.kind === 'object' && kind !== 'array' && kind !== 'object') {
    conflicts.push({ pointer, message: `path "${text}" reads a ${kind}, but ${node.firstPointer} reads fields inside it` });
  } else if (kind !== node.kind) {
    conflicts.push({ pointer, message: `path "${text}" uses the field as ${kind === 'array' ? 'an array' : 'an object'}, but ${node.firstPointer} uses it as ${node.kind === 'array' ? 'an array' : 'an object'}` });
  }
  return node;
}

/** A value the test compares with, for the field's type (none for exists and matches). */
function sample(t: Test): unknown {
  if ('eq' in t) return t.eq;
  if ('in' in t) return t.in[0];
  if ('matches' in t) return '';
  if ('not' in t) return sample(t.not);
  return undefined;
}

function literalLeaf(v: unknown): Leaf {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'boolean';
  return 'unknown';
}

/** The node at these segments (a number steps into an array's element), if the shape has one. */
export function nodeAt(root: TypeNode, segments: readonly Segment[]): TypeNode | undefined {
  let node: TypeNode | undefined = root;
  for (const s of segments) {
    if (!node) return undefined;
    if (typeof s === 'number') node = node.kind === 'array' ? node.element : undefined;
    else node = node.kind === 'object' ? node.props.get(s) : undefined;
  }
  return node;
}
