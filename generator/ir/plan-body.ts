/**
 * Every write a request makes (model, system, messages, tools, params…) placed in one tree, so
 * two writes to one place are found at generation time (write-conflict). A write marked `merge`
 * (a form whose fields go into an object other params also write) shares its object.
 */
import type { WirePath } from './paths.js';

export interface Write {
  path: WirePath;
  pointer: string;
  merge: boolean;
}

type Node = { kind: 'leaf'; write: Write } | { kind: 'object'; children: Map<string, Node>; merged: Write[] };

export function planBody(writes: Write[]): Array<{ pointer: string; message: string }> {
  const tree: Node = { kind: 'object', children: new Map(), merged: [] };
  const conflicts: Array<{ pointer: string; message: string }> = [];
  for (const w of writes) {
    let node = tree;
    const segs = w.path.segments.map(String);
    for (let i = 0; i < segs.length; i++) {
      const s = segs[i]!;
      if (node.kind !== 'object') break;
      const existing = node.children.get(s);
      const last = i === segs.length - 1;
      if (last && w.merge) {
        if (existing?.kind === 'leaf') conflicts.push({ pointer: w.pointer, message: `merges into ${w.path.text}, which ${existing.write.pointer} writes whole` });
        else if (existing) existing.merged.push(w);
        else node.children.set(s, { kind: 'object', children: new Map(), merged: [w] });
      } else if (last) {
        if (existing) {
          const other = existing.kind === 'leaf' ? existing.write.pointer : (existing.merged[0]?.pointer ?? 'fields written inside it');
          conflicts.push({ pointer: w.pointer, message: `writes ${w.path.text}, which ${other} also writes` });
        } else node.children.set(s, { kind: 'leaf', write: w });
      } else if (!existing) {
        const child: Node = { kind: 'object', children: new Map(), merged: [] };
        node.children.set(s, child);
        node = child;
      } else if (existing.kind === 'leaf') {
        conflicts.push({ pointer: w.pointer, message: `writes ${w.path.text} inside ${segs.slice(0, i + 1).join('.')}, which ${existing.write.pointer} writes whole` });
        break;
      } else node = existing;
    }
  }
  return conflicts;
}
