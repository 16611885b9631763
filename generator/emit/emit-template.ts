/** Template tree → TypeScript expression, with `$slots` replaced by their context expressions. */
import type { TemplateNode, TemplateWhen } from '../ir/templates.js';
import { key, lit } from './code.js';
import { testCode } from './emit-test.js';

/** Slot name → expression: a table, or a function for contexts with dotted slots (serve). */
export type SlotExprs = Readonly<Record<string, string>> | ((name: string) => string | undefined);

export function templateExpr(node: TemplateNode, slots: SlotExprs): string {
  const slot = (name: string) => slotExpr(name, slots);
  switch (node.kind) {
    case 'slot':
      return node.fallback === undefined ? slot(node.name) : `(${slot(node.name)} ?? ${lit(node.fallback)})`;
    case 'nothing':
      return 'undefined';
    case 'literal':
      return lit(node.value);
    case 'concat': {
      // Undefined when any slot is: a half-built string is never sent.
      const values = node.parts.filter((p) => typeof p !== 'string').map((p) => slot((p as { slot: string }).slot));
      const text = node.parts.map((p) => (typeof p === 'string' ? lit(p) : `String(${slot(p.slot)})`)).join(' + ');
      return values.length ? `(${values.map((v) => `${v} === undefined`).join(' || ')} ? undefined : ${text})` : text;
    }
    case 'array': {
      const items = `[${node.items.map((i) => templateExpr(i, slots)).join(', ')}]`;
      // Items that can vanish (`$when`) are filtered out.
      return node.items.some((i) => i.kind === 'object' && i.when) ? `present(${items})` : items;
    }
    case 'object': {
      // `$spread: $slot` merges the object the slot holds into this one (keys after it win).
      const body = node.entries.map(([k, v]) => (k === '$spread' ? `...${templateExpr(v, slots)}` : `${key(k)}: ${templateExpr(v, slots)}`)).join(', ');
      // An object of slots that may all be undefined is itself undefined (compact()), so its
      // parent leaves it out; one with an entry that is always set never is.
      const obj = hasSlot(node) && !node.entries.some(([k, v]) => k !== '$spread' && alwaysSet(v)) ? `compact({ ${body} })` : `{ ${body} }`;
      return node.when ? `(${whenExpr(node.when, slots)} ? ${obj} : undefined)` : obj;
    }
    case 'bad':
      throw new Error(`malformed template at ${node.pointer}`);
  }
}

/** A `$when` condition as an expression. */
export function whenExpr(when: TemplateWhen, slots: SlotExprs): string {
  if (when.kind === 'set') return `!isEmpty(${templateExpr(when.slot, slots)})`;
  return when.tests.map((t) => testCode(t.test, slotExpr(t.slot, slots))).join(' && ');
}

function slotExpr(name: string, slots: SlotExprs): string {
  const expr = typeof slots === 'function' ? slots(name) : slots[name];
  // Unknown slots and malformed strings are reported before emit; never reached on valid specs.
  if (expr === undefined) throw new Error(`unknown slot $${name}`);
  return expr;
}

/** The node's value is never undefined: a literal, a slot with a default, an array, an object that is always sent. */
function alwaysSet(node: TemplateNode): boolean {
  switch (node.kind) {
    case 'literal':
    case 'array':
      return true;
    case 'slot':
      return node.fallback !== undefined;
    case 'object':
      return !node.when && (!hasSlot(node) || node.entries.some(([, v]) => alwaysSet(v)));
    default:
      return false;
  }
}

function hasSlot(node: TemplateNode): boolean {
  if (node.kind === 'slot' || node.kind === 'nothing' || node.kind === 'concat') return true;
  if (node.kind === 'object') return node.entries.some(([, v]) => hasSlot(v));
  if (node.kind === 'array') return node.items.some(hasSlot);
  return false;
}
