/** Generated docs (handlebars): the provider table with every request field's fate, and continuity state. */
import Handlebars from 'handlebars';
import { readFileSync } from 'node:fs';
import type { Condition, ParamField, ParamRule, Test } from '../../runtime/contract/profile.js';
import type { ContinuityRule } from '../../runtime/contract/profile.js';
import { ACTION_DOCS } from '../ir/action-docs.js';
import { ACTIONS } from '../ir/actions.js';
import { SLOT_FIELDS, SLOTS } from '../ir/slots.js';
import type { SpecIR } from '../ir/types.js';
import { serveNotes } from '../check/serve-notes.js';

const hbs = Handlebars.create();
// Markdown table cells: no pipes, no line breaks; everything else is text.
hbs.registerHelper('cell', (v: unknown) => new Handlebars.SafeString(String(v ?? '').replace(/\|/g, '\\|').replace(/[\r\n\u2028\u2029]+/g, ' ')));

const template = (name: string) =>
  hbs.compile(readFileSync(new URL(`./templates/${name}.hbs`, import.meta.url), 'utf8'), { noEscape: true, strict: true });

export function emitDocs(irs: SpecIR[], schema: JsonSchema): Map<string, string> {
  const sorted = [...irs].sort((a, b) => a.id.localeCompare(b.id));
  const providers = sorted.map((ir) => {
    const p = ir.profile;
    return {
      id: ir.id,
      name: p.name,
      extends: ir.base ?? '',
      endpoint: p.endpoint.baseUrlRequired ? `(your base URL)${p.endpoint.path}` : `${p.endpoint.baseUrl ?? ''}${p.endpoint.path}`,
      framing: { sse: 'SSE', ndjson: 'NDJSON', 'event-stream': 'AWS event-stream' }[p.stream.framing],
      auth: authOf(p.endpoint),
      options: Object.entries(p.endpoint.options ?? {}).map(([name, o]) => ({
        name,
        from: [
          ...(o.env ?? []).map((e) => `\`${e}\``),
          ...(o.cases ? Object.entries(o.cases.values).map(([v, d]) => `\`${d}\` when ${o.cases!.on} is \`${v}\``) : []),
          ...(o.default !== undefined ? [`default \`${o.default}\``] : ['required']),
        ].join(', '),
        about: o.description ?? '',
      })),
      fields: fieldDispositions(ir),
      scope: p.continuity?.scope ?? 'provider',
      state: ir.continuityState.map((s) => ({ field: s.field, wire: s.wire, echo: s.echo ?? '' })),
      rules: (p.continuity?.rules ?? []).map((r) => ({ when: describeWhen(r.when), what: describeRule(r) })),
      providerTools: Object.entries(p.request.tools?.provider ?? {}).map(([name, form]) => ({ name, wire: JSON.stringify(form) })),
      unknownProviderTool: p.request.tools?.unknownProviderTool === 'reject' ? 'rejected' : 'dropped with a warning',
      kinds: Object.entries(p.parts?.kinds ?? {}).map(([kind, k]) => ({
        kind,
        parts: k.parts.map((r) => (r.each ? `${r.part} (one per \`${path(r.each)}\`)` : r.part)).join(', '),
        back: k.echo ? 'verbatim' : 'not sent',
      })),
      unknownKinds: p.parts ? (p.parts.unknown !== 'ignore' ? 'kept as `opaque` parts, sent back verbatim' : 'not read') : '',
      // Said for each spec, inherited ones included: a reader of one provider's section sees all of its own.
      serveNotes: serveNotes(ir).map((n) => n.message),
    };
  });
  return new Map([
    ['continuity.md', template('continuity.md')({ providers })],
    ['providers.md', template('providers.md')({ providers })],
    ['spec-language.md', template('spec-language.md')(specLanguage(schema))],
  ]);
}

const path = (segments: readonly (string | number)[] | undefined) => (segments ?? []).join('.');

/** How a spec authenticates, for the providers table. */
function authOf(ep: SpecIR['profile']['endpoint']): string {
  const key = ep.apiKeyEnv ? `\`${ep.apiKeyEnv}\`` : 'apiKey';
  if (ep.auth.sigv4) return `AWS SigV4 (\`aws\` or \`AWS_*\`)${ep.apiKeyEnv ? `, or a key in ${key}` : ''}`;
  if (ep.auth.from === 'token') return `access token (\`getToken\`)${ep.apiKeyEnv ? ` or ${key}` : ''}`;
  return `${key}${ep.apiKeyOptional ? ' (optional)' : ''}`;
}

function fieldDispositions(ir: SpecIR): Array<{ field: string; disposition: string }> {
  const rq = ir.profile.request;
  const t = ir.templates;
  const out: Array<{ field: string; disposition: string }> = [];
  out.push({ field: 'model', disposition: rq.model ? `mapped: \`${path(rq.model)}\`` : 'mapped: URL path `{model}`' });
  out.push({
    field: 'system',
    disposition: rq.system.placement === 'message' ? 'mapped: a system message' : `mapped: \`${path(rq.system.to)}\` (several joined)`,
  });
  out.push({ field: 'messages', disposition: `mapped: \`${path(rq.messages.to)}\`` });
  out.push({ field: 'tools', disposition: rq.tools ? `mapped: \`${path(rq.tools.to)}\`` : 'dropped' });
  const forms = (o: Record<string, unknown>, keys: string[]) => keys.filter((k) => o[k] !== undefined);
  out.push({
    field: 'toolChoice',
    disposition: rq.toolChoice
      ? `mapped: \`${path(rq.toolChoice.to)}\` (${forms(t.toolChoice, ['auto', 'none', 'required', 'named']).join(', ')}; others dropped)${toolsNote(t.toolsWhen.toolChoice)}`
      : 'dropped',
  });
  const merged = ir.writes.some((w) => w.merge);
  // How a typed reply (a schema) travels when the wire has no JSON-schema form of its own.
  const fallback = rq.schemaFallback ? `; a typed reply by ${rq.schemaFallback === 'tool' ? 'a forced tool' : 'an instruction in the system prompt (warned)'}` : '';
  out.push({
    field: 'responseFormat',
    disposition: rq.responseFormat
      ? `mapped: \`${path(rq.responseFormat.to)}\`${merged ? ' (merged)' : ''} (${forms(t.responseFormat, ['text', 'json', 'jsonSchema']).join(', ')}; others dropped${fallback})`
      : `dropped${fallback}`,
  });
  for (const [field, p] of Object.entries(rq.params)) out.push({ field, disposition: describeParam(p!) + toolsNote(t.toolsWhen.params[field as ParamField]) });
  out.push({ field: 'providerOptions', disposition: 'merged into the body; standard fields win' });
  return out;
}

/** A `tools` condition, as the providers table says it. */
function toolsNote(exists: boolean | undefined): string {
  return exists === undefined ? '' : exists ? ', only with tools declared' : ', only without tools declared';
}

function describeParam(p: ParamRule): string {
  if ('drop' in p) return `dropped: ${p.drop}`;
  if ('reject' in p) return `rejected: ${p.reject}`;
  if ('carriedBy' in p) return `mapped: inside ${p.carriedBy}`;
  const d = p.default;
  const def =
    d === undefined ? '' : typeof d === 'object' && d !== null && 'sum' in d ? ` (default ${d.sum.map((x) => JSON.stringify(x)).join(' + ').replace(/"/g, '')})` : ` (default ${JSON.stringify(d)})`;
  return `mapped: \`${path(p.to)}\`${def}${p.values ? ' (by table)' : ''}`;
}

const FACTS: Record<string, string> = {
  store: 'store',
  model: 'the model',
  reasoning: 'reasoning is asked for',
  toolTurnWithoutThinking: 'the conversation continues a tool turn without reasoning (from another provider)',
};

function describeWhen(w: Condition): string {
  const parts = Object.entries(w).map(([fact, t]) => {
    // Boolean facts read as statements: "reasoning is asked for", or "not: …".
    if ('eq' in t && typeof t.eq === 'boolean' && fact !== 'store') return t.eq ? FACTS[fact]! : `not: ${FACTS[fact]}`;
    return `${FACTS[fact] ?? fact} ${describeTest(t)}`;
  });
  return parts.join(' and ') || 'always';
}

function describeTest(t: Test): string {
  if ('eq' in t) return `is ${JSON.stringify(t.eq)}`;
  if ('in' in t) return `is one of ${t.in.map((v) => JSON.stringify(v)).join(', ')}`;
  if ('exists' in t) return t.exists ? 'is set' : 'is not set';
  if ('matches' in t) return `matches \`${t.matches}\``;
  if ('matches' in t.not) return `does not match \`${t.not.matches}\``;
  return `not (${describeTest(t.not)})`;
}

function describeRule(r: ContinuityRule): string {
  const parts: string[] = [];
  const thinking = (r.drop ?? []).filter((f) => f === 'thinking');
  const fields = (r.drop ?? []).filter((f) => f !== 'thinking');
  if (r.require?.length) parts.push(`reasoning without ${r.require.join(', ')} is not sent (warning)`);
  if (thinking.length) parts.push('thinking is never sent back');
  if (r.ensure?.length) parts.push(`every assistant turn carries ${r.ensure.join(', ')} (empty if it had none)`);
  if (fields.length) parts.push(`${fields.join(', ')} dropped (warning)`);
  if (r.body) parts.push(`the body gets \`${JSON.stringify(r.body)}\``);
  return parts.join('; ');
}

export type JsonSchema = { [key: string]: unknown };

/** The reference's data: every key of the schema (refs followed, each definition listed once), slots, actions. */
function specLanguage(schema: JsonSchema) {
  const defs = (schema.definitions ?? {}) as Record<string, JsonSchema>;
  const keys: Array<{ path: string; type: string; description: string }> = [];
  const expanded = new Set<string>();
  const visit = (node: JsonSchema, path: string, depth: number): void => {
    const ref = typeof node.$ref === 'string' ? node.$ref.replace('#/definitions/', '') : undefined;
    const target = ref ? (defs[ref] ?? {}) : node;
    const props = target.properties as Record<string, JsonSchema> | undefined;
    // Rules and templates are described in their own sections; a definition is expanded once.
    if (ref && (ref === 'rules' || ref === 'rule' || expanded.has(ref))) return;
    if (ref) expanded.add(ref);
    if (!props || depth > 6) return;
    for (const [k, v] of Object.entries(props)) {
      if (k === '$schema') continue;
      const p = path ? `${path}.${k}` : k;
      keys.push({ path: p, type: typeOf(v, defs), description: describe(v, defs) });
      visit(v, p, depth + 1);
      const extra = v.additionalProperties as JsonSchema | undefined;
      if (extra && typeof extra === 'object' && (extra.properties || extra.$ref)) visit(extra, `${p}.<name>`, depth + 1);
      const items = v.items as JsonSchema | undefined;
      if (items && typeof items === 'object') visit(items, `${p}[]`, depth + 1);
    }
  };
  visit(schema, '', 0);
  return {
    keys,
    facts: ['store', 'model', 'reasoning', 'toolTurnWithoutThinking'],
    slots: Object.entries(SLOTS)
      .filter(([, names]) => names.length)
      .map(([context, names]) => ({ context, names })),
    slotFields: Object.entries(SLOT_FIELDS).map(([slot, field]) => ({ slot, field })),
    actions: ACTIONS.map((name) => ({ name, ...ACTION_DOCS[name] })),
  };
}

/** Shared definitions are explained once, in their own section; a key says only what it is for. */
const SHARED: Record<string, string> = {
  template: 'A template (see Templates and slots).',
  templateOrNull: 'A template; `$nothing` sends nothing for this form, a form left out is unsupported (dropped with a warning).',
  path: 'A payload path: dot-separated keys, a number indexes an array (`choices.0.delta`); `$` is the payload itself.',
  paths: 'A path, or a list of paths (the first present wins; summed where counts are).',
  condition: 'A condition (see Conditions).',
  test: 'A test (see Conditions).',
  rules: 'Reader rules (see Reader rules and actions).',
};

function describe(v: JsonSchema, defs: Record<string, JsonSchema>): string {
  if (typeof v.description === 'string') return v.description;
  const ref = typeof v.$ref === 'string' ? v.$ref.replace('#/definitions/', '') : undefined;
  if (ref && SHARED[ref]) return SHARED[ref]!;
  return String((ref ? defs[ref]?.description : undefined) ?? '');
}

function typeOf(node: JsonSchema, defs: Record<string, JsonSchema>): string {
  const ref = typeof node.$ref === 'string' ? node.$ref.replace('#/definitions/', '') : undefined;
  if (ref) return ref === 'path' ? 'path' : ref === 'paths' ? 'path or paths' : ref.startsWith('template') ? 'template' : ref === 'rules' ? 'rules' : ref === 'condition' ? 'condition' : ref === 'test' ? 'test' : typeOf(defs[ref] ?? {}, defs);
  if (Array.isArray(node.enum)) return node.enum.map((e) => JSON.stringify(e)).join(' or ');
  if (Array.isArray(node.type)) return node.type.join(' or ');
  if (typeof node.type === 'string') return node.type === 'array' && (node.items as JsonSchema | undefined)?.type ? `${(node.items as JsonSchema).type}[]` : node.type;
  if (node.anyOf) return (node.anyOf as JsonSchema[]).map((n) => typeOf(n, defs)).join(' or ');
  return 'any';
}
