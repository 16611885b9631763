/** Wire shapes (from ir/wire-types) → TypeScript interfaces. Every field is optional: wire data may omit it. */
import type { TypeNode } from '../ir/wire-types.js';
import { key } from './code.js';

export function emitInterface(name: string, doc: string, node: TypeNode): string {
  return `/** ${doc} */\nexport interface ${name} ${objectType(node, 0)}`;
}

function objectType(node: TypeNode, depth: number): string {
  if (node.kind !== 'object' || node.props.size === 0) return '{ [key: string]: unknown }';
  const pad = '  '.repeat(depth + 1);
  const lines = [...node.props].map(([k, v]) => `${pad}${key(k)}?: ${typeOf(v, depth + 1)};`);
  return `{\n${lines.join('\n')}\n${'  '.repeat(depth)}}`;
}

function typeOf(node: TypeNode, depth: number): string {
  switch (node.kind) {
    case 'object':
      return `${objectType(node, depth)} | null`;
    case 'array':
      return `Array<${typeOf(node.element, depth).replace(/ \| null$/, '')}> | null`;
    case 'leaf':
      if (node.leaf === 'usage') return 'WireUsage | null';
      return node.leaf === 'unknown' ? 'unknown' : `${node.leaf} | null`;
  }
}
