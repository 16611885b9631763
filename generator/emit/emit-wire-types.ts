/** Wire shapes (from ir/wire-types) → TypeScript interfaces. Every field is optional: wire data may omit it. */
import { StructureKind, type InterfaceDeclarationStructure, type TypeAliasDeclarationStructure } from 'ts-morph';
import type { SpecIR } from '../ir/types.js';
import type { TypeNode } from '../ir/wire-types.js';
import { commentText, key } from './code.js';

/**
 * Object shapes printed as a reference to an interface of that name (an element shape both
 * readers share): the emitter's own names for nodes of the IR's wire types, which stay as built.
 */
export type TypeNames = Map<TypeNode, string>;
const NO_NAMES: TypeNames = new Map();

export function emitInterface(name: string, doc: string, node: TypeNode, names: TypeNames = NO_NAMES): InterfaceDeclarationStructure {
  const props = node.kind === 'object' ? [...node.props] : [];
  return {
    kind: StructureKind.Interface,
    name,
    isExported: true,
    docs: [doc],
    properties: props.map(([k, v]) => ({ kind: StructureKind.PropertySignature, name: key(k), hasQuestionToken: true, type: typeOf(v, 1, names) })),
    ...(props.length ? {} : { indexSignatures: [{ kind: StructureKind.IndexSignature, keyName: 'key', keyType: 'string', returnType: 'unknown' }] }),
  };
}

/** On one line: prettier lays it out by width (it keeps an object type expanded only when told to). */
function objectType(node: TypeNode, depth: number, names: TypeNames): string {
  if (node.kind !== 'object' || node.props.size === 0) return '{ [key: string]: unknown }';
  const fields = [...node.props].map(([k, v]) => `${key(k)}?: ${typeOf(v, depth + 1, names)};`);
  return `{ ${fields.join(' ')} }`;
}

export function typeOf(node: TypeNode, depth: number, names: TypeNames = NO_NAMES): string {
  switch (node.kind) {
    case 'object':
      return `${names.get(node) ?? objectType(node, depth, names)} | null`;
    case 'array':
      return `Array<${typeOf(node.element, depth, names).replace(/ \| null$/, '')}>${node.orString ? ' | string' : ''} | null`;
    case 'leaf':
      if (node.leaf === 'usage') return 'WireUsage | null';
      return node.leaf === 'unknown' ? 'unknown' : `${node.leaf} | null`;
  }
}

/**
 * An overlay's wire type: its base's, with only the fields the overlay's own rules add
 * (`openaiChat.WireEvent & { x_groq?: … }`), or the base's itself when it adds none.
 */
export function emitWireTypeOver(name: string, doc: string, node: TypeNode, base: TypeNode, baseRef: string, names: TypeNames = NO_NAMES): TypeAliasDeclarationStructure {
  const extra = fieldsBeyond(node, base, names);
  const type = extra ? `${baseRef}.${name} & ${objectType(extra, 0, names)}` : `${baseRef}.${name}`;
  return { kind: StructureKind.TypeAlias, name, isExported: true, docs: [doc], type };
}

/** The fields of `node` that `base` does not have (undefined when none). */
export function fieldsBeyond(node: TypeNode, base: TypeNode, names: TypeNames = NO_NAMES): TypeNode | undefined {
  if (node.kind === 'array' && base.kind === 'array') {
    const element = fieldsBeyond(node.element, base.element, names);
    return element ? { ...node, element } : undefined;
  }
  // A field the base reads as some value and this spec reads inside: this spec's shape, whole.
  if (base.kind === 'leaf' && base.leaf === 'unknown' && node.kind !== 'leaf') return node;
  if (node.kind !== 'object' || base.kind !== 'object') return undefined;
  const props = new Map<string, TypeNode>();
  for (const [k, v] of node.props) {
    const b = base.props.get(k);
    const extra = b === undefined ? v : fieldsBeyond(v, b, names);
    if (extra) props.set(k, extra);
  }
  if (!props.size) return undefined;
  // The part of a named shape is printed by its name still.
  const out = { ...node, props };
  const name = names.get(node);
  if (name !== undefined && names !== NO_NAMES) names.set(out, name);
  return out;
}

/** Whether a shape refers to the usage type anywhere inside. */
export function mentionsUsage(node: TypeNode | undefined): boolean {
  if (!node) return false;
  if (node.kind === 'leaf') return node.leaf === 'usage';
  if (node.kind === 'array') return mentionsUsage(node.element);
  return [...node.props.values()].some(mentionsUsage);
}

/** The wire types' part of a module: WireResponse, WireEvent and WireUsage (an overlay's over its base's). */
export function wireTypeStatements(ir: SpecIR, base: SpecIR | undefined, baseRef: string | undefined, names: TypeNames): Array<InterfaceDeclarationStructure | TypeAliasDeclarationStructure> {
  const types = ir.wire;
  const baseTypes = base?.wire;
  const name = commentText(ir.profile.name);
  const docs: Array<[string, 'response' | 'event' | 'usage', string]> = [
    ['WireResponse', 'response', `A blocking ${name} response body, as far as this adapter reads it.`],
    ['WireEvent', 'event', `One ${name} stream event payload, as far as this adapter reads it.`],
    ['WireUsage', 'usage', 'The usage object of the wire.'],
  ];
  const out: Array<InterfaceDeclarationStructure | TypeAliasDeclarationStructure> = [];
  for (const [typeName, part, doc] of docs) {
    if (!baseTypes) {
      out.push(emitInterface(typeName, doc, types[part], names));
      continue;
    }
    // An overlay's usage type that is its base's, and that none of its own fields name, is left out.
    const ownFields = (p: 'response' | 'event') => fieldsBeyond(types[p], baseTypes[p], names);
    if (part === 'usage' && !fieldsBeyond(types.usage, baseTypes.usage, names) && !mentionsUsage(ownFields('response')) && !mentionsUsage(ownFields('event'))) continue;
    out.push(emitWireTypeOver(typeName, doc, types[part], baseTypes[part], baseRef!, names));
  }
  return out;
}
