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
  // One arrow per event, so each is written with its own sequence number; one member per step, so an overlay names only the steps it changes.
  for (const k of SERVE_STEPS) if (serve.stream[k]) out.set(`stream.${k}`, `[${serve.stream[k]!.map((e) => arrow(templateExpr(e, serveSlot))).join(', ')}]`);
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

/**
 * The `serve` export: the whole object, the base's own (an overlay that changes nothing), or
 * `serveOver(base.serve, { what differs })`, a pure call so a bundle that never serves drops it
 * (a spread of the base's object would be kept).
 */
export function serveExpr(own: Map<string, string>, base: Map<string, string> | undefined, baseRef: string | undefined): string {
  if (!base || !baseRef) return objectOf(own.has('finish') ? own : new Map([...own, ['finish', '{}']]));
  const changed = new Map([...own].filter(([k, v]) => base.get(k) !== v));
  for (const k of base.keys()) if (!own.has(k)) changed.set(k, 'undefined');
  if (!changed.size) return `${baseRef}.serve`;
  return `/* @__PURE__ */ serveOver(${baseRef}.serve, ${objectOf(changed, true)})`;
}

/** Members (`stream.<step>` ones grouped under `stream`) as an object literal. */
function objectOf(members: Map<string, string>, overlay = false): string {
  const top: string[] = [];
  const steps: string[] = [];
  for (const [k, v] of members) {
    if (!k.startsWith('stream.')) top.push(`${k}: ${v}`);
    // The stream sits where its first step is (after the blocking body).
    else if (steps.push(`${key(k.slice(7))}: ${v}`) === 1) top.push('');
  }
  // A whole serve object always has a stream (perhaps of no steps); an overlay's changes need not.
  if (!steps.length && !overlay) top.unshift('');
  return `{ ${top.map((t) => t || `stream: { ${steps.join(', ')} }`).join(', ')} }`;
}
