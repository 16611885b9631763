/**
 * Stage 4: a resolved spec document → SpecIR. Only shape work happens here (defaults filled,
 * paths and templates parsed); every judgement about validity lives in validate/rules.
 */
import type { ResolvedSpec } from '../resolve/resolve-extends.js';
import { parsePath, pathList } from './paths.js';
import type { ParamField } from './slots.js';
import { parseTemplate, type TemplateNode } from './templates.js';
import type { Action, Condition, Param, Rule, SpecIR, Variant } from './types.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const ACTION_KEYS = ['meta', 'text', 'refusal', 'thinking', 'toolCall', 'finish', 'usage', 'error', 'end'] as const;

export function buildIR(spec: ResolvedSpec): SpecIR {
  const d = spec.doc as Obj;
  const ep: Obj = d.endpoint ?? {};
  const rq: Obj = d.request ?? {};
  const msgs: Obj = rq.messages ?? {};
  const st: Obj = d.stream ?? {};
  const fr: Obj = d.finishReasons ?? {};
  const us: Obj = d.usage ?? {};
  const er: Obj = d.errors ?? {};
  const tpl = (v: unknown, ptr: string): TemplateNode | undefined => (v === undefined ? undefined : parseTemplate(v, ptr));
  const templates = <K extends string>(o: Obj | undefined, base: string, keys: readonly K[]) => {
    const out: Partial<Record<K, TemplateNode>> = {};
    for (const k of keys) if (o?.[k] !== undefined) out[k] = parseTemplate(o[k], `${base}/${k}`);
    return out;
  };
  const variant = (o: Obj, key: string, base: string): Variant => tpl(o[key], `${base}/${key}`);

  return {
    id: spec.id,
    name: typeof d.name === 'string' ? d.name : spec.id,
    files: spec.chain.map((c) => c.file),
    endpoint: {
      baseUrl: ep.baseUrl,
      baseUrlRequired: ep.baseUrlRequired === true,
      path: ep.path ?? '',
      streamPath: ep.streamPath,
      streamQuery: ep.streamQuery ?? {},
      authHeader: ep.auth?.header ?? 'authorization',
      authScheme: ep.auth?.scheme,
      apiKeyEnv: ep.apiKeyEnv,
      apiKeyOptional: ep.apiKeyOptional === true,
      headers: ep.headers ?? {},
    },
    request: {
      model: { to: rq.model?.to ? parsePath(rq.model.to) : undefined, inPath: rq.model?.inPath === true },
      system: {
        placement: rq.system?.placement ?? 'message',
        to: rq.system?.to ? parsePath(rq.system.to) : undefined,
        join: rq.system?.join ?? '\n\n',
        template: tpl(rq.system?.template, '/request/system/template'),
      },
      messages: {
        to: parsePath(msgs.to ?? 'messages'),
        mergeKey: msgs.mergeConsecutive,
        roles: templates(msgs.roles, '/request/messages/roles', ['system', 'user', 'assistant', 'tool', 'toolError']),
        parts: templates(msgs.parts, '/request/messages/parts', ['text', 'imageUrl', 'imageData']),
        blocks: templates(msgs.blocks, '/request/messages/blocks', ['thinking', 'summaryThinking', 'redactedThinking', 'text', 'toolCall']),
      },
      tools: rq.tools
        ? {
            to: parsePath(rq.tools.to),
            item: parseTemplate(rq.tools.item, '/request/tools/item'),
            wrap: tpl(rq.tools.wrap, '/request/tools/wrap'),
          }
        : undefined,
      toolChoice: rq.toolChoice
        ? {
            to: parsePath(rq.toolChoice.to),
            auto: variant(rq.toolChoice, 'auto', '/request/toolChoice'),
            none: variant(rq.toolChoice, 'none', '/request/toolChoice'),
            required: variant(rq.toolChoice, 'required', '/request/toolChoice'),
            named: variant(rq.toolChoice, 'named', '/request/toolChoice'),
            whenUnset: rq.toolChoice.whenUnset,
          }
        : undefined,
      responseFormat: rq.responseFormat
        ? {
            to: parsePath(rq.responseFormat.into ?? rq.responseFormat.to),
            into: rq.responseFormat.into !== undefined,
            text: variant(rq.responseFormat, 'text', '/request/responseFormat'),
            json: variant(rq.responseFormat, 'json', '/request/responseFormat'),
            jsonSchema: variant(rq.responseFormat, 'jsonSchema', '/request/responseFormat'),
          }
        : undefined,
      params: Object.entries((rq.params ?? {}) as Obj).map(([field, v]) => buildParam(field as ParamField, v)),
      streamBody: rq.stream?.body ?? {},
      blockingBody: rq.blocking?.body ?? {},
    },
    response: buildRules(d.response ?? {}, '/response'),
    stream: {
      framing: st.framing ?? 'sse',
      eventKey: st.eventKey ? parsePath(st.eventKey) : undefined,
      doneSentinel: st.doneSentinel,
      endsOnClose: st.endsOnClose === true,
      ignore: st.ignore ?? [],
      all: buildRules(st.on?.['*'] ?? {}, '/stream/on/*'),
      events: Object.entries((st.on ?? {}) as Obj)
        .filter(([name]) => name !== '*')
        .map(([name, rules]) => ({ name, rules: buildRules(rules ?? {}, `/stream/on/${escape(name)}`) })),
    },
    finish: {
      map: Object.entries((fr.map ?? {}) as Record<string, string>),
      other: fr.other ?? 'other',
      upgrades: fr.upgrades ?? [],
    },
    usage: {
      inputTokens: pathList(us.inputTokens),
      outputTokens: pathList(us.outputTokens),
      totalTokens: pathList(us.totalTokens),
      cachedInputTokens: pathList(us.cachedInputTokens),
      cacheWriteTokens: pathList(us.cacheWriteTokens),
      reasoningTokens: pathList(us.reasoningTokens),
    },
    continuity: {
      scope: d.continuity?.scope ?? 'provider',
      foreignThinking: d.continuity?.foreignThinking ?? 'drop',
      state: d.continuity?.state ?? [],
      rules: ((d.continuity?.rules ?? []) as Obj[]).map((r) => ({
        when: r.when ?? {},
        require: r.require ?? [],
        omit: r.omit ?? [],
        ensure: r.ensure ?? [],
        dropFields: r.dropFields ?? [],
        body: r.body,
        note: r.note,
      })),
    },
    errors: {
      message: pathList(er.message ?? ['error.message', 'message', 'error']),
      type: pathList(er.type),
      code: pathList(er.code),
      requestIdHeader: er.requestIdHeader,
      retryable: ((er.retryable ?? [408, 409, 429, '5xx']) as Array<number | string>).map((s) =>
        typeof s === 'number' ? s : ([Number(s[0]) * 100, Number(s[0]) * 100 + 99] as [number, number]),
      ),
    },
  };
}

function buildParam(field: ParamField, v: unknown): Param {
  if (typeof v === 'string') return { field, kind: 'map', to: parsePath(v) };
  const o = v as Obj;
  if (o.drop !== undefined) return { field, kind: 'drop', reason: o.drop };
  if (o.reject !== undefined) return { field, kind: 'reject', reason: o.reject };
  if (o.via !== undefined) return { field, kind: 'via', via: o.via };
  return {
    field,
    kind: 'map',
    to: parsePath(o.to ?? field),
    default: o.default,
    defaultAdds: o.defaultAdds,
    droppedWhen: o.droppedWhen,
    values: o.values,
    template: o.template === undefined ? undefined : parseTemplate(o.template, `/request/params/${field}/template`),
  };
}

function escape(s: string): string {
  return s.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function buildRules(rules: Obj, pointer: string): Rule[] {
  return Object.entries(rules)
    .filter(([, r]) => r !== null && r !== undefined)
    .map(([name, r]) => buildRule(name, r as Obj, `${pointer}/${escape(name)}`));
}

function buildRule(name: string, r: Obj, pointer: string): Rule {
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
        cases: Object.entries((r.cases ?? {}) as Obj).map(([value, rules]) => ({
          value,
          rules: buildRules(rules ?? {}, `${pointer}/cases/${escape(value)}`),
        })),
      },
    };
  }
  if (r.rules !== undefined) return { name, pointer, when, each, body: { kind: 'group', rules: buildRules(r.rules, `${pointer}/rules`) } };
  const key = ACTION_KEYS.find((k) => r[k] !== undefined) ?? 'end';
  return { name, pointer, when, each, body: { kind: 'action', action: buildAction(key, r[key]) } };
}

function buildConditions(w: Obj): Condition[] {
  return Object.entries(w).map(([p, v]): Condition => {
    const path = parsePath(p);
    if (v !== null && typeof v === 'object') {
      if ('exists' in v) return { path, op: 'exists', exists: v.exists };
      if ('not' in v) return { path, op: 'ne', value: v.not };
      if ('in' in v) return { path, op: 'in', values: v.in };
    }
    return { path, op: 'eq', value: v as string | number | boolean | null };
  });
}

function buildAction(key: (typeof ACTION_KEYS)[number], v: any): Action {
  const opt = (p: unknown) => (typeof p === 'string' ? parsePath(p) : undefined);
  switch (key) {
    case 'meta':
      return { kind: 'meta', id: pathList(v.id), model: pathList(v.model) };
    case 'text':
      return { kind: 'text', paths: pathList(v) };
    case 'refusal':
      return { kind: 'refusal', paths: pathList(v) };
    case 'thinking':
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
    case 'toolCall':
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
      };
    case 'finish':
      return { kind: 'finish', paths: pathList(v) };
    case 'usage':
      return typeof v === 'string' || Array.isArray(v)
        ? { kind: 'usage', paths: pathList(v), merge: false }
        : { kind: 'usage', paths: pathList(v.at), merge: v.merge === true };
    case 'error':
      return { kind: 'error', at: opt(v.at), message: pathList(v.message), type: pathList(v.type), code: pathList(v.code) };
    case 'end':
      return { kind: 'end' };
  }
}
