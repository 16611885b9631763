/**
 * Templates: a JSON value in the spec that is written to the wire, with `$slot` strings standing
 * for values of the request. Parsed once into a small tree the emitter walks.
 */

export type TemplateNode =
  | { kind: 'slot'; name: string; pointer: string }
  | { kind: 'nothing' }
  | { kind: 'literal'; value: string | number | boolean | null }
  | { kind: 'object'; entries: Array<[string, TemplateNode]> }
  | { kind: 'array'; items: TemplateNode[] };

export function parseTemplate(value: unknown, pointer: string): TemplateNode {
  if (typeof value === 'string') {
    if (value === '$nothing') return { kind: 'nothing' };
    if (value.startsWith('$$')) return { kind: 'literal', value: value.slice(1) };
    if (value.startsWith('$')) return { kind: 'slot', name: value.slice(1), pointer };
    return { kind: 'literal', value };
  }
  if (Array.isArray(value)) return { kind: 'array', items: value.map((v, i) => parseTemplate(v, `${pointer}/${i}`)) };
  if (value !== null && typeof value === 'object') {
    return {
      kind: 'object',
      entries: Object.entries(value).map(([k, v]) => [k, parseTemplate(v, `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`)]),
    };
  }
  return { kind: 'literal', value: value as string | number | boolean | null };
}

export function slotsOf(node: TemplateNode): Array<{ name: string; pointer: string }> {
  switch (node.kind) {
    case 'slot':
      return [{ name: node.name, pointer: node.pointer }];
    case 'object':
      return node.entries.flatMap(([, v]) => slotsOf(v));
    case 'array':
      return node.items.flatMap(slotsOf);
    default:
      return [];
  }
}
