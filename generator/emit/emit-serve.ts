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
  if (!serve) {
    const request = requestTemplates(ir);
    if (request) out.set('request', valueExpr(request));
    return out;
  }
  const arrow = (body: string) => `(s) => ${body.startsWith('{') ? `(${body})` : body}`;
  if (serve.response) out.set('response', arrow(templateExpr(serve.response, serveSlot)));
  // One arrow per event, so each is written with its own sequence number.
  const steps = SERVE_STEPS.filter((k) => serve.stream[k]).map((k) => `${key(k)}: [${serve.stream[k]!.map((e) => arrow(templateExpr(e, serveSlot))).join(', ')}]`);
  out.set('stream', `{ ${steps.join(', ')} }`);
  out.set('finish', valueExpr(serve.finish));
  if (serve.error) out.set('error', arrow(templateExpr(serve.error, serveSlot)));
  if (serve.errorTypes) out.set('errorTypes', valueExpr(serve.errorTypes));
  if (serve.accept) out.set('accept', valueExpr(serve.accept));
  if (serve.itemId) out.set('itemId', lit(serve.itemId));
  const request = requestTemplates(ir);
  if (request) out.set('request', valueExpr(request));
  // SSE wires that dispatch on a payload field send it as the event name too (as the providers do).
  if (ir.stream.eventKey && ir.profile.stream.framing === 'sse') out.set('eventName', valueExpr(ir.stream.eventKey.segments));
  return out;
}

/**
 * The request templates as the spec writes them (JSON with `$slot` strings): the server side
 * matches a client's request against them to read it back (runtime/serve/decode-request.ts).
 */
function requestTemplates(ir: SpecIR): Record<string, unknown> | undefined {
  const rq = ir.doc.request;
  if (!rq?.messages) return undefined;
  const params: Record<string, unknown> = {};
  for (const [field, rule] of Object.entries(rq.params ?? {})) if (typeof rule === 'object' && rule !== null && 'template' in rule && rule.template !== undefined) params[field] = rule.template;
  const out: Record<string, unknown> = {
    roles: rq.messages.roles ?? {},
    parts: rq.messages.parts ?? {},
    blocks: rq.messages.blocks ?? {},
  };
  if (rq.system?.template !== undefined) out.system = rq.system.template;
  if (rq.tools) out.tools = rq.tools.wrap === undefined ? { item: rq.tools.item } : { item: rq.tools.item, wrap: rq.tools.wrap };
  if (rq.toolChoice) out.toolChoice = Object.fromEntries(Object.entries(rq.toolChoice).filter(([k]) => k !== 'to'));
  if (rq.responseFormat) out.responseFormat = Object.fromEntries(Object.entries(rq.responseFormat).filter(([k]) => k !== 'to'));
  if (Object.keys(params).length) out.params = params;
  return out;
}

/** `{ response, stream, finish, error }` or the base's members spread with what differs. */
export function serveExpr(given: Map<string, string>, base: Map<string, string> | undefined, baseRef: string | undefined): string {
  let own = given;
  if (base && baseRef && own.size === base.size && [...own].every(([k, v]) => base.get(k) === v)) return `${baseRef}.serve`;
  if (!own.has('stream')) own = new Map([['stream', '{}'], ['finish', '{}'], ...own]);
  const entries = [...own].filter(([k, v]) => !(base && base.get(k) === v)).map(([k, v]) => `${k}: ${v}`);
  const removed = base ? [...base.keys()].filter((k) => !own.has(k)).map((k) => `${k}: undefined`) : [];
  return base?.size && baseRef ? `{ ...${baseRef}.serve, ${[...entries, ...removed].join(', ')} }` : `{ ${entries.join(', ')} }`;
}

