/** Generated docs (handlebars): the provider table with every request field's fate, and continuity state. */
import Handlebars from 'handlebars';
import { readFileSync } from 'node:fs';
import type { Condition, ParamRule, Test } from '../../runtime/profile.js';
import type { SpecIR } from '../ir/types.js';

const hbs = Handlebars.create();
// Markdown table cells: no pipes, no line breaks; everything else is text.
hbs.registerHelper('cell', (v: unknown) => new Handlebars.SafeString(String(v ?? '').replace(/\|/g, '\\|').replace(/[\r\n\u2028\u2029]+/g, ' ')));

const template = (name: string) =>
  hbs.compile(readFileSync(new URL(`./templates/${name}.hbs`, import.meta.url), 'utf8'), { noEscape: true, strict: true });

export function emitDocs(irs: SpecIR[]): Map<string, string> {
  const sorted = [...irs].sort((a, b) => a.id.localeCompare(b.id));
  const providers = sorted.map((ir) => {
    const p = ir.profile;
    return {
      id: ir.id,
      name: p.name,
      extends: ir.base ?? '',
      endpoint: p.endpoint.baseUrlRequired ? `(your base URL)${p.endpoint.path}` : `${p.endpoint.baseUrl ?? ''}${p.endpoint.path}`,
      framing: p.stream.framing === 'ndjson' ? 'NDJSON' : 'SSE',
      apiKeyEnv: p.endpoint.apiKeyEnv ?? '',
      apiKeyOptional: p.endpoint.apiKeyOptional,
      fields: fieldDispositions(ir),
      scope: p.continuity.scope,
      state: ir.continuityState.map((s) => ({ field: s.field, wire: s.wire, echo: s.echo ?? '' })),
      rules: p.continuity.rules.map((r) => ({ when: describeWhen(r.when), what: describeRule(r) })),
    };
  });
  return new Map([
    ['continuity.md', template('continuity.md')({ providers })],
    ['providers.md', template('providers.md')({ providers })],
  ]);
}

const path = (segments: readonly (string | number)[] | undefined) => (segments ?? []).join('.');

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
      ? `mapped: \`${path(rq.toolChoice.to)}\` (${forms(t.toolChoice, ['auto', 'none', 'required', 'named']).join(', ')}; others dropped)`
      : 'dropped',
  });
  const merged = ir.writes.some((w) => w.merge);
  out.push({
    field: 'responseFormat',
    disposition: rq.responseFormat
      ? `mapped: \`${path(rq.responseFormat.to)}\`${merged ? ' (merged)' : ''} (${forms(t.responseFormat, ['text', 'json', 'jsonSchema']).join(', ')}; others dropped)`
      : 'dropped',
  });
  for (const [field, p] of Object.entries(rq.params)) out.push({ field, disposition: describeParam(p!) });
  out.push({ field: 'providerOptions', disposition: 'merged into the body; standard fields win' });
  return out;
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

function describeRule(r: SpecIR['profile']['continuity']['rules'][number]): string {
  const parts: string[] = [];
  const thinking = r.drop.filter((f) => f === 'thinking');
  const fields = r.drop.filter((f) => f !== 'thinking');
  if (r.require.length) parts.push(`reasoning without ${r.require.join(', ')} is not sent (warning)`);
  if (thinking.length) parts.push('thinking is never sent back');
  if (r.ensure.length) parts.push(`every assistant turn carries ${r.ensure.join(', ')} (empty if it had none)`);
  if (fields.length) parts.push(`${fields.join(', ')} dropped (warning)`);
  if (r.body) parts.push(`the body gets \`${JSON.stringify(r.body)}\``);
  return parts.join('; ');
}
