/** Every template string is well formed: slots, defaults and `${…}` interpolations. */
import { badNodes } from '../../ir/templates.js';
import type { Finding, SemanticRule } from './rule.js';
import { templatesOf } from './template-slots.js';

export const templateSyntax: SemanticRule = {
  name: 'template-syntax',
  check(ir) {
    const out: Finding[] = [];
    for (const [node] of templatesOf(ir)) {
      if (!node) continue;
      for (const bad of badNodes(node)) out.push({ code: 'bad-template', pointer: bad.pointer, message: bad.message, hint: bad.hint });
    }
    return out;
  },
};
