/**
 * Stage 4: a resolved spec document → SpecIR. Only shape work happens here (defaults filled,
 * paths and templates parsed); every judgement about validity lives in the semantic rules.
 */
import { buildWireTypes } from './wire-types.js';
import type { ConditionValue, EndpointDocument, MessagesDocument, ParamDocument, RequestDocument, RuleDocument, RulesDocument, SpecDocument, StreamDocument } from '../load/spec-document.js';
import { escapePointer } from '../load/parse-spec.js';
import type { ResolvedSpec } from '../resolve/resolve-extends.js';
import { parsePath, pathList } from './paths.js';
import { PARAM_FIELDS } from '../../runtime/contract/param-fields.js';
import { RETRYABLE_BY_DEFAULT } from '../../runtime/profile-facts.js';
import type { DefaultValue, EndpointAuth, EndpointOption, KindRule, ParamField, ParamRule, PartField, PartRule, PartsProfile, Profile, Scalar, StepFilter, UsageCount } from '../../runtime/contract/profile.js';
import type { KindDocument, PartDocument, PartFieldsDocument, PartsDocument, StepFilterDocument, UsageCountDocument } from '../load/spec-document.js';
import type { FinishReason } from '../../runtime/contract/unified-model.js';
import { ACTIONS, type ActionKey } from './actions.js';
import { SLOT_FIELDS } from './slots.js';
import { parseTemplate, slotsOf, toTest, type TemplateNode } from './templates.js';
import { BLOCK_KEYS, FORMAT_KEYS, PART_KEYS, ROLE_KEYS, TOOL_CHOICE_KEYS, type Action, type Condition, type Rule, type ServeIR, type SpecIR, type TemplatesIR } from './types.js';
import type { ServeDocument } from '../load/spec-document.js';
import { SERVE_STEPS } from '../../runtime/serve/serve-steps.js';

export function buildIR(spec: ResolvedSpec): SpecIR {
  // The schema has checked the document: it is a SpecDocument from here on.
  const d = spec.doc as unknown as SpecDocument;
  const rq: RequestDocument = d.request ?? {};
  const msgs: Partial<MessagesDocument> = rq.messages ?? {};
  const st: StreamDocument = d.stream ?? {};
  const tpl = (v: unknown, ptr: string): TemplateNode | undefined => (v === undefined ? undefined : parseTemplate(v, ptr));
  const templates = <K extends string>(o: Partial<Record<K, unknown>> | undefined, base: string, keys: readonly K[]) => {
    const out: Partial<Record<K, TemplateNode>> = {};
    for (const k of keys) if (o?.[k] !== undefined) out[k] = parseTemplate(o[k], `${base}/${k}`);
    return out;
  };
  const roles = templates(msgs.roles, '/request/messages/roles', ROLE_KEYS);
  const toolChoice = templates(rq.toolChoice, '/request/toolChoice', TOOL_CHOICE_KEYS);
  const paramTemplates: TemplatesIR['params'] = {};
  const toolsWhen: TemplatesIR['toolsWhen'] = { params: {} };
  for (const [field, v] of Object.entries(rq.params ?? {})) {
    if (typeof v === 'object' && v.template !== undefined) paramTemplates[field as ParamField] = parseTemplate(v.template, `/request/params/${escapePointer(field)}/template`);
    const tools = typeof v === 'object' ? toolsTest(v.when) : undefined;
    if (tools !== undefined) toolsWhen.params[field as ParamField] = tools;
  }
  const choiceTools = toolsTest(rq.toolChoice?.when);
  if (choiceTools !== undefined) toolsWhen.toolChoice = choiceTools;
  const t: TemplatesIR = {
    roles,
    parts: templates(msgs.parts, '/request/messages/parts', PART_KEYS),
    blocks: templates(msgs.blocks, '/request/messages/blocks', BLOCK_KEYS),
    system: tpl(rq.system?.template, '/request/system/template'),
    tools: rq.tools ? { item: parseTemplate(rq.tools.item, '/request/tools/item'), wrap: tpl(rq.tools.wrap, '/request/tools/wrap') } : undefined,
    toolChoice,
    responseFormat: templates(rq.responseFormat, '/request/responseFormat', FORMAT_KEYS),
    params: paramTemplates,
    toolsWhen,
  };
  const writes = bodyWrites(rq);
  const profile = buildProfile(spec.id, d, t);
  const ir: Omit<SpecIR, 'wire'> = {
    id: spec.id,
    files: spec.chain.map((c) => c.file),
    base: spec.chain.length > 1 ? String((spec.chain[1]!.doc as { id?: unknown }).id) : undefined,
    doc: d,
    ...(spec.chain[0]!.merges ? { merges: spec.chain[0]!.merges } : {}),
    profile,
    templates: t,
    continuityState: d.continuity?.state ?? [],
    writes,
    response: buildRules(d.response ?? {}, '/response'),
    ...(d.serve ? { serve: buildServe(d.serve) } : {}),
    stream: {
      eventKey: st.eventKey ? parsePath(st.eventKey) : undefined,
      ignore: st.ignore ?? [],
      all: buildRules(st.on?.['*'] ?? {}, '/stream/on/*'),
      events: Object.entries(st.on ?? {})
        .filter(([name]) => name !== '*')
        .map(([name, rules]) => ({ name, rules: buildRules(rules ?? {}, `/stream/on/${escapePointer(name)}`) })),
    },
  };
  return { ...ir, wire: buildWireTypes(ir) };
}

/** The serve section: every step as a list of event templates. */
function buildServe(d: ServeDocument): ServeIR {
  const stream: ServeIR['stream'] = {};
  for (const step of SERVE_STEPS) {
    const v = d.stream?.[step];
    if (v === undefined) continue;
    const ptr = `/serve/stream/${step}`;
    stream[step] = Array.isArray(v) ? v.map((e, i) => parseTemplate(e, `${ptr}/${i}`)) : [parseTemplate(v, ptr)];
  }
  return {
    ...(d.response === undefined ? {} : { response: parseTemplate(d.response, '/serve/response') }),
    ...(d.envelope === undefined ? {} : { envelope: parseTemplate(d.envelope, '/serve/envelope') }),
    ...(d.chunk === undefined ? {} : { chunk: parseTemplate(d.chunk, '/serve/chunk') }),
    stream,
    finish: d.finish ?? {},
    ...(d.error === undefined ? {} : { error: parseTemplate(d.error, '/serve/error') }),
    ...(d.errorTypes === undefined ? {} : { errorTypes: d.errorTypes }),
    ...(d.accept === undefined ? {} : { accept: d.accept as Record<string, unknown> }),
    ...(d.itemId === undefined ? {} : { itemId: d.itemId }),
    ...(d.requestRules === undefined ? {} : { requestRules: d.requestRules }),
    ...(d.fill === undefined ? {} : { fill: d.fill as Record<string, Record<string, unknown>> }),
    ...(d.streamWithoutQuery === undefined ? {} : { streamWithoutQuery: d.streamWithoutQuery }),
    ...(d.models === undefined ? {} : { models: d.models }),
  };
}

/** Endpoint options in the runtime's form: env always a list, nothing undefined. */
function endpointOptions(options: NonNullable<EndpointDocument['options']>): Record<string, EndpointOption> {
  const out: Record<string, EndpointOption> = {};
  for (const [name, o] of Object.entries(options)) {
    out[name] = {
      ...(o.env !== undefined ? { env: [o.env].flat() } : {}),
      ...(o.default !== undefined ? { default: o.default } : {}),
      ...(o.cases !== undefined ? { cases: o.cases } : {}),
      ...(o.description !== undefined ? { description: o.description } : {}),
    };
  }
  return out;
}

/** The data half of a spec, in the runtime's own types: one builder per spec section, in the order the profile lists them. */
function buildProfile(id: string, d: SpecDocument, t: TemplatesIR): Profile {
  return {
    id,
    name: typeof d.name === 'string' ? d.name : id,
    endpoint: endpointProfile(d.endpoint ?? {}),
    request: requestProfile(d.request ?? {}, t),
    stream: streamProfile(d.stream ?? {}),
    finish: finishProfile(d.finish ?? {}),
    usage: usageProfile(d.usage ?? {}),
    ...(d.parts ? { parts: buildParts(d.parts) } : {}),
    ...(d.required?.response?.length ? { required: { response: d.required.response.map((p) => parsePath(p).segments) } } : {}),
    errors: errorsProfile(d.errors ?? {}),
    ...nonEmpty('continuity', continuityProfile(d.continuity)),
  };
}

type Section<K extends keyof SpecDocument> = NonNullable<SpecDocument[K]>;

function endpointProfile(ep: Section<'endpoint'>): Profile['endpoint'] {
  return {
    baseUrl: ep.baseUrl ?? undefined,
    // Defaults are left out (the runtime reads absent as false or none): no `headers: {}` in every module.
    ...(ep.baseUrlRequired === true ? { baseUrlRequired: true } : {}),
    path: ep.path ?? '',
    streamPath: ep.streamPath,
    ...(ep.streamQuery && Object.keys(ep.streamQuery).length ? { streamQuery: ep.streamQuery } : {}),
    auth: authProfile(ep.auth ?? {}),
    apiKeyEnv: ep.apiKeyEnv,
    ...(ep.apiKeyOptional === true ? { apiKeyOptional: true } : {}),
    ...(ep.headers && Object.keys(ep.headers).length ? { headers: ep.headers } : {}),
    ...(ep.query ? { query: ep.query } : {}),
    ...(ep.options ? { options: endpointOptions(ep.options) } : {}),
  };
}

/** The spec's `endpoint.auth` under the same names, its defaults filled in (`from: key` is left out: absent means it). */
function authProfile(a: NonNullable<EndpointDocument['auth']>): EndpointAuth {
  return {
    header: String(a.header ?? 'authorization').toLowerCase(),
    scheme: a.scheme,
    ...(a.from === 'token' ? { from: 'token' as const } : {}),
    ...(a.sigv4 ? { sigv4: { service: a.sigv4.service, region: a.sigv4.region ?? 'region' } } : {}),
  };
}

function requestProfile(rq: Section<'request'>, t: TemplatesIR): Profile['request'] {
  const msgs: Partial<MessagesDocument> = rq.messages ?? {};
  const slotsUsed = (node: TemplateNode | undefined) => (node ? slotsOf(node).map((s) => s.name) : []);
  const params: Partial<Record<ParamField, ParamRule>> = {};
  for (const field of PARAM_FIELDS) {
    const v = rq.params?.[field];
    if (v !== undefined) params[field] = buildParam(field, v);
    // A field a template reads through a slot is carried there and needs no entry of its own.
    else {
      const reader = templateReading(t, field);
      if (reader) params[field] = { carriedBy: reader };
    }
  }
  return {
    ...(typeof rq.model === 'string' ? { model: parsePath(rq.model).segments } : {}),
    system: {
      placement: rq.system?.placement ?? 'message',
      ...(rq.system?.to ? { to: parsePath(rq.system.to).segments } : {}),
      join: rq.system?.join ?? '\n\n',
    },
    messages: {
      to: parsePath(msgs.to ?? 'messages').segments,
      ...(t.roles.assistant?.kind === 'slot' ? { spread: true } : {}),
      ...(typeof msgs.merge === 'string' ? { merge: { field: msgs.merge } } : {}),
      ...(typeof msgs.merge === 'object' ? { merge: msgs.merge } : {}),
    },
    ...(rq.tools
      ? {
          tools: {
            to: parsePath(rq.tools.to).segments,
            ...(rq.tools.provider ? { provider: rq.tools.provider } : {}),
            ...(rq.tools.unknownProviderTool ? { unknownProviderTool: rq.tools.unknownProviderTool } : {}),
          },
        }
      : {}),
    ...(rq.toolChoice ? { toolChoice: { to: parsePath(rq.toolChoice.to).segments } } : {}),
    ...(rq.responseFormat?.to ? { responseFormat: { to: parsePath(rq.responseFormat.to).segments } } : {}),
    ...(rq.responseFormat?.schemaFallback ? { schemaFallback: rq.responseFormat.schemaFallback } : {}),
    params,
    // Only what is carried is listed.
    carries: trueOnly({
      userName: slotsUsed(t.roles.user).includes('name'),
      // Where only some forms carry the flag (a `$when` on isError), the others report it ($plainText, $output).
      toolError: t.roles.toolError !== undefined || slotsUsed(t.roles.tool).includes('isError'),
      toolStrict: slotsUsed(t.tools?.item).includes('strict'),
      callSignature: slotsUsed(t.blocks.toolCall).includes('signature'),
    }),
    ...(rq.streamBody && Object.keys(rq.streamBody).length ? { streamBody: rq.streamBody } : {}),
    ...(rq.blockingBody && Object.keys(rq.blockingBody).length ? { blockingBody: rq.blockingBody } : {}),
  };
}

function streamProfile(st: Section<'stream'>): Profile['stream'] {
  return { framing: st.framing ?? 'sse', ...(st.unwrap ? { unwrap: st.unwrap } : {}), doneSentinel: st.doneSentinel, ...(st.endsOnClose === true ? { endsOnClose: true } : {}) };
}

function finishProfile(fr: Section<'finish'>): Profile['finish'] {
  return {
    map: (fr.map ?? {}) as Record<string, FinishReason>,
    // Unified values on the right are checked by the finish-table rule.
    other: (fr.other ?? 'other') as FinishReason,
    upgrades: (fr.upgrades ?? []) as Profile['finish']['upgrades'],
    ...(fr.continues?.length ? { continues: fr.continues } : {}),
  };
}

function usageProfile(us: Section<'usage'>): Profile['usage'] {
  return {
    inputTokens: usageCount(us.inputTokens),
    outputTokens: usageCount(us.outputTokens),
    totalTokens: usageCount(us.totalTokens),
    cachedInputTokens: usageCount(us.cachedInputTokens),
    cacheWriteTokens: usageCount(us.cacheWriteTokens),
    reasoningTokens: usageCount(us.reasoningTokens),
    ...(us.otherModels
      ? {
          otherModels: {
            over: parsePath(us.otherModels.over).segments,
            only: stepFilter(us.otherModels.only),
            kind: parsePath(us.otherModels.kind).segments,
            model: parsePath(us.otherModels.model).segments,
          },
        }
      : {}),
  };
}

function stepFilter(f: StepFilterDocument): StepFilter {
  return { at: parsePath(f.at).segments, test: toTest(f.test) };
}

function errorsProfile(er: Section<'errors'>): Profile['errors'] {
  const segs = (v: unknown) => pathList(v).map((p) => p.segments);
  return {
    message: segs(er.message ?? ['error.message', 'message', 'error']),
    type: segs(er.type),
    code: segs(er.code),
    requestIdHeader: er.requestIdHeader?.toLowerCase(),
    ...(er.typeHeader ? { typeHeader: er.typeHeader.toLowerCase() } : {}),
    // The runtime's defaults (408, 409, 429, 5xx; no exceptions) are left out.
    ...retryableOf(er.retryable ?? [408, 409, 429, '5xx']),
    ...(er.noRetry?.length ? { noRetry: er.noRetry } : {}),
    ...(er.retryDelay ? { retryDelay: segs(er.retryDelay) } : {}),
  };
}

/** Only what differs from the defaults (scope provider, reasoning from elsewhere dropped, no rules). */
function continuityProfile(c: SpecDocument['continuity']): NonNullable<Profile['continuity']> {
  return {
    ...(c?.scope === 'model' ? { scope: 'model' as const } : {}),
    ...(c?.foreignThinking === 'text' ? { foreignThinking: 'text' as const } : {}),
    ...(c?.rules?.length
      ? {
          rules: c.rules.map((r) => ({
            when: Object.fromEntries(Object.entries(r.when).map(([k, v]) => [k, toTest(v)])),
            // An empty list is left out (the runtime reads a missing one as none).
            ...(r.require?.length ? { require: r.require } : {}),
            ...(r.drop?.length ? { drop: r.drop } : {}),
            ...(r.ensure?.length ? { ensure: r.ensure } : {}),
            ...(r.body ? { body: r.body } : {}),
          })),
        }
      : {}),
    ...(c?.carry ? { carry: c.carry.map((x) => ({ kind: x.kind, from: x.from ? parsePath(x.from).segments : [], to: parsePath(x.to).segments })) } : {}),
  };
}

function usageCount(v: UsageCountDocument | undefined): UsageCount {
  const segs = (x: unknown) => pathList(x).map((p) => p.segments);
  if (v === undefined || typeof v === 'string' || Array.isArray(v)) return segs(v);
  // Without the list, the same fields read at the top level (a step's fields are the turn's).
  return { over: parsePath(v.over).segments, sum: segs(v.sum), otherwise: segs(v.otherwise ?? v.sum), ...(v.only ? { only: stepFilter(v.only) } : {}) };
}

const PART_TYPES = ['tool-call', 'provider-tool-call', 'provider-tool-result', 'source', 'file', 'approval-request', 'opaque'] as const;

/** The kind table, in the runtime's types; a `null` kind (an overlay removing one) is left out. */
function buildParts(p: PartsDocument | undefined): PartsProfile {
  const kinds: Record<string, KindRule> = {};
  for (const [name, k] of Object.entries(p?.kinds ?? {})) if (k) kinds[name] = buildKind(k);
  const citation: Record<string, readonly (readonly (string | number)[])[]> = {};
  for (const [k, v] of Object.entries(p?.citation ?? {})) citation[k] = pathList(v).map((x) => x.segments);
  return { ...(Object.keys(kinds).length ? { kinds } : {}), ...(p?.citation ? { citation } : {}), ...(p?.unknown === 'ignore' ? { unknown: 'ignore' as const } : {}) };
}

function buildKind(k: KindDocument): KindRule {
  const docs: PartDocument[] = [...(k.parts ?? [])];
  const single: PartDocument = {};
  for (const t of PART_TYPES) if (k[t]) single[t] = k[t];
  if (Object.keys(single).length) docs.unshift(single);
  return { parts: docs.map(partRule), echo: k.echo !== false, ...(k.json ? { json: k.json } : {}), ...(k.snapshot ? { snapshot: true as const } : {}) };
}

function partRule(d: PartDocument): PartRule {
  const type = PART_TYPES.find((t) => d[t] !== undefined)!;
  const doc: PartFieldsDocument = d[type]!;
  const fields: Record<string, PartField> = {};
  for (const [name, v] of Object.entries(doc)) {
    if (name === 'each') continue;
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
      fields[name] =
        'test' in v
          ? { at: parsePath(v.at).segments, test: toTest(v.test) }
          : 'values' in v
            ? { at: parsePath(v.at).segments, values: v.values, ...(v.default !== undefined ? { default: v.default } : {}) }
            : { value: v.value };
    }
    else fields[name] = pathList(v).map((x) => x.segments);
  }
  return { part: type, ...(typeof doc.each === 'string' ? { each: parsePath(doc.each).segments } : {}), fields };
}

function buildParam(field: ParamField, v: ParamDocument): ParamRule {
  if (typeof v === 'string') return { to: parsePath(v).segments };
  const o = v;
  if (o.drop !== undefined) return { drop: o.drop };
  if (o.reject !== undefined) return { reject: o.reject };
  const values: Record<string, Scalar> = {};
  const silent: string[] = [];
  // `$nothing` is resolved here: such a value sends nothing, and no sentinel reaches the runtime.
  for (const [k, x] of Object.entries(o.values ?? {})) {
    if (x === '$nothing') silent.push(k);
    else values[k] = x;
  }
  return {
    to: parsePath(o.to ?? field).segments,
    ...(o.values ? { values } : {}),
    ...(silent.length ? { silent } : {}),
    ...(o.template !== undefined ? { template: true as const } : {}),
    // Summed terms that are not unified fields are reported by the fidelity rule.
    ...(o.default !== undefined ? { default: o.default as DefaultValue } : {}),
    // The `tools` subject is compiled into the codec (toolsTest); the rest is read by the param rules.
    ...(o.when && Object.keys(o.when).some((k) => k !== 'tools')
      ? { when: Object.fromEntries(Object.entries(o.when).flatMap(([k, x]) => (k === 'tools' ? [] : [[k, toTest(x)]]))) }
      : {}),
  };
}

/** A condition's `tools` subject, `{ exists: true | false }` (other tests there are a diagnostic). */
function toolsTest(when: Readonly<Record<string, unknown>> | undefined): boolean | undefined {
  const t = when?.tools === undefined ? undefined : toTest(when.tools);
  return t && 'exists' in t ? t.exists : undefined;
}

/** The section whose templates read this unified field through a slot, if any. */
function templateReading(t: TemplatesIR, field: ParamField): string | undefined {
  for (const [section, forms] of [['toolChoice', t.toolChoice]] as const) {
    for (const node of Object.values(forms)) if (node && slotsOf(node).some((s) => SLOT_FIELDS[s.name] === field)) return section;
  }
  return undefined;
}

/** Every place the request writes in the body, for the write-conflict check. */
function bodyWrites(rq: RequestDocument): SpecIR['writes'] {
  const writes: SpecIR['writes'] = [];
  const add = (path: unknown, pointer: string, merge = false) => {
    if (typeof path === 'string') writes.push({ path: parsePath(path), pointer, merge });
  };
  add(rq.model, '/request/model');
  if (rq.system?.placement === 'field') add(rq.system.to, '/request/system/to');
  add(rq.messages?.to ?? 'messages', '/request/messages/to');
  add(rq.tools?.to, '/request/tools/to');
  add(rq.toolChoice?.to, '/request/toolChoice/to');
  add(rq.responseFormat?.to, '/request/responseFormat/to');
  for (const [field, v] of Object.entries(rq.params ?? {})) {
    if (typeof v === 'string') add(v, `/request/params/${escapePointer(field)}`);
    else if (v.drop === undefined && v.reject === undefined) add(v.to ?? field, `/request/params/${escapePointer(field)}`);
  }
  // A response-format form whose object other writes go inside shares that object (Gemini's generationConfig).
  for (const w of writes) {
    if (w.pointer === '/request/responseFormat/to') w.merge = writes.some((o) => o !== w && o.path.text.startsWith(`${w.path.text}.`));
  }
  return writes;
}


export function buildRules(rules: RulesDocument, pointer: string): Rule[] {
  const entries = Object.entries(rules).filter((e): e is [string, RuleDocument] => e[1] !== null && e[1] !== undefined);
  // `before: X` moves a rule ahead of X (an overlay's rules otherwise follow its base's).
  const missing = new Set<string>();
  for (const [name, r] of entries.filter(([, r]) => r.before !== undefined)) {
    if (!entries.some(([n]) => n === r.before) || r.before === name) {
      missing.add(name);
      continue;
    }
    entries.splice(entries.findIndex(([n]) => n === name), 1);
    entries.splice(entries.findIndex(([n]) => n === r.before), 0, [name, r]);
  }
  return entries.map(([name, r]) => {
    const rule = buildRule(name, r, `${pointer}/${escapePointer(name)}`);
    if (missing.has(name)) rule.beforeMissing = r.before;
    return rule;
  });
}

function buildRule(name: string, r: RuleDocument, pointer: string): Rule {
  const when = buildConditions(r.when ?? {});
  const each = r.each ? parsePath(r.each) : undefined;
  if (r.switch !== undefined) {
    return {
      name,
      pointer,
      when,
      each,
      body: {
        kind: 'switch',
        on: parsePath(r.switch),
        cases: Object.entries(r.cases ?? {}).map(([value, rules]) => ({
          value,
          rules: buildRules(rules ?? {}, `${pointer}/cases/${escapePointer(value)}`),
        })),
      },
    };
  }
  if (r.rules !== undefined) return { name, pointer, when, each, body: { kind: 'group', rules: buildRules(r.rules, `${pointer}/rules`) } };
  const key = ACTIONS.find((k) => r[k] !== undefined) ?? 'end';
  return { name, pointer, when, each, body: { kind: 'action', action: buildAction(key, r) } };
}

function buildConditions(w: ConditionValue): Condition[] {
  return Object.entries(w).map(([p, v]): Condition => ({ path: parsePath(p), test: toTest(v) }));
}

function buildAction(key: ActionKey, r: RuleDocument): Action {
  const opt = (p: unknown) => (typeof p === 'string' ? parsePath(p) : undefined);
  switch (key) {
    case 'meta': {
      const v = r.meta ?? {};
      return { kind: 'meta', id: pathList(v.id), model: pathList(v.model) };
    }
    case 'text': {
      const v = r.text;
      if (typeof v === 'string' || Array.isArray(v) || v === undefined) return { kind: 'text', paths: pathList(v), start: false };
      return { kind: 'text', paths: pathList(v.text), start: v.start === true || v.phase !== undefined || v.id !== undefined, citations: opt(v.citations), signature: opt(v.signature), phase: opt(v.phase), id: opt(v.id) };
    }
    case 'part': {
      const v = r.part;
      if (typeof v === 'string') return { kind: 'part', kindAt: parsePath(v) };
      return { kind: 'part', name: v?.kind, kindAt: opt(v?.kindAt), at: opt(v?.at), open: opt(v?.open), delta: opt(v?.delta) };
    }
    case 'refusal':
      return { kind: 'refusal', paths: pathList(r.refusal) };
    case 'thinking': {
      const v = r.thinking ?? {};
      return {
        kind: 'thinking',
        start: v.start === true,
        break: v.break,
        index: opt(v.index),
        text: pathList(v.text),
        summary: opt(v.summary),
        signature: opt(v.signature),
        redacted: opt(v.redacted),
        id: opt(v.id),
        format: opt(v.format),
      };
    }
    case 'toolCall': {
      const v = r.toolCall ?? {};
      return {
        kind: 'toolCall',
        start: v.start === true,
        complete: v.complete === true,
        end: v.end === true,
        index: opt(v.index),
        id: opt(v.id),
        name: opt(v.name),
        arguments: opt(v.arguments),
        argumentsFull: opt(v.argumentsFull),
        argumentsObject: opt(v.argumentsObject),
        signature: opt(v.signature),
        wire: opt(v.wire),
        continues: opt(v.continues),
        pieces: v.pieces
          ? {
              each: parsePath(v.pieces.each),
              path: parsePath(v.pieces.path),
              continues: opt(v.pieces.continues),
              string: opt(v.pieces.string),
              number: opt(v.pieces.number),
              boolean: opt(v.pieces.boolean),
              null: opt(v.pieces.null),
            }
          : undefined,
      };
    }
    case 'finish':
      return { kind: 'finish', paths: pathList(r.finish) };
    case 'usage': {
      const v = r.usage;
      return typeof v === 'string' || Array.isArray(v) || v === undefined
        ? { kind: 'usage', paths: pathList(v), merge: false }
        : { kind: 'usage', paths: pathList(v.at), merge: v.merge === true };
    }
    case 'error': {
      const v = r.error ?? {};
      return { kind: 'error', at: opt(v.at), message: pathList(v.message), type: pathList(v.type), code: pathList(v.code) };
    }
    case 'end':
      return { kind: 'end' };
  }
}

/** The retryable statuses as the profile holds them: nothing when they are the runtime's default. */
function retryableOf(statuses: ReadonlyArray<number | string>): Pick<Profile['errors'], 'retryable'> {
  const retryable = {
    codes: statuses.filter((s): s is number => typeof s === 'number'),
    ranges: statuses.filter((s): s is string => typeof s === 'string').map((s) => [Number(s[0]) * 100, Number(s[0]) * 100 + 99] as const),
  };
  return JSON.stringify(retryable) === JSON.stringify(RETRYABLE_BY_DEFAULT) ? {} : { retryable };
}

/** The flags that are set, each as `true` (a profile lists only what holds). */
function trueOnly<K extends string>(flags: Record<K, boolean>): Partial<Record<K, true>> {
  const out: Partial<Record<K, true>> = {};
  for (const k of Object.keys(flags) as K[]) if (flags[k]) out[k] = true;
  return out;
}

/** `{ [key]: value }`, or nothing when the value has no keys (a section left at its defaults). */
function nonEmpty<K extends string, V extends object>(key: K, value: V): Partial<Record<K, V>> {
  return Object.keys(value).length ? ({ [key]: value } as Record<K, V>) : {};
}
