/**
 * `$chunk` (docs/spec-language.md#chunk-events): a stream step's event written as its own part,
 * placed by serve.chunk where it reads `$body`. It is a whole event's only key (beside `$when`),
 * and needs a serve.chunk, the spec's or its base's.
 */
import { chunkPart, type TemplateNode } from '../../ir/templates.js';
import type { Finding, SemanticRule } from './rule.js';
import { templatesOf } from './template-slots.js';

export const serveChunk: SemanticRule = {
  name: 'serve-chunk',
  check(ir) {
    const out: Finding[] = [];
    const events = new Set(Object.values(ir.serve?.stream ?? {}).flat());
    for (const [node] of templatesOf(ir)) {
      if (!node) continue;
      const part = events.has(node) ? chunkPart(node) : undefined;
      if (part && node.kind === 'object') {
        const others = node.entries.filter(([k]) => k !== '$chunk').map(([k]) => k);
        if (others.length) out.push({ code: 'bad-value', pointer: node.pointer, message: `a $chunk event is only its part, but this one also writes ${others.join(', ')}`, hint: 'move those keys into the part, or into serve.chunk if every chunk carries them' });
        if (!ir.serve?.chunk) out.push({ code: 'missing-field', pointer: `${node.pointer}/$chunk`, message: '$chunk places its part in serve.chunk, and this spec (and its base) has none', hint: 'add serve.chunk: the event every chunk is, with $body where the part goes' });
      }
      for (const at of misplaced(node, part)) out.push({ code: 'bad-value', atKey: true, pointer: at, message: '$chunk is a stream event\'s only key, not a key inside a template', hint: 'write the step as { $chunk: <part> }' });
    }
    const chunk = ir.serve?.chunk;
    if (chunk && !slotsOfBody(chunk)) out.push({ code: 'bad-value', pointer: '/serve/chunk', message: 'serve.chunk does not place $body, so every chunk event would drop its part', hint: 'put $body where a step\'s part goes (a Chat chunk: choices: [{ delta: $body, … }])' });
    return out;
  },
};

/** Pointers of `$chunk` keys anywhere but as the whole event's key. */
function misplaced(node: TemplateNode, part: TemplateNode | undefined): string[] {
  const walk = (n: TemplateNode, top: boolean): string[] => {
    if (n.kind === 'array') return n.items.flatMap((i) => walk(i, false));
    if (n.kind !== 'object') return [];
    return n.entries.flatMap(([k, v]) => [...(k === '$chunk' && !(top && v === part) ? [`${n.pointer}/$chunk`] : []), ...walk(v, false)]);
  };
  return walk(node, true);
}

function slotsOfBody(n: TemplateNode): boolean {
  if (n.kind === 'slot') return n.name === 'body' || n.name.startsWith('body.');
  if (n.kind === 'object') return n.entries.some(([, v]) => slotsOfBody(v));
  if (n.kind === 'array') return n.items.some(slotsOfBody);
  return false;
}
