/**
 * The serve section → the module's `serve` export: each template as an arrow over the serve
 * slots (`s`), each stream step as a list of them (one per event). An overlay whose
 * serve section is its base's references the base's export.
 */
import type { SpecIR } from '../ir/types.js';
import { SERVE_STEPS } from '../../runtime/serve/serve-steps.js';
import { key, lit } from './code.js';
import { chunkPart, type TemplateNode } from '../ir/templates.js';
import { templateExpr, whenExpr } from './emit-template.js';
import { valueExpr } from './emit-value.js';
import type { SharedData } from './emit-shared.js';
import { escapePointer } from '../ir/paths.js';

/** What a serve slot reads: `$message.content` → `s.message?.content`, `$finish.status` → `s.finishFields.status`. */
export function serveSlot(name: string): string | undefined {
  const [root, ...rest] = name.split('.');
  if (root === undefined) return undefined;
  // `$json.<slot>`: the slot's value as JSON text (a server-tool call's input as its stream's delta).
  if (root === 'json' && rest.length) return `jsonText(${serveSlot(rest.join('.'))})`;
  if (root === 'finish' && rest.length) return `s.finishFields${rest.map(access).join('')}`;
  return `s.${root}${rest.map(access).join('')}`;
}

/** serve.chunk's slots: the steps', and `$body`, its second argument. */
function chunkSlot(name: string): string | undefined {
  const [root, ...rest] = name.split('.');
  return root === 'body' ? `body${rest.map(access).join('')}` : serveSlot(name);
}

function access(segment: string): string {
  return /^[0-9]+$/.test(segment) ? `?.[${segment}]` : /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(segment) ? `?.${segment}` : `?.[${lit(segment)}]`;
}

/** The `serve` object's source; members are source text so an overlay can compare them with its base's. */
export function serveMembers(ir: SpecIR, shared?: SharedData): Map<string, string> {
  const out = new Map<string, string>();
  const serve = ir.serve;
  if (!serve) {
    setRequest(out, requestTemplates(ir), shared);
    return out;
  }
  const arrow = (body: string) => `(s) => ${body.startsWith('{') ? `(${body})` : body}`;
  if (serve.response) out.set('response', arrow(templateExpr(serve.response, serveSlot)));
  if (serve.envelope) out.set('envelope', arrow(templateExpr(serve.envelope, serveSlot)));
  // The part comes as an argument (`$body`), not a slot: the slots keep their shape per event.
  if (serve.chunk) out.set('chunk', arrow(templateExpr(serve.chunk, chunkSlot)).replace(/^\(s\)/, '(s, body)'));
  // One arrow per event, so each is written with its own sequence number; one member per step, so an overlay names only the steps it changes.
  for (const k of SERVE_STEPS) if (serve.stream[k]) out.set(`stream.${k}`, `[${serve.stream[k]!.map((e) => eventExpr(e, arrow)).join(', ')}]`);
  out.set('finish', valueExpr(serve.finish));
  if (serve.error) out.set('error', arrow(templateExpr(serve.error, serveSlot)));
  if (serve.errorTypes) out.set('errorTypes', valueExpr(serve.errorTypes));
  if (serve.accept) out.set('accept', valueExpr(serve.accept));
  if (serve.itemId) out.set('itemId', lit(serve.itemId));
  if (serve.requestRules) out.set('requestRules', valueExpr(serve.requestRules));
  if (serve.fill) out.set('fill', valueExpr(serve.fill));
  if (serve.streamWithoutQuery) out.set('streamWithoutQuery', lit(serve.streamWithoutQuery));
  if (serve.models) out.set('models', lit(serve.models));
  setRequest(out, requestTemplates(ir), shared);
  // SSE wires that dispatch on a payload field send it as the event name too (as the providers do).
  if (ir.stream.eventKey && ir.profile.stream.framing === 'sse') out.set('eventName', valueExpr(ir.stream.eventKey.segments));
  return out;
}

/** A step's event: an arrow writing the whole event, or `{ chunk: <arrow writing its part> }` (serve.chunk places it). */
function eventExpr(e: TemplateNode, arrow: (body: string) => string): string {
  const part = chunkPart(e);
  if (!part) return arrow(templateExpr(e, serveSlot));
  const body = templateExpr(part, serveSlot);
  const when = e.kind === 'object' && e.when ? whenExpr(e.when, serveSlot) : undefined;
  return `{ chunk: ${arrow(when ? `(${when} ? ${body} : undefined)` : body)} }`;
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
  if (rq.toolChoice) out.toolChoice = Object.fromEntries(Object.entries(rq.toolChoice).filter(([k]) => k !== 'to' && k !== 'when'));
  // The forms only: where they go and the schema fallback are no templates.
  const formats = Object.entries(rq.responseFormat ?? {}).filter(([k]) => k !== 'to' && k !== 'schemaFallback');
  if (formats.length) out.responseFormat = Object.fromEntries(formats);
  if (Object.keys(params).length) out.params = params;
  return withoutNothing(out) as Record<string, unknown>;
}

/**
 * `$nothing` (a form or key that sends nothing) becomes absence: what sends nothing is matched
 * by nothing on the wire, so no sentinel reaches generated code or the runtime.
 */
function withoutNothing(v: unknown): unknown {
  if (v === '$nothing') return undefined;
  if (Array.isArray(v)) return v.map(withoutNothing).filter((x) => x !== undefined);
  if (v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    const kept = withoutNothing(x);
    if (kept !== undefined) out[k] = kept;
  }
  return out;
}

/**
 * The `serve` export: the whole object, the base's own (an overlay that changes nothing), or
 * `serveOver(base.serve, { what differs })`, a pure call so a bundle that never serves drops it
 * (a spread of the base's object would be kept).
 */
export function serveExpr(own: Map<string, string>, base: Map<string, string> | undefined, baseRef: string | undefined, requestRef?: string, shown = own): string {
  if (!base || !baseRef) return objectOf(shown.has('finish') ? shown : new Map([...shown, ['finish', '{}']]));
  const changed = changedMembers(own, base, shown);
  // The request templates an overlay changes are one constant its codec compiles too.
  if (requestRef) {
    for (const k of changed.keys()) if (k.startsWith('request.')) changed.delete(k);
    changed.set('request', requestRef);
  }
  if (!changed.size) return `${baseRef}.serve`;
  return `/* @__PURE__ */ serveOver(${baseRef}.serve, ${objectOf(changed, true)})`;
}

/**
 * The request templates an overlay changes, as the spec writes them (a form it takes away is
 * `undefined`): an object literal, or undefined when it changes none.
 */
export function requestDiff(own: Map<string, string>, base: Map<string, string>, shown = own): string | undefined {
  const changed = new Map([...changedMembers(own, base, shown)].filter(([k]) => k.startsWith('request.')).map(([k, v]) => [k.slice('request.'.length), v] as const));
  return changed.size ? objectOf(changed, true) : undefined;
}

/** The members `own` changes from `base` (compared as plain data), as `shown` writes them. */
function changedMembers(own: Map<string, string>, base: Map<string, string>, shown = own): Map<string, string> {
  const changed = new Map([...own].filter(([k, v]) => base.get(k) !== v).map(([k, v]) => [k, shown.get(k) ?? v] as const));
  for (const k of base.keys()) if (!own.has(k)) changed.set(k, 'undefined');
  return changed;
}

/** Members (dotted ones grouped: `stream.<step>`, `request.<group>.<form>`) as an object literal. */
function objectOf(members: Map<string, string>, overlay = false): string {
  type Tree = Map<string, string | Tree>;
  const tree: Tree = new Map();
  // A whole serve object always has a stream (perhaps of no steps), after the blocking body; an overlay's changes need not.
  const entries = [...members];
  if (!overlay && !entries.some(([k]) => k.startsWith('stream.'))) entries.splice(entries[0]?.[0] === 'response' ? 1 : 0, 0, ['stream', '{}']);
  for (const [path, v] of entries) {
    const keys = path.split('.');
    let node = tree;
    for (const k of keys.slice(0, -1)) {
      let next = node.get(k);
      if (!(next instanceof Map)) node.set(k, (next = new Map()));
      node = next;
    }
    node.set(keys[keys.length - 1]!, v);
  }
  const text = (t: Tree): string => (t.size ? `{ ${[...t].map(([k, v]) => (v === k ? k : `${key(k)}: ${typeof v === 'string' ? v : text(v)}`)).join(', ')} }` : '{}');
  return text(tree);
}

/**
 * The request templates as members by form (`request.roles.user`), so an overlay names only the
 * forms it changes; with `shared`, written with the named maps the spec merges in (emit-shared.ts).
 */
function setRequest(out: Map<string, string>, request: Record<string, unknown> | undefined, shared?: SharedData): void {
  if (!request) return;
  const expr = (v: unknown, pointer: string) => (shared ? shared.expr(v, pointer) : valueExpr(v));
  for (const [group, forms] of Object.entries(request)) {
    const at = GROUP_AT[group] ?? `/request/${group}`;
    // Param forms are named by unified fields (`reasoning.budgetTokens`): the group goes whole.
    if (group === 'params') {
      const fields = Object.entries(forms as Record<string, unknown>).map(([f, t]) => `${key(f)}: ${expr(t, `${at}/${escapePointer(f)}/template`)}`);
      out.set(`request.${group}`, `{ ${fields.join(', ')} }`);
      continue;
    }
    if (!MAP_GROUPS.has(group)) {
      out.set(`request.${group}`, expr(forms, at));
      continue;
    }
    // The group itself first (a group of no forms is `{}`), then its forms.
    out.set(`request.${group}`, '{}');
    for (const [k, t] of Object.entries(forms as Record<string, unknown>)) out.set(`request.${group}.${k}`, expr(t, `${at}/${escapePointer(k)}`));
  }
}

/** Where each group of the request templates is in a spec (the rest are at `/request/<group>`). */
const GROUP_AT: Record<string, string> = {
  roles: '/request/messages/roles',
  parts: '/request/messages/parts',
  blocks: '/request/messages/blocks',
  system: '/request/system/template',
};

/** Request template groups that are maps of forms (merged form by form over a base's, runtime/serve/serve-over.ts). */
const MAP_GROUPS = new Set(['roles', 'parts', 'blocks', 'toolChoice', 'responseFormat', 'params']);
