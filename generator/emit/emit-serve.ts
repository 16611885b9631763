/**
 * The serve section → the module's `serve` export: each template as an arrow over the serve
 * slots (`s`), each stream step as a list of them (one per event). An overlay whose
 * serve section is its base's references the base's export.
 */
import type { SpecIR } from '../ir/types.js';
import { SERVE_STEPS } from '../../runtime/serve/serve-steps.js';
import { key, lit } from './code.js';
import { templateExpr } from './emit-template.js';
import { valueExpr } from './emit-value.js';

/** What a serve slot reads: `$message.content` → `s.message?.content`, `$finish.status` → `s.finishFields.status`. */
export function serveSlot(name: string): string | undefined {
  const [root, ...rest] = name.split('.');
  if (root === undefined) return undefined;
  if (root === 'finish' && rest.length) return `s.finishFields${rest.map(access).join('')}`;
  return `s.${root}${rest.map(access).join('')}`;
}

function access(segment: string): string {
  return /^[0-9]+$/.test(segment) ? `?.[${segment}]` : /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(segment) ? `?.${segment}` : `?.[${lit(segment)}]`;
}

/** The `serve` object's source; members are source text so an overlay can compare them with its base's. */
export function serveMembers(ir: SpecIR): Map<string, string> {
  const out = new Map<string, string>();
  const serve = ir.serve;
  if (!serve) return out;
  const arrow = (body: string) => `(s) => ${body.startsWith('{') ? `(${body})` : body}`;
  if (serve.response) out.set('response', arrow(templateExpr(serve.response, serveSlot)));
  // One arrow per event, so each is written with its own sequence number.
  const steps = SERVE_STEPS.filter((k) => serve.stream[k]).map((k) => `${key(k)}: [${serve.stream[k]!.map((e) => arrow(templateExpr(e, serveSlot))).join(', ')}]`);
  out.set('stream', `{ ${steps.join(', ')} }`);
  out.set('finish', valueExpr(serve.finish));
  if (serve.error) out.set('error', arrow(templateExpr(serve.error, serveSlot)));
  // SSE wires that dispatch on a payload field send it as the event name too (as the providers do).
  if (ir.stream.eventKey && ir.profile.stream.framing === 'sse') out.set('eventName', valueExpr(ir.stream.eventKey.segments));
  return out;
}

/** `{ response, stream, finish, error }` or the base's members spread with what differs. */
export function serveExpr(own: Map<string, string>, base: Map<string, string> | undefined, baseRef: string | undefined): string {
  if (base && baseRef && own.size === base.size && [...own].every(([k, v]) => base.get(k) === v)) return `${baseRef}.serve`;
  if (!own.size) return '{ stream: {}, finish: {} }';
  const entries = [...own].filter(([k, v]) => !(base && base.get(k) === v)).map(([k, v]) => `${k}: ${v}`);
  const removed = base ? [...base.keys()].filter((k) => !own.has(k)).map((k) => `${k}: undefined`) : [];
  return base?.size && baseRef ? `{ ...${baseRef}.serve, ${[...entries, ...removed].join(', ')} }` : `{ ${entries.join(', ')} }`;
}

