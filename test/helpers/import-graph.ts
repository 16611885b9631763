/**
 * The import graph of a folder tree, read with the TypeScript compiler's own pre-parser (every
 * `import`, `import type`, `export … from` and `import('literal')`), relative specifiers only:
 * packages and node: built-ins are not part of the house.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** Repo-relative path (runtime/adapter.ts) → the repo-relative files it imports. */
export type ImportGraph = Map<string, string[]>;

function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...tsFiles(p));
    else if (e.name.endsWith('.ts')) out.push(p);
  }
  return out;
}

/** A specifier as written (`./codec.js`) → the .ts file it names, relative to root. */
function target(root: string, from: string, spec: string): string {
  const abs = resolve(dirname(join(root, from)), spec);
  return relative(root, abs.replace(/\.js$/, '.ts')).split('\\').join('/');
}

export function importGraph(root: string, folders: readonly string[]): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const folder of folders) {
    for (const abs of tsFiles(join(root, folder)).sort()) {
      const file = relative(root, abs).split('\\').join('/');
      const info = ts.preProcessFile(readFileSync(abs, 'utf8'), true, true);
      const deps = info.importedFiles.map((f) => f.fileName).filter((s) => s.startsWith('.'));
      graph.set(file, [...new Set(deps.map((s) => target(root, file, s)))].sort());
    }
  }
  return graph;
}

/** Strongly connected components of more than one file (or a file importing itself): the circles. */
export function circles(graph: ImportGraph): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || graph.get(v)!.includes(v)) out.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return out;
}

/** One way round a circle, as `a → b → a`: the shortest path from its first file back to it. */
export function circlePath(graph: ImportGraph, scc: readonly string[]): string {
  const inside = new Set(scc);
  const start = scc[0]!;
  const parent = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (!inside.has(w)) continue;
      if (w === start) {
        const path = [start];
        for (let x = v; x !== start; x = parent.get(x)!) path.splice(1, 0, x);
        return [...path, start].join(' → ');
      }
      if (!parent.has(w) && w !== start) {
        parent.set(w, v);
        queue.push(w);
      }
    }
  }
  return scc.join(', ');
}

/**
 * The floor a file stands on: its folder for a file in a folder (`runtime/request`), the file
 * itself for one at the top of a tree of floors (`runtime/adapter.ts`), the tree for a flat tree
 * (`node`) and for anything outside the trees read (`generated`).
 */
export function floorOf(file: string, floored: readonly string[]): string {
  const parts = file.split('/');
  if (parts.length > 2 && floored.includes(parts[0]!)) return `${parts[0]}/${parts[1]}`;
  return floored.includes(parts[0]!) ? file : parts[0]!;
}
