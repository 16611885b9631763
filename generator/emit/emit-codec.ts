/**
 * The compiled half of a module: each template as an arrow function (keyed as the runtime's
 * `Codec` is), and the two readers. Members are source text so an overlay can tell which of
 * its members equal its base's and reference those instead of repeating them.
 */
import { slotsOf, type TemplateNode } from '../ir/templates.js';
import { BLOCK_KEYS, FORMAT_KEYS, PART_KEYS, ROLE_KEYS, TOOL_CHOICE_KEYS, type SpecIR } from '../ir/types.js';
import { PARAM_FIELDS } from '../ir/slots.js';
import { hasContinuityRules, isTemplated } from '../../runtime/profile-facts.js';
import { actionKinds, emitReadEvent, emitReadResponse } from './emit-readers.js';
import { SLOT_EXPRS, type RequestSlotContext } from './slot-exprs.js';
import { templateExpr } from './emit-template.js';
import { lit } from './code.js';
import { member } from './emit-value.js';

/** Group → member → arrow-function source. Groups with one function use the member key ''. */
export type CodecMembers = Map<string, Map<string, string>>;

export interface CodecSource {
  members: CodecMembers;
  /** Members that are more than a template (`group.key`): a `tools` guard, alone or in front of one. */
  guarded: Set<string>;
  readResponse: string;
  readEvent: string;
}

const ROLE_CONTEXT: Record<string, RequestSlotContext> = {
  system: 'roles.system',
  user: 'roles.user',
  assistant: 'roles.assistant',
  tool: 'roles.tool',
  toolError: 'roles.tool',
  approval: 'roles.approval',
};

/** Each spec's codec source, compiled once: an overlay's module compares its own with its base's. */
const compiled = new WeakMap<SpecIR, CodecSource>();

export function emitCodec(ir: SpecIR): CodecSource {
  let out = compiled.get(ir);
  if (!out) compiled.set(ir, (out = compileCodec(ir)));
  return out;
}

function compileCodec(ir: SpecIR): CodecSource {
  const t = ir.templates;
  const members: CodecMembers = new Map();
  const group = (name: string) => {
    let g = members.get(name);
    if (!g) members.set(name, (g = new Map()));
    return g;
  };
  group('parts');
  group('blocks');
  group('roles');
  group('toolChoice');
  group('responseFormat');
  for (const k of PART_KEYS) if (t.parts[k]) group('parts').set(k, arrow(['p'], t.parts[k]!, `parts.${k}` as RequestSlotContext));
  for (const k of BLOCK_KEYS) {
    const node = t.blocks[k];
    if (!node) continue;
    const ctx = `blocks.${k}` as RequestSlotContext;
    const used = slotsOf(node).map((s) => s.name);
    const params = used.includes('index') ? ['b', used.includes('argumentsObject') ? 'cx' : '_cx', 'i'] : used.includes('argumentsObject') ? ['b', 'cx'] : ['b'];
    group('blocks').set(k, arrow(params, node, ctx));
  }
  for (const k of ROLE_KEYS) {
    const node = t.roles[k];
    if (!node) continue;
    // An error result with the same wire shape as a plain one needs no template of its own.
    if (k === 'toolError' && t.roles.tool && templateExpr(node, SLOT_EXPRS['roles.tool']) === templateExpr(t.roles.tool, SLOT_EXPRS['roles.tool'])) continue;
    const ctx = ROLE_CONTEXT[k]!;
    const body = templateExpr(node, SLOT_EXPRS[ctx]);
    group('roles').set(k, `(${paramsRead(node, ctx).has('cx') ? 'm, cx' : 'm'}) => ${body.startsWith('{') ? `(${body})` : body}`);
  }
  if (t.system) group('system').set('', arrow(['v'], t.system, 'system.template'));
  if (t.tools) {
    group('tools').set('item', arrow(['t'], t.tools.item, 'tools.item'));
    if (t.tools.wrap) group('tools').set('wrap', arrow(['v'], t.tools.wrap, 'tools.wrap'));
  }
  const choiceTools = t.toolsWhen.toolChoice;
  const guarded = new Set<string>();
  if (choiceTools !== undefined) guarded.add('toolChoice.when');
  if (choiceTools !== undefined) group('toolChoice').set('when', `(r, w) => ${toolsHold(choiceTools)} || ${toolsDrop('toolChoice', choiceTools)}`);
  for (const k of TOOL_CHOICE_KEYS) if (t.toolChoice[k]) group('toolChoice').set(k, arrow(['c'], t.toolChoice[k]!, 'toolChoice'));
  for (const k of FORMAT_KEYS) if (t.responseFormat[k]) group('responseFormat').set(k, arrow(['f'], t.responseFormat[k]!, 'responseFormat'));
  for (const f of PARAM_FIELDS) {
    const tools = t.toolsWhen.params[f];
    const node = t.params[f];
    if (tools === undefined) {
      if (node) group('params').set(f, arrow(['v'], node, 'param.template'));
      continue;
    }
    // The `tools` condition compiled in front of the template: the step drops the value with a warning.
    guarded.add(`params.${f}`);
    const value = node ? templateExpr(node, SLOT_EXPRS['param.template']) : 'v';
    group('params').set(f, `(v, r, w) => (${toolsHold(tools)} ? ${value} : ${toolsDrop(f, tools)})`);
  }
  // Runtime units only some wires need, named so the module imports them (and bundles without it leave them out).
  const actions = actionKinds(ir);
  const uses: Array<[string, string]> = [];
  if (actions.has('thinking')) uses.push(['thinking', 'ThinkingBlocks']);
  if (actions.has('textMeta')) uses.push(['textMeta', 'TextMeta']);
  if (actions.has('part')) uses.push(['parts', 'ResponseParts']);
  // Templates call the message context only through SLOT_EXPRS; these slots need its block methods.
  const templates = [...members.values()].flatMap((g) => [...g.values()]).join('\n');
  if (/\bcx\.(blocks|thinkingBlocks|thinkingText|argumentsObject|imageData|text|callKind|output|plainText)\(/.test(templates)) uses.push(['blocks', 'BlockContext']);
  if (hasContinuityRules(ir.profile)) uses.push(['continuity', 'continuityRules']);
  // Else templates that can carry another provider's state (block templates, a call's signature) need it cleaned out of
  // turns from elsewhere: the test defineAdapter makes of a hand-written codec.
  else if (uses.some(([k]) => k === 'blocks') || ir.profile.request.carries.callSignature) uses.push(['foreignTurns', 'applyContinuity']);
  if (Object.values(ir.profile.request.params).some((r) => r !== undefined && 'to' in r && (r.values || r.silent || r.when || r.default !== undefined))) uses.push(['paramRules', 'paramRules']);
  if (ir.profile.request.tools?.provider || ir.profile.request.tools?.unknownProviderTool) uses.push(['providerTools', 'providerTools']);
  const parallel = ir.profile.request.params.parallelToolCalls;
  if (t.toolChoice.unset || (parallel !== undefined && 'carriedBy' in parallel)) uses.push(['toolChoiceRules', 'toolChoiceRules']);
  if (ir.profile.request.messages.merge) uses.push(['merge', 'mergeConsecutive']);
  if (ir.profile.stream.framing === 'ndjson') uses.push(['ndjson', 'NdjsonDecoder']);
  if (Object.values(ir.profile.usage).some((c) => !Array.isArray(c))) uses.push(['usageSteps', 'usageSteps']);
  if (ir.profile.errors.retryDelay?.length) uses.push(['retryDelay', 'retryDelayMs']);
  if (ir.profile.stream.framing === 'event-stream') uses.push(['eventStream', 'EventStreamDecoder']);
  const { auth } = ir.profile.endpoint;
  if (auth.sigv4) uses.push(['sigv4Auth', 'sigv4Auth']);
  if (auth.from === 'token') uses.push(['tokenAuth', 'tokenAuth']);
  if (ir.profile.endpoint.options) uses.push(['endpointOptions', 'resolveEndpointOptions']);
  if (isTemplated(ir.profile.endpoint)) uses.push(['urlTemplate', 'urlTemplate']);
  if (uses.length) members.set('uses', new Map(uses));
  return { members, guarded, readResponse: emitReadResponse(ir), readEvent: emitReadEvent(ir) };
}

/** `tools: { exists }` over the request `r`: tools are declared when its list has any. */
function toolsHold(exists: boolean): string {
  return exists ? 'r.tools?.length' : '!r.tools?.length';
}

/** The warning for a value a `tools` condition holds back. */
function toolsDrop(field: string, exists: boolean): string {
  return `w.drop(${lit(field)}, ${lit(exists ? 'no tools are declared' : 'tools are declared')})`;
}

/** The template's parameters its slots read (from the slot table, not the emitted text). */
function paramsRead(node: TemplateNode, ctx: RequestSlotContext): Set<string> {
  const read = new Set<string>();
  for (const slot of slotsOf(node)) {
    for (const name of SLOT_EXPRS[ctx][slot.name]?.match(/\b[a-z]{1,2}\b/g) ?? []) read.add(name);
  }
  return read;
}

/** `(p) => <template>`, leaving out parameters the body does not read. */
function arrow(params: string[], node: TemplateNode, ctx: RequestSlotContext): string {
  const body = templateExpr(node, SLOT_EXPRS[ctx]);
  const read = paramsRead(node, ctx);
  const used = params.filter((p) => p.startsWith('_') || read.has(p));
  // Keep positional parameters before a used one.
  const last = params.reduce((n, p, i) => (used.includes(p) && !p.startsWith('_') ? i + 1 : n), 0);
  const list = params.slice(0, last).map((p) => (used.includes(p) ? p : `_${p.replace(/^_/, '')}`));
  return `(${list.join(', ')}) => ${body.startsWith('{') ? `(${body})` : body}`;
}

/** The codec's part of a module: the whole object, or an overlay's as its base's with what differs. */
export function codecPart(codec: CodecSource, base: CodecSource | undefined, baseRef: string | undefined, sameReaders: boolean, templatesRef?: string, runsTables = false, scope?: { response: string; event: string }): string {
  const ref = `${baseRef}.codec`;
  const entries: string[] = [];
  // An overlay's changed templates, compiled from its data by the kit (runtime/request/compile-templates.ts).
  if (base && templatesRef) entries.push(`...templatesOver(${ref}, ${templatesRef})`);
  for (const [group, members] of codec.members) {
    const baseMembers = base?.members.get(group);
    // The kit compiles templates only: a group with a guard it would change, drop or replace stays code.
    const changed = [...members].filter(([k, fn]) => baseMembers?.get(k) !== fn).map(([k]) => k);
    const guards = [...members.keys()].filter((k) => codec.guarded.has(`${group}.${k}`));
    const dropped = [...(baseMembers?.keys() ?? [])].filter((k) => !members.has(k) && base?.guarded.has(`${group}.${k}`));
    const needsCode = dropped.length > 0 || guards.some((k) => changed.includes(k)) || (group === 'params' && guards.length > 0);
    if (base && templatesRef && TEMPLATE_GROUPS.has(group) && !needsCode) continue;
    const single = members.has('') || (baseMembers?.has('') ?? false);
    if (single) {
      const own = members.get('');
      if (base && own === baseMembers?.get('')) continue;
      entries.push(`${group}: ${own ?? 'undefined'}`);
      continue;
    }
    if (base && baseMembers && sameMap(members, baseMembers)) continue;
    const items: string[] = [];
    for (const [k, fn] of members) if (!(baseMembers?.get(k) === fn)) items.push(k === fn ? fn : `${lit(k)}: ${fn}`);
    const removed = [...(baseMembers?.keys() ?? [])].filter((k) => !members.has(k)).map((k) => `${lit(k)}: undefined`);
    const spread = base && baseMembers?.size ? [`...${member(ref, group)}`] : [];
    entries.push(`${group}: { ${[...spread, ...items, ...removed].join(', ')} }`);
  }
  // A group the base has and this spec does not (no system template, no tools, no param templates) is taken away.
  for (const group of ['system', 'tools', 'params', 'uses']) {
    if (base && !codec.members.has(group) && base.members.has(group) && !(templatesRef && TEMPLATE_GROUPS.has(group))) entries.push(`${group}: undefined`);
  }
  // Rules both readers share read the part of the payload the reader hands them (runRules' scope).
  if (runsTables && !sameReaders && scope) entries.push(`readResponse: runRules(responseRules, (r: WireResponse) => ${scope.response})`, `readEvent: runRules(eventRules, (e: WireEvent) => ${scope.event})`);
  else if (runsTables && !sameReaders) entries.push('readResponse: runRules(responseRules)', 'readEvent: runRules(eventRules)');
  else if (!sameReaders) entries.push('readResponse', 'readEvent');
  return base ? `{ ...${ref}, ${entries.join(', ')} }` : `{ ${entries.join(', ')} }`;
}

/** The codec groups that are request templates (an overlay's come from its data). */
const TEMPLATE_GROUPS = new Set(['parts', 'blocks', 'roles', 'toolChoice', 'responseFormat', 'system', 'tools', 'params']);

function sameMap(a: Map<string, string>, b: Map<string, string>): boolean {
  return a.size === b.size && [...a].every(([k, v]) => b.get(k) === v);
}
