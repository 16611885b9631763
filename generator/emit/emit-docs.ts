/** Generated docs (handlebars): the provider table with every request field's fate, and continuity state. */
import Handlebars from 'handlebars';
import { readFileSync } from 'node:fs';
import type { Param, SpecIR } from '../ir/types.js';

const hbs = Handlebars.create();
// Markdown table cells: no pipes, no line breaks; everything else is text.
hbs.registerHelper('cell', (v: unknown) => new Handlebars.SafeString(String(v ?? '').replace(/\|/g, '\\|').replace(/[\r\n\u2028\u2029]+/g, ' ')));

const template = (name: string) =>
  hbs.compile(readFileSync(new URL(`./templates/${name}.hbs`, import.meta.url), 'utf8'), { noEscape: true, strict: true });

export function emitDocs(irs: SpecIR[]): Map<string, string> {
  const sorted = [...irs].sort((a, b) => a.id.localeCompare(b.id));
  const base = (ir: SpecIR) => (ir.files.length > 1 ? ir.files[1]!.replace(/^.*\/(.*)\.ya?ml$/, '$1') : undefined);
  const providers = sorted.map((ir) => ({
    id: ir.id,
    name: ir.name,
    extends: base(ir) ?? '',
    endpoint: ir.endpoint.baseUrlRequired ? `(your base URL)${ir.endpoint.path}` : `${ir.endpoint.baseUrl ?? ''}${ir.endpoint.path}`,
    framing: ir.stream.framing === 'ndjson' ? 'NDJSON' : 'SSE',
    apiKeyEnv: ir.endpoint.apiKeyEnv ?? '',
    apiKeyOptional: ir.endpoint.apiKeyOptional,
    fields: fieldDispositions(ir),
    scope: ir.continuity.scope,
    state: ir.continuity.state.map((s) => ({ field: s.field, wire: s.wire, echo: s.echo ?? '' })),
    rules: ir.continuity.rules.map((r) => ({ when: describeWhen(r.when), what: describeRule(r) })),
  }));
  return new Map([
    ['continuity.md', template('continuity.md')({ providers })],
    ['providers.md', template('providers.md')({ providers })],
  ]);
}

function fieldDispositions(ir: SpecIR): Array<{ field: string; disposition: string }> {
  const rq = ir.request;
  const out: Array<{ field: string; disposition: string }> = [];
  out.push({ field: 'model', disposition: rq.model.inPath ? 'mapped: URL path `{model}`' : `mapped: \`${rq.model.to?.text ?? 'model'}\`` });
  out.push({
    field: 'system',
    disposition: rq.system.placement === 'message' ? 'mapped: a system message' : `mapped: \`${rq.system.to?.text}\` (several joined)`,
  });
  out.push({ field: 'messages', disposition: `mapped: \`${rq.messages.to.text}\`` });
  out.push({ field: 'tools', disposition: rq.tools ? `mapped: \`${rq.tools.to.text}\`` : 'dropped' });
  const variants = (o: Record<string, unknown>, keys: string[]) => keys.filter((k) => o[k] !== undefined);
  out.push({
    field: 'toolChoice',
    disposition: rq.toolChoice
      ? `mapped: \`${rq.toolChoice.to.text}\` (${variants(rq.toolChoice, ['auto', 'none', 'required', 'named']).join(', ')}; others dropped)`
      : 'dropped',
  });
  out.push({
    field: 'responseFormat',
    disposition: rq.responseFormat
      ? `mapped: \`${rq.responseFormat.to.text}\`${rq.responseFormat.into ? ' (merged)' : ''} (${variants(rq.responseFormat, ['text', 'json', 'jsonSchema']).join(', ')}; others dropped)`
      : 'dropped',
  });
  for (const p of rq.params) out.push({ field: p.field, disposition: describeParam(p) });
  out.push({ field: 'providerOptions', disposition: 'merged into the body; standard fields win' });
  return out;
}

function describeParam(p: Param): string {
  switch (p.kind) {
    case 'map':
      return `mapped: \`${p.to.text}\`${p.default !== undefined ? ` (default ${JSON.stringify(p.default)}${p.defaultAdds ? ` + ${p.defaultAdds}` : ''})` : ''}${p.values ? ' (by table)' : ''}`;
    case 'drop':
      return `dropped: ${p.reason}`;
    case 'reject':
      return `rejected: ${p.reason}`;
    case 'via':
      return `mapped: inside ${p.via}`;
  }
}

function describeWhen(w: SpecIR['continuity']['rules'][number]['when']): string {
  const parts: string[] = [];
  if (w.store !== undefined) parts.push(`store is ${w.store}`);
  if (w.model !== undefined) parts.push(`model matches \`${w.model}\``);
  if (w.notModel !== undefined) parts.push(`model does not match \`${w.notModel}\``);
  if (w.reasoning !== undefined) parts.push(w.reasoning ? 'reasoning is asked for' : 'no reasoning is asked for');
  if (w.toolTurnWithoutThinking) parts.push('the conversation continues a tool turn without reasoning (from another provider)');
  return parts.join(' and ') || 'always';
}

function describeRule(r: SpecIR['continuity']['rules'][number]): string {
  const parts: string[] = [];
  if (r.require.length) parts.push(`reasoning without ${r.require.join(', ')} is not sent (warning)`);
  if (r.omit.length) parts.push(`${r.omit.join(', ')} is never sent back`);
  if (r.ensure.length) parts.push(`every assistant turn carries ${r.ensure.join(', ')} (empty if it had none)`);
  if (r.dropFields.length) parts.push(`${r.dropFields.join(', ')} dropped (warning)`);
  if (r.body) parts.push(`the body gets \`${JSON.stringify(r.body)}\``);
  return parts.join('; ');
}
