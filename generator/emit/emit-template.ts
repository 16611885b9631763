/** Template tree → TypeScript expression, with `$slots` replaced by their context expressions. */
import type { TemplateNode } from '../ir/templates.js';
import { key, lit } from './code.js';

export function templateExpr(node: TemplateNode, slots: Record<string, string>): string {
  switch (node.kind) {
    case 'slot': {
      const expr = slots[node.name];
      // Unknown slots are reported by the unknown-slot rule before emit; never reached on valid specs.
      if (expr === undefined) throw new Error(`unknown slot $${node.name}`);
      return node.fallback === undefined ? expr : `(${expr} ?? ${lit(node.fallback)})`;
    }
    case 'nothing':
      return 'undefined';
    case 'literal':
      return lit(node.value);
    case 'array': {
      const items = `[${node.items.map((i) => templateExpr(i, slots)).join(', ')}]`;
      // Items that can vanish (`$when`) are filtered out.
      return node.items.some((i) => i.kind === 'object' && i.when) ? `present(${items})` : items;
    }
    case 'object': {
      const body = node.entries.map(([k, v]) => `${key(k)}: ${templateExpr(v, slots)}`).join(', ');
      // Slots may be undefined; compact() leaves their keys out of the wire object.
      const obj = hasSlot(node) ? `compact({ ${body} })` : `{ ${body} }`;
      return node.when ? `(isEmpty(${templateExpr(node.when, slots)}) ? undefined : ${obj})` : obj;
    }
  }
}

function hasSlot(node: TemplateNode): boolean {
  if (node.kind === 'slot' || node.kind === 'nothing') return true;
  if (node.kind === 'object') return node.entries.some(([, v]) => hasSlot(v));
  if (node.kind === 'array') return node.items.some(hasSlot);
  return false;
}
