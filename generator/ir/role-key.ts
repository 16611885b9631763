/** The wire field that names a message's role: a key every role template sets to a literal. */
import type { TemplateNode } from './templates.js';

export function roleKey(roles: Array<TemplateNode | undefined>): string | undefined {
  const objects = roles.filter((r): r is Extract<TemplateNode, { kind: 'object' }> => r?.kind === 'object');
  if (objects.length === 0) return undefined;
  const literalKeys = (o: Extract<TemplateNode, { kind: 'object' }>) =>
    o.entries.filter(([, v]) => v.kind === 'literal' && typeof v.value === 'string').map(([k]) => k);
  return literalKeys(objects[0]!).find((k) => objects.every((o) => literalKeys(o).includes(k)));
}
