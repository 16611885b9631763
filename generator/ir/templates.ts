/**
 * Templates: a JSON value in the spec that is written to the wire, with `$slot` strings standing
 * for values of the request. Parsed once into a small tree the emitter walks.
 */

export type TemplateNode =
  /** `$name`, or `$name|<JSON default>` used when the value is undefined or null. */
  | { kind: 'slot'; name: string; pointer: string; fallback?: string | number | boolean | null }
  | { kind: 'nothing' }
  | { kind: 'literal'; value: string | number | boolean | null }
  /** `$when: $slot` makes the whole object disappear when that value is empty (undefined, '', []). */
  | { kind: 'object'; entries: Array<[string, TemplateNode]>; when?: TemplateNode }
  | { kind: 'array'; items: TemplateNode[] };

export function parseTemplate(value: unknown, pointer: string): TemplateNode {
  if (typeof value === 'string') {
    if (value === '$nothing') return { kind: 'nothing' };
    if (value.startsWith('$$')) return { kind: 'literal', value: value.slice(1) };
    if (value.startsWith('$')) {
      const bar = value.indexOf('|');
      if (bar < 0) return { kind: 'slot', name: value.slice(1), pointer };
      return { kind: 'slot', name: value.slice(1, bar), pointer, fallback: JSON.parse(value.slice(bar + 1)) as string | number | boolean | null };
    }
    return { kind: 'literal', value };
  }
  if (Array.isArray(value)) return { kind: 'array', items: value.map((v, i) => parseTemplate(v, `${pointer}/${i}`)) };
  if (value !== null && typeof value === 'object') {
    const esc = (k: string) => `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    const entries = Object.entries(value).filter(([k]) => k !== '$when');
    const when = (value as Record<string, unknown>).$when;
    return {
      kind: 'object',
      entries: entries.map(([k, v]) => [k, parseTemplate(v, esc(k))]),
      ...(when === undefined ? {} : { when: parseTemplate(when, esc('$when')) }),
    };
  }
  return { kind: 'literal', value: value as string | number | boolean | null };
}

export function slotsOf(node: TemplateNode): Array<{ name: string; pointer: string }> {
  switch (node.kind) {
    case 'slot':
      return [{ name: node.name, pointer: node.pointer }];
    case 'object':
      return [...(node.when ? slotsOf(node.when) : []), ...node.entries.flatMap(([, v]) => slotsOf(v))];
    case 'array':
      return node.items.flatMap(slotsOf);
    default:
      return [];
  }
}
