/**
 * The spec author's own sharing in request template data: a form that merges in a named map
 * (`<<: *detail`) is printed as a spread of one constant named for the anchor
 * (`{ type: 'reasoning.summary', ...detail }`), the map written once (docs/spec-language.md, "Shared keys").
 * Only where the spread gives the same object, key order included; anything else is written out.
 */
import { escapePointer } from '../ir/paths.js';
import type { SharedMap } from '../ir/types.js';
import { constant, IDENT, key } from './code.js';
import { deepEqual, valueExpr } from './emit-value.js';
import type { StatementStructures } from 'ts-morph';

/** Names a module declares itself (or may): an anchor named so is written out, not declared again. */
const TAKEN = new Set(['base', 'profile', 'request', 'codec', 'serve', 'adapter', 'placed', 'eventPlaced', 'sharedRules', 'responseRules', 'eventRules', 'eventCaseRules', 'responseSteps', 'eventSteps', 'readResponse', 'readEvent']);
const RESERVED = new Set(
  'await break case catch class const continue debugger default delete do else enum export extends false finally for function if implements import in instanceof interface let new null package private protected public return static super switch this throw true try typeof var void while with yield undefined NaN Infinity arguments eval'.split(' '),
);

export class SharedData {
  /** Anchor → its constant's value text, in the order first used. */
  private readonly used = new Map<string, string>();

  constructor(
    private readonly merges: ReadonlyMap<string, SharedMap[]> | undefined,
    private readonly kitNames: ReadonlySet<string>,
  ) {}

  /** `v` (template data at `pointer` of the spec) as an expression, spreading the named maps it merges in. */
  expr(v: unknown, pointer: string): string {
    if (!this.merges?.size) return valueExpr(v);
    if (Array.isArray(v)) return `[${v.map((x, i) => this.expr(x, `${pointer}/${i}`)).join(', ')}]`;
    if (typeof v !== 'object' || v === null) return valueExpr(v);
    const entries = Object.entries(v).filter(([, x]) => x !== undefined);
    if (!entries.length) return '{}';
    // The key each spread stands in place of, and how many keys it stands for.
    const spreads = new Map<string, { anchor: string; count: number }>();
    for (const m of this.merges.get(pointer) ?? []) {
      const first = this.spreadAt(entries, m);
      if (first === undefined || spreads.has(first)) continue;
      spreads.set(first, { anchor: m.anchor, count: Object.keys(m.value).length });
      this.used.set(m.anchor, valueExpr(m.value));
    }
    const out: string[] = [];
    for (let i = 0; i < entries.length; i++) {
      const [k, x] = entries[i]!;
      const spread = spreads.get(k);
      if (spread) {
        out.push(`...${spread.anchor}`);
        i += spread.count - 1;
        continue;
      }
      out.push(`${key(k)}: ${this.expr(x, `${pointer}/${escapePointer(k)}`)}`);
    }
    return `{ ${out.join(', ')} }`;
  }

  /** The constants that `code` (what the module prints of the expressions) spreads. */
  statements(code: string): StatementStructures[] {
    return [...this.used].filter(([name]) => new RegExp(`\\.\\.\\.${name.replace(/\$/g, '\\$')}(?![\\w$])`).test(code)).map(([name, text]) => constant(name, text, `\`${name}\`: the keys the spec's forms merge in (\`<<: *${name}\`), written once.`, false));
  }

  /**
   * The key the spread of `m` takes the place of: the named map's keys, all there with its values,
   * one after another in its order (so the spread makes the same object). Undefined when not.
   */
  private spreadAt(entries: Array<[string, unknown]>, m: SharedMap): string | undefined {
    const keys = Object.keys(m.value).filter((k) => m.value[k] !== undefined && m.value[k] !== '$nothing');
    if (!keys.length || keys.length !== Object.keys(m.value).length || !this.nameable(m)) return undefined;
    const at = entries.findIndex(([k]) => k === keys[0]);
    if (at < 0 || !keys.every((k, j) => entries[at + j]?.[0] === k && deepEqual(entries[at + j]![1], m.value[k]))) return undefined;
    return keys[0];
  }

  /** An anchor that can be a constant: an identifier nothing else in the module is, one value per name. */
  private nameable(m: SharedMap): boolean {
    if (!IDENT.test(m.anchor) || TAKEN.has(m.anchor) || RESERVED.has(m.anchor) || this.kitNames.has(m.anchor) || /^(Wire|read)[A-Z]/.test(m.anchor)) return false;
    const had = this.used.get(m.anchor);
    return had === undefined || had === valueExpr(m.value);
  }
}
