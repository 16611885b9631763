/**
 * YAML text → plain JSON value plus a map from JSON pointer to source position, so every later
 * stage can point at file:line:col. Syntax errors and duplicate keys become diagnostics.
 */
import { isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import type { Diagnostic } from '../diagnostics.js';

export interface Position {
  line: number;
  col: number;
}

export interface ParsedSpec {
  file: string;
  /** The document as plain data (undefined when it could not be parsed). */
  doc: unknown;
  /** Position of each value, and of each key under `pointer + '#key'`. */
  positions: Map<string, Position>;
  diagnostics: Diagnostic[];
  /**
   * The named maps a map merges in (`<<: *detail`, or `<<: &detail {…}` where it is defined), by
   * the pointer of the map: the author's own sharing, which a module may print once (emit-shared.ts).
   */
  merges?: Map<string, SharedMap[]>;
}

/** A map a spec names with an anchor and merges into others. */
export interface SharedMap {
  anchor: string;
  value: Record<string, unknown>;
}

export function escapePointer(segment: string | number): string {
  return String(segment).replace(/~/g, '~0').replace(/\//g, '~1');
}

export function parseSpec(file: string, text: string): ParsedSpec {
  const lineCounter = new LineCounter();
  // Merge keys (<<) let a spec reuse one rule set, e.g. the same rules for a body and a stream chunk.
  const document = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false, merge: true });
  const positions = new Map<string, Position>();
  const diagnostics: Diagnostic[] = [];
  const at = (offset: number): Position => {
    const p = lineCounter.linePos(offset);
    return { line: p.line, col: p.col };
  };

  // After the first syntax error the parser's later complaints are mostly echoes of it.
  const errors = document.errors.filter((e, i) => i === 0 || e.code === 'DUPLICATE_KEY');
  for (const error of errors) {
    const pos = at(error.pos[0]);
    const duplicate = error.code === 'DUPLICATE_KEY';
    diagnostics.push({
      code: duplicate ? 'duplicate-key' : 'yaml-syntax',
      message: duplicate ? 'Duplicate key: a later value would silently replace an earlier one' : firstLine(error.message),
      file,
      ...pos,
      pointer: '',
      hint: duplicate ? 'remove or rename one of them' : undefined,
    });
  }
  if (diagnostics.length > 0) return { file, doc: undefined, positions, diagnostics };

  const merges = new Map<string, SharedMap[]>();
  const walk = (node: Node | null | undefined, pointer: string): void => {
    if (!node) return;
    if (node.range) positions.set(pointer, at(node.range[0]));
    if (isMap(node)) {
      for (const pair of node.items) {
        if (isScalar(pair.key) && typeof pair.key.value === 'symbol') {
          const shared = sharedMaps(document, pair.value as Node | null);
          if (shared.length) merges.set(pointer, shared);
        }
        const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
        const child = `${pointer}/${escapePointer(key)}`;
        if (isScalar(pair.key) && pair.key.range) positions.set(`${child}#key`, at(pair.key.range[0]));
        walk(pair.value as Node | null, child);
        if (!positions.has(child) && positions.has(`${child}#key`)) positions.set(child, positions.get(`${child}#key`)!);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => walk(item as Node, `${pointer}/${i}`));
    }
  };
  // The document first: its alias limit stops a hostile spec (aliases of aliases, each expanded)
  // before any named map is read on its own.
  let doc: unknown;
  try {
    doc = document.toJS({ maxAliasCount: 100 });
  } catch {
    diagnostics.push({ code: 'too-many-aliases', message: 'Aliases expand to too much data (more than 100 uses of one anchor, counting nested ones)', file, line: 1, col: 1, pointer: '', hint: 'write the repeated part out, or alias it fewer times' });
    return { file, doc: undefined, positions, diagnostics };
  }
  walk(document.contents as Node, '');
  return { file, doc, positions, diagnostics, ...(merges.size ? { merges } : {}) };
}

/** What a merge key's value merges in that has a name: an alias, an anchored map, or a list of them. */
function sharedMaps(document: Document, value: Node | null): SharedMap[] {
  const sources = isSeq(value) ? (value.items as Node[]) : value ? [value] : [];
  const out: SharedMap[] = [];
  for (const source of sources) {
    const anchor = isAlias(source) ? source.source : source.anchor;
    const target = isAlias(source) ? source.resolve(document) : source;
    if (anchor && isMap(target)) out.push({ anchor, value: target.toJS(document, { maxAliasCount: 100 }) as Record<string, unknown> });
  }
  return out;
}

/** The position of a pointer, or of its nearest ancestor that has one. */
export function positionOf(spec: ParsedSpec, pointer: string, preferKey = false): Position {
  let p = pointer;
  for (;;) {
    const hit = (preferKey && spec.positions.get(`${p}#key`)) || spec.positions.get(p);
    if (hit) return hit;
    if (p === '') return { line: 1, col: 1 };
    p = p.slice(0, p.lastIndexOf('/'));
  }
}

function firstLine(message: string): string {
  return message.split('\n')[0]!.trim();
}
