/**
 * Every write the request makes (model, system, messages, tools, params…) placed in one tree at
 * generation time, so the builder is a single nested object literal. Two writes to one place
 * are a spec error (write-conflict), reported before emit.
 */
import type { WirePath } from '../ir/paths.js';
import type { SpecIR } from '../ir/types.js';

export interface Write {
  path: WirePath;
  expr: string;
  pointer: string;
  /** The value's fields merge into the object at `path` (beside other writes) instead of replacing it. */
  spread?: boolean;
}

export type BodyNode =
  | { kind: 'leaf'; write: Write }
  | { kind: 'object'; children: Map<string, BodyNode>; spreads: Write[] };

export function planBody(writes: Write[]): { tree: BodyNode; conflicts: Array<{ pointer: string; message: string }> } {
  const tree: BodyNode = { kind: 'object', children: new Map(), spreads: [] };
  const conflicts: Array<{ pointer: string; message: string }> = [];
  for (const w of writes) {
    let node = tree;
    const segs = w.path.segments.map(String);
    for (let i = 0; i < segs.length; i++) {
      const s = segs[i]!;
      if (node.kind !== 'object') break;
      const existing = node.children.get(s);
      if (i === segs.length - 1 && w.spread) {
        if (existing?.kind === 'leaf') {
          conflicts.push({ pointer: w.pointer, message: `merges into ${w.path.text}, which ${existing.write.pointer} writes whole` });
        } else if (existing) existing.spreads.push(w);
        else node.children.set(s, { kind: 'object', children: new Map(), spreads: [w] });
      } else if (i === segs.length - 1) {
        if (existing) {
          const other = existing.kind === 'leaf' ? existing.write.pointer : (existing.spreads[0]?.pointer ?? 'fields written inside it');
          conflicts.push({ pointer: w.pointer, message: `writes ${w.path.text}, which ${other} also writes` });
        } else node.children.set(s, { kind: 'leaf', write: w });
      } else if (!existing) {
        const child: BodyNode = { kind: 'object', children: new Map(), spreads: [] };
        node.children.set(s, child);
        node = child;
      } else if (existing.kind === 'leaf') {
        conflicts.push({ pointer: w.pointer, message: `writes ${w.path.text} inside ${segs.slice(0, i + 1).join('.')}, which ${existing.write.pointer} writes whole` });
        break;
      } else node = existing;
    }
  }
  return { tree, conflicts };
}

export const PARAM_POINTER = (field: string) => `/request/params/${field}`;

/** The body writes of a spec, with the TypeScript expression each one evaluates. */
export function bodyWrites(ir: SpecIR, paramExpr: (field: string) => string): Write[] {
  const rq = ir.request;
  const writes: Write[] = [];
  if (rq.model.to && !rq.model.inPath) writes.push({ path: rq.model.to, expr: 'req.model', pointer: '/request/model/to' });
  if (rq.system.placement === 'field' && rq.system.to) {
    writes.push({ path: rq.system.to, expr: rq.system.template ? 'ifSet(conv.system, mapSystem)' : 'conv.system', pointer: '/request/system/to' });
  }
  writes.push({ path: rq.messages.to, expr: 'messages', pointer: '/request/messages/to' });
  if (rq.tools) writes.push({ path: rq.tools.to, expr: 'mapTools(req.tools, w)', pointer: '/request/tools/to' });
  if (rq.toolChoice) writes.push({ path: rq.toolChoice.to, expr: 'mapToolChoice(req, w)', pointer: '/request/toolChoice/to' });
  if (rq.responseFormat) {
    const into = rq.responseFormat.into;
    writes.push({ path: rq.responseFormat.to, expr: 'mapResponseFormat(req, w)', pointer: `/request/responseFormat/${into ? 'into' : 'to'}`, spread: into });
  }
  for (const p of rq.params) if (p.kind === 'map') writes.push({ path: p.to, expr: paramExpr(p.field), pointer: PARAM_POINTER(p.field) });
  return writes;
}
