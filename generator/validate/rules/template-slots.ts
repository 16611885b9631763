/** Every `$slot` in a template must be one its context offers. */
import { didYouMean } from '../../diagnostics.js';
import { SLOTS, type SlotContext } from '../../ir/slots.js';
import { slotsOf, type TemplateNode } from '../../ir/templates.js';
import type { SpecIR } from '../../ir/types.js';
import type { Finding, SemanticRule } from './rule.js';

function templates(ir: SpecIR): Array<[TemplateNode | undefined, SlotContext]> {
  const rq = ir.request;
  const m = rq.messages;
  return [
    [m.roles.system, 'roles.system'],
    [m.roles.user, 'roles.user'],
    [m.roles.assistant, 'roles.assistant'],
    [m.roles.tool, 'roles.tool'],
    [m.roles.toolError, 'roles.tool'],
    [m.parts.text, 'parts.text'],
    [m.parts.imageUrl, 'parts.imageUrl'],
    [m.parts.imageData, 'parts.imageData'],
    [m.blocks.thinking, 'blocks.thinking'],
    [m.blocks.summaryThinking, 'blocks.summaryThinking'],
    [m.blocks.redactedThinking, 'blocks.redactedThinking'],
    [m.blocks.text, 'blocks.text'],
    [m.blocks.toolCall, 'blocks.toolCall'],
    [rq.system.template, 'system.template'],
    [rq.tools?.item, 'tools.item'],
    [rq.tools?.wrap, 'tools.wrap'],
    [rq.toolChoice?.auto, 'toolChoice'],
    [rq.toolChoice?.none, 'toolChoice'],
    [rq.toolChoice?.required, 'toolChoice'],
    [rq.toolChoice?.named, 'toolChoice'],
    [rq.responseFormat?.text, 'responseFormat'],
    [rq.responseFormat?.json, 'responseFormat'],
    [rq.responseFormat?.jsonSchema, 'responseFormat'],
    ...rq.params.map((p): [TemplateNode | undefined, SlotContext] => [p.kind === 'map' ? p.template : undefined, 'param.template']),
  ];
}

export const templateSlots: SemanticRule = {
  name: 'template-slots',
  check(_spec, ir) {
    const out: Finding[] = [];
    for (const [node, ctx] of templates(ir)) {
      if (!node) continue;
      const offered = Object.keys(SLOTS[ctx]);
      for (const slot of slotsOf(node)) {
        if (offered.includes(slot.name)) continue;
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
