/**
 * Unified request → wire body, for every provider: the profile says where each thing goes, the
 * codec's templates say what it looks like. The per-adapter work (which fields are mapped,
 * dropped or rejected, how each value is transformed) is planned once, when the adapter is
 * made; a request runs the plan.
 */
import type { Codec, ParamRulesUnit, RoleTemplates } from '../contract/codec.js';
import type { MessageContext } from '../contract/message-context.js';
import type { DefaultValue, ParamField, Profile, WirePath } from '../contract/profile.js';
import { paramReader } from '../contract/param-fields.js';
import type { BuiltRequest, CallMode, ParamStep } from '../contract/request.js';
import type { ChatRequest, FunctionToolSpec, Message } from '../contract/unified-model.js';
import { useOf } from '../errors.js';
import { finalizeBody } from './finalize-body.js';
import { TemplateContext } from './message-context.js';
import { prepareConversation } from './prepare-conversation.js';
import { toolChoiceForm } from './tool-choice.js';
import { setPath } from './set-path.js';
import { Warnings } from './warnings.js';
import { hasOwn, isArray, keys } from '../wire/read-path.js';

interface Plan {
  /** Fields dropped or rejected with a reason. */
  warns: Array<{ get: (r: ChatRequest) => unknown; field: ParamField; reason: string; reject: boolean }>;
  /** Fields written to the body. */
  writes: Array<{ get: (r: ChatRequest) => unknown; to: WirePath; step: ParamStep | undefined }>;
  defaults: Array<{ to: WirePath; value: DefaultValue }>;
  /** The unit for value tables, conditions and defaults, when the spec has any. */
  rules: ParamRulesUnit | undefined;
}

/** The request builder of one adapter. */
export const requestBuilder = (profile: Profile, codec: Codec): ((input: ChatRequest, mode: CallMode) => BuiltRequest) => {
  const plan = planParams(profile, codec);
  const rq = profile.request;
  const continuity = { ...profile.continuity, provider: profile.id };
  const wireName = profile.name;
  // Where the spec puts each part of the request, read once.
  const { system, messages: toMessages, tools: toTools, toolChoice: toChoice, responseFormat: toFormat } = rq;
  // The tool templates, when the spec also has a place for tools.
  const toolForms = toTools && codec.tools;
  const noTools = `${wireName} takes no tools`;
  const parallel = rq.params.parallelToolCalls;
  const choiceRules =
    (codec.toolChoice.unset || (parallel !== undefined && 'carriedBy' in parallel)) &&
    useOf(codec, profile.id, 'toolChoiceRules');
  const rules = codec.uses?.continuity ?? codec.uses?.foreignTurns;
  const hostedTools = (toTools?.provider || toTools?.unknownProviderTool) && useOf(codec, profile.id, 'providerTools');
  const joined = toMessages.merge;
  const merge = joined && useOf(codec, profile.id, 'merge');
  return (input, mode) => {
    const w = new Warnings(profile.id, wireName);
    // History first: continuity rules may take fields out of what this conversation can carry.
    const conv = prepareConversation(input, system.placement, system.join, continuity, w, rules);
    const req = conv.request;
    for (const s of plan.warns) {
      if (s.get(req) === undefined) continue;
      if (s.reject) w.reject(s.field, s.reason);
      w.drop(s.field, s.reason);
    }
    if (!toolForms && req.tools?.length) w.drop('tools', noTools);
    if (!toChoice && req.toolChoice !== undefined) w.lacks('toolChoice', 'tool choice');
    if (!toFormat && req.responseFormat !== undefined) w.lacks('responseFormat', 'response format setting');

    const cx = new (codec.uses?.blocks ?? TemplateContext)(codec.parts, codec.blocks, w);
    const mapped: unknown[] = [];
    for (let i = 0; i < conv.messages.length; i++) {
      const m = conv.messages[i]!;
      cx.at(conv.origins[i]!);
      mapped.push(cx.finish(m, mapMessage(m, profile, codec, cx, w)));
    }
    const items = spreadItems(mapped, toMessages.spread);
    const messages = merge ? merge(items, joined!.field, joined!.join, codec.parts.text) : items;

    const body: Record<string, unknown> = {};
    if (rq.model && req.model !== undefined) setPath(body, rq.model, req.model);
    if (system.placement === 'field' && system.to && conv.system !== undefined) {
      setPath(body, system.to, codec.system ? codec.system(conv.system) : conv.system);
    }
    setPath(body, toMessages.to, messages);
    if (toolForms && req.tools?.length) {
      const functions: FunctionToolSpec[] = [];
      const hosted: unknown[] = [];
      req.tools.forEach((t, i) => {
        if (t.type === 'provider') {
          const wire = hostedTools ? hostedTools(t, i, toTools!, wireName, w) : w.lacks(`tools[${i}]`, `provider tool "${t.name}"; it was not sent`);
          if (wire !== undefined) hosted.push(wire);
          return;
        }
        if (t.strict !== undefined && !rq.carries.toolStrict) w.lacks(`tools[${i}].strict`, 'strict flag on tools');
        functions.push(t);
      });
      const items = functions.map(toolForms.item);
      const declared = items.length === 0 ? [] : toolForms.wrap ? toolForms.wrap(items) : items;
      // Provider-run tools sit beside the function declarations (Gemini: beside the functionDeclarations entry).
      const all = isArray(declared) ? [...declared, ...hosted] : declared;
      if (!isArray(all) || all.length) setPath(body, toTools!.to, all);
    }
    if (toChoice) {
      const choice = choiceRules ? choiceRules(req, profile, codec, w) : req.toolChoice === undefined ? undefined : toolChoiceForm(req, profile, codec, w, undefined);
      setPath(body, toChoice.to, choice);
    }
    if (toFormat && req.responseFormat !== undefined) setPath(body, toFormat.to, responseFormat(req, profile, codec, w));
    for (const s of plan.writes) {
      let v = s.get(req);
      if (v === undefined) continue;
      if (s.step) v = s.step(v, req, w);
      if (v !== undefined) setPath(body, s.to, v);
    }
    const forced = mode === 'stream' ? rq.streamBody : rq.blockingBody;
    return {
      // State the last turn returned for the next request (a container id) fills like a default.
      body: finalizeBody(body, conv.body ? { ...forced, ...conv.body } : forced, req.providerOptions, w, conv.carried, plan.rules?.defaults(plan.defaults, req)),
      model: req.model,
      pathParams: { model: req.model },
      warnings: w.list,
    };
  };
};

const planParams = (profile: Profile, codec: Codec): Plan => {
  const warns: Plan['warns'] = [];
  const writes: Plan['writes'] = [];
  const defaults: Plan['defaults'] = [];
  let rules: ParamRulesUnit | undefined;
  // In the profile's order, which generated profiles keep as PARAM_FIELDS has it.
  for (const field of keys(profile.request.params) as ParamField[]) {
    const rule = profile.request.params[field];
    const get = paramReader(field);
    if (rule === undefined || 'carriedBy' in rule) continue;
    const drop = 'drop' in rule;
    if (drop || 'reject' in rule) warns.push({ get, field, reason: drop ? rule.drop : rule.reject, reject: !drop });
    else {
      // The codec's step: the field's template, and a `tools` condition the generator compiled in.
      const template = codec.params?.[field] as ParamStep | undefined;
      let step = template;
      if (rule.values || rule.silent || rule.when || rule.default !== undefined) {
        rules = useOf(codec, profile.id, 'paramRules');
        if (rule.values || rule.silent || rule.when) step = rules.step(field, rule, template);
        if (rule.default !== undefined) defaults.push({ to: rule.to, value: rule.default });
      }
      writes.push({ get, to: rule.to, step });
    }
  }
  return { warns, writes, defaults, rules };
};

const mapMessage = (m: Message, p: Profile, c: Codec, cx: MessageContext, w: Warnings): unknown => {
  // Runs once per message of every request: one table lookup, and a closure only for a wire with
  // no place for call signatures. With placement `field`, prepareConversation took system
  // messages out already.
  const carries = p.request.carries;
  const wire = p.name;
  let role: keyof RoleTemplates = m.role;
  if (m.role === 'user' && m.name !== undefined && !carries.userName) w.lacks(`${cx.where()}.name`, 'field for a participant name');
  if (m.role === 'assistant' && !carries.callSignature && m.toolCalls?.some((t) => t.signature !== undefined)) {
    w.lacks(`${cx.where()}.toolCalls`, 'place for tool-call signatures; they were not sent');
  }
  if (m.role === 'tool' && m.isError) {
    if (c.roles.toolError) role = 'toolError';
    else if (!carries.toolError) w.drop(`${cx.where()}.isError`, `${wire} cannot mark a tool result as an error; it was sent as a plain result`);
  }
  const template = c.roles[role] as ((m: Message, cx: MessageContext) => unknown) | undefined;
  if (template) return template(m, cx);
  return w.drop(cx.where(), `${wire} ${m.role === 'approval' ? 'takes no approval responses' : 'has no template for this role'}; the message was not sent`);
};

/** Each response format: the codec's form for it, and what the warning says when there is none. */
const FORMATS = {
  text: ['text', 'plain-text response format'],
  json: ['json', 'schemaless JSON mode; use json_schema'],
  json_schema: ['jsonSchema', 'JSON-schema response format'],
} as const;

const responseFormat = (req: ChatRequest, p: Profile, c: Codec, w: Warnings): unknown => {
  const f = req.responseFormat!;
  if (!hasOwn(FORMATS, f.type)) return undefined;
  const [key, missing] = FORMATS[f.type];
  const form = c.responseFormat[key] as ((f: unknown) => unknown) | undefined;
  return form ? form(f) : w.lacks('responseFormat', missing);
};

/**
 * Wire messages in order, where one message may have become several top-level items (an
 * assistant turn written as a bare `$blocks`, as Responses `input` items) and some none. A loop,
 * not flatMap: this runs on every request and flatMap costs about a microsecond here.
 */
const spreadItems = (mapped: unknown[], spread: boolean | undefined): unknown[] => {
  const out: unknown[] = [];
  for (const m of mapped) {
    if (spread && isArray(m)) for (const item of m) out.push(item);
    else if (m !== undefined) out.push(m);
  }
  return out;
};
