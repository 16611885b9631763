/** Every `$slot` in a template must be one its context offers. */
import { didYouMean } from '../../diagnostics.js';
import { OBJECT_SLOTS, SLOTS, slotRoot, type SlotContext } from '../../ir/slots.js';
import { slotsOf, type TemplateNode } from '../../ir/templates.js';
import { BLOCK_KEYS, FORMAT_KEYS, PART_KEYS, TOOL_CHOICE_KEYS, type SpecIR } from '../../ir/types.js';
import type { Finding, SemanticRule } from './rule.js';

export function templatesOf(ir: SpecIR): Array<[TemplateNode | undefined, SlotContext]> {
  const t = ir.templates;
  return [
    [t.roles.system, 'roles.system'],
    [t.roles.user, 'roles.user'],
    [t.roles.assistant, 'roles.assistant'],
    [t.roles.tool, 'roles.tool'],
    [t.roles.toolError, 'roles.tool'],
    ...PART_KEYS.map((k): [TemplateNode | undefined, SlotContext] => [t.parts[k], `parts.${k}`]),
    ...BLOCK_KEYS.map((k): [TemplateNode | undefined, SlotContext] => [t.blocks[k], `blocks.${k}`]),
    [t.system, 'system.template'],
    [t.tools?.item, 'tools.item'],
    [t.tools?.wrap, 'tools.wrap'],
    ...TOOL_CHOICE_KEYS.map((k): [TemplateNode | undefined, SlotContext] => [t.toolChoice[k], 'toolChoice']),
    ...FORMAT_KEYS.map((k): [TemplateNode | undefined, SlotContext] => [t.responseFormat[k], 'responseFormat']),
    ...Object.values(t.params).map((n): [TemplateNode | undefined, SlotContext] => [n, 'param.template']),
    [ir.serve?.response, 'serve.response'],
    [ir.serve?.envelope, 'serve.step'],
    [ir.serve?.chunk, 'serve.chunk'],
    ...Object.values(ir.serve?.stream ?? {}).flatMap((events) => events.map((n): [TemplateNode, SlotContext] => [n, 'serve.step'])),
    [ir.serve?.error, 'serve.error'],
  ];
}

export const templateSlots: SemanticRule = {
  name: 'template-slots',
  check(ir) {
    const out: Finding[] = [];
    for (const [node, ctx] of templatesOf(ir)) {
      if (!node) continue;
      const offered = SLOTS[ctx];
      for (const slot of slotsOf(node)) {
        // `$json.<slot>` (serve templates) reads the slot after it, as JSON text.
        const name = ctx.startsWith('serve.') && slot.name.startsWith('json.') ? slot.name.slice('json.'.length) : slot.name;
        const root = slotRoot(name, ctx);
        if (offered.includes(root) && (root === name || OBJECT_SLOTS.includes(root))) continue;
        out.push({
          code: 'unknown-slot',
          pointer: slot.pointer,
          message: `$${slot.name} is not a slot of ${ctx}`,
          hint: didYouMean(slot.name, offered)?.replace('"', '"$') ?? `slots here: ${offered.map((s) => `$${s}`).join(', ') || 'none'}`,
        });
      }
    }
    return out;
  },
};
