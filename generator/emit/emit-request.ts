/** The request half of an adapter: templates and params → `buildRequest`. */
import { PARAM_EXPR, SLOTS, type ParamField, type SlotContext } from '../ir/slots.js';
import { roleKey } from '../ir/role-key.js';
import { slotsOf, type TemplateNode } from '../ir/templates.js';
import type { Param, SpecIR, Variant } from '../ir/types.js';
import { key, lit } from './code.js';
import { templateExpr } from './emit-template.js';
import { bodyWrites, planBody, type BodyNode } from './plan-body.js';

const t = (node: TemplateNode, ctx: SlotContext) => templateExpr(node, SLOTS[ctx]);

export function emitRequest(ir: SpecIR): string {
  const rq = ir.request;
  const out: string[] = [];
  const { parts, blocks, roles } = rq.messages;

  out.push('const partTemplates: PartTemplates = {');
  if (parts.text) out.push(`  text: (p) => ${t(parts.text, 'parts.text')},`);
  if (parts.imageUrl) out.push(`  imageUrl: (p) => ${t(parts.imageUrl, 'parts.imageUrl')},`);
  if (parts.imageData) out.push(`  imageData: (p) => ${t(parts.imageData, 'parts.imageData')},`);
  out.push('};', '');

  const usesCx = Object.values(blocks).some((b) => b && JSON.stringify(b).includes('"argumentsObject"'));
  out.push(`function blockTemplates(${usesCx ? 'cx' : '_cx'}: MessageContext): BlockTemplates {`, '  return {');
  const withPosition = (node: TemplateNode) => (usesSlot(node, 'position') ? '(b, i)' : '(b)');
  if (blocks.thinking) out.push(`    thinking: ${withPosition(blocks.thinking)} => ${t(blocks.thinking, 'blocks.thinking')},`);
  if (blocks.summaryThinking) out.push(`    summaryThinking: ${withPosition(blocks.summaryThinking)} => ${t(blocks.summaryThinking, 'blocks.summaryThinking')},`);
  if (blocks.redactedThinking) out.push(`    redactedThinking: ${withPosition(blocks.redactedThinking)} => ${t(blocks.redactedThinking, 'blocks.redactedThinking')},`);
  if (blocks.text) out.push(`    text: (b) => ${t(blocks.text, 'blocks.text')},`);
  if (blocks.toolCall) out.push(`    toolCall: (b) => ${t(blocks.toolCall, 'blocks.toolCall')},`);
  out.push('  };', '}', '');

  // One wire message (or, for a `$blocks` role, several items) per unified message.
  const role = (node: TemplateNode | undefined, ctx: SlotContext, missing: string): string =>
    node ? `return ${t(node, ctx)};` : `return w.drop(${missing}, ${lit(`${ir.name} has no template for this role; the message was not sent`)});`;
  out.push('function mapMessage(m: Message, cx: MessageContext, w: Warnings, field: string): unknown {', '  switch (m.role) {');
  out.push('    case "system":');
  if (rq.system.placement === 'message') out.push(`      ${role(roles.system, 'roles.system', 'field')}`);
  else out.push(`      // System text goes to the ${lit(rq.system.to?.text)} field; prepareConversation took it out.`, '      return undefined;');
  out.push('    case "user":');
  if (roles.user && !usesSlot(roles.user, 'name')) {
    out.push(`      if (m.name !== undefined) w.drop(\`\${field}.name\`, ${lit(`${ir.name} has no field for a participant name`)});`);
  }
  out.push(`      ${role(roles.user, 'roles.user', 'field')}`);
  out.push('    case "assistant":', `      ${role(roles.assistant, 'roles.assistant', 'field')}`);
  out.push('    case "tool":');
  const distinctError = roles.toolError && roles.tool && t(roles.toolError, 'roles.tool') !== t(roles.tool, 'roles.tool');
  if (distinctError) out.push(`      if (m.isError) return ${t(roles.toolError!, 'roles.tool')};`);
  else if (roles.toolError) out.push('      // An error result has the same wire shape; its text says what went wrong.');
  else if (roles.tool && !usesSlot(roles.tool, 'isError')) {
    out.push(`      if (m.isError) w.drop(\`\${field}.isError\`, ${lit(`${ir.name} cannot mark a tool result as an error; the result was sent as a plain result`)});`);
  }
  out.push(`      ${role(roles.tool, 'roles.tool', 'field')}`, '  }', '}', '');

  if (rq.system.template) out.push(`const mapSystem = (v: string): unknown => ${t(rq.system.template, 'system.template')};`, '');

  if (rq.tools) {
    out.push('function mapTools(tools: ToolSpec[] | undefined, w: Warnings): unknown {', '  if (!tools?.length) return undefined;');
    if (!usesSlot(rq.tools.item, 'strict')) {
      out.push('  tools.forEach((t, i) => {', `    if (t.strict !== undefined) w.drop(\`tools[\${i}].strict\`, ${lit(`${ir.name} has no strict flag on tools`)});`, '  });');
    }
    out.push(`  const v = tools.map((t) => ${t(rq.tools.item, 'tools.item')});`);
    out.push(`  return ${rq.tools.wrap ? t(rq.tools.wrap, 'tools.wrap') : 'v'};`, '}', '');
  }

  if (rq.toolChoice) {
    const tc = rq.toolChoice;
    const viaToolChoice = rq.params.some((p) => p.kind === 'via' && p.via === 'toolChoice');
    out.push('function mapToolChoice(req: ChatRequest, w: Warnings): unknown {');
    out.push(`  const c = { name: typeof req.toolChoice === "object" ? req.toolChoice.name : undefined, noParallel: ${viaToolChoice ? 'req.parallelToolCalls === false ? true : undefined' : 'undefined'} };`);
    const unset = tc.whenUnset ? `req.toolChoice ?? (c.noParallel ? ${lit(tc.whenUnset)} : undefined)` : 'req.toolChoice';
    out.push(`  switch (toolChoiceKind(${unset})) {`);
    for (const [kind, v] of [['auto', tc.auto], ['none', tc.none], ['required', tc.required], ['named', tc.named]] as Array<[string, Variant]>) {
      out.push(`    case ${lit(kind)}:`, `      return ${variantExpr(v, 'toolChoice', 'toolChoice', `${ir.name} has no "${kind}" tool choice`)};`);
    }
    out.push('    default:', '      return undefined;', '  }', '}', '');
  }

  if (rq.responseFormat) {
    const rf = rq.responseFormat;
    out.push('function mapResponseFormat(req: ChatRequest, w: Warnings): unknown {', '  const f = req.responseFormat;', '  switch (f?.type) {');
    out.push('    case "text":', `      return ${variantExpr(rf.text, 'responseFormat', 'responseFormat', `${ir.name} has no plain-text response format`)};`);
    out.push('    case "json":', `      return ${variantExpr(rf.json, 'responseFormat', 'responseFormat', `${ir.name} has no schemaless JSON mode; use json_schema`)};`);
    out.push('    case "json_schema":', `      return ${variantExpr(rf.jsonSchema, 'responseFormat', 'responseFormat', `${ir.name} has no JSON-schema response format`)};`);
    out.push('    default:', '      return undefined;', '  }', '}', '');
  }

  // buildRequest itself.
  out.push('/** Unified request → wire body, plus warnings for what the wire cannot carry. */');
  out.push('export function buildRequest(input: ChatRequest, mode: CallMode): BuiltRequest {');
  out.push(`  const w = new Warnings(${lit(ir.id)});`);
  out.push('  // History first: continuity rules may take fields out of what this conversation can carry.');
  out.push(`  const conv = prepareConversation(input, ${lit(rq.system.placement)}, ${lit(rq.system.join)}, CONTINUITY, w);`);
  out.push('  const req = conv.request;');
  for (const p of rq.params) out.push(...paramGuard(p));
  if (!rq.tools) out.push(`  if (req.tools?.length) w.drop("tools", ${lit(`${ir.name} takes no tools`)});`);
  if (!rq.toolChoice) out.push(`  if (req.toolChoice !== undefined) w.drop("toolChoice", ${lit(`${ir.name} has no tool choice`)});`);
  if (!rq.responseFormat) out.push(`  if (req.responseFormat !== undefined) w.drop("responseFormat", ${lit(`${ir.name} has no response format setting`)});`);
  out.push('  const cx = new MessageContext(partTemplates, w);', '  cx.useBlocks(blockTemplates(cx));');
  out.push('  const mapped = conv.messages.map((m, i) => cx.finish(m, mapMessage(m, cx.at(conv.origins[i]!), w, cx.field())));');
  out.push(`  const messages = ${messagesExpr(ir)};`);
  const writes = bodyWrites(ir, (field) => paramValueExpr(rq.params.find((p) => p.field === field)!));
  const { tree } = planBody(writes);
  out.push(`  const body = ${bodyExpr(tree, 1)};`);
  // Defaults sit under providerOptions: only what the request itself sets wins over those.
  const defaults = rq.params.flatMap((p) => (p.kind === 'map' && p.default !== undefined ? [{ path: p.to, expr: defaultExpr(p), pointer: `/request/params/${p.field}/default` }] : []));
  if (defaults.length) out.push(`  const defaults = ${bodyExpr(planBody(defaults).tree, 1)};`);
  out.push('  return {', `    body: finalizeBody(body, { ...(mode === "stream" ? STREAM_BODY : BLOCKING_BODY), ...conv.body }, req.providerOptions, w${defaults.length ? ', defaults' : ''}),`);
  out.push('    model: req.model,', `    pathParams: { model: req.model },`, '    warnings: w.list,', '  };', '}', '');
  const c = ir.continuity;
  out.push('/** Opaque state in this provider\'s turns, and the rules for sending it back. */');
  out.push(`const CONTINUITY: Continuity = { provider: ${lit(ir.id)}, scope: ${lit(c.scope)}, foreignThinking: ${lit(c.foreignThinking)}, rules: ${lit(c.rules.map(({ note: _n, ...r }) => r))} };`);
  out.push(`const STREAM_BODY: Record<string, unknown> = ${lit(rq.streamBody)};`);
  out.push(`const BLOCKING_BODY: Record<string, unknown> = ${lit(rq.blockingBody)};`);
  return out.join('\n');
}

function variantExpr(v: Variant, ctx: SlotContext, field: string, reason: string): string {
  return v ? t(v, ctx) : `w.drop(${lit(field)}, ${lit(reason)})`;
}

function messagesExpr(ir: SpecIR): string {
  const { roles, mergeKey, parts } = ir.request.messages;
  // A role written as a bare `$blocks` expands into several top-level items.
  const spreads = roles.assistant?.kind === 'slot';
  let expr = spreads ? 'spreadItems(mapped)' : 'present(mapped)';
  if (mergeKey) {
    const textPart = parts.text ? '(text: string) => partTemplates.text!({ type: "text", text })' : '(text: string) => text';
    const by = roleKey([roles.user, roles.assistant, roles.tool, roles.toolError]) ?? 'role';
    expr = `mergeConsecutive(${expr}, ${lit(by)}, ${lit(mergeKey)}, ${textPart})`;
  }
  return expr;
}

function paramGuard(p: Param): string[] {
  const v = PARAM_EXPR[p.field];
  if (p.kind === 'drop') return [`  if (${v} !== undefined) w.drop(${lit(p.field)}, ${lit(p.reason)});`];
  if (p.kind === 'reject') return [`  if (${v} !== undefined) w.reject(${lit(p.field)}, ${lit(p.reason)});`];
  if (p.kind === 'map' && p.droppedWhen) {
    const other = PARAM_EXPR[p.droppedWhen];
    return [`  if (${v} !== undefined && ${other} !== undefined) w.drop(${lit(p.field)}, ${lit(`not sent together with ${p.droppedWhen}, which wins`)});`];
  }
  return [];
}

function paramValueExpr(p: Param): string {
  if (p.kind !== 'map') return 'undefined';
  let v = PARAM_EXPR[p.field as ParamField];
  if (p.droppedWhen) v = `(${PARAM_EXPR[p.droppedWhen]} !== undefined ? undefined : ${v})`;
  if (p.values) v = `lookup(${v}, ${lit(p.values)}, w, ${lit(p.field)})`;
  if (p.template) v = `ifSet(${v}, (v) => ${t(p.template, 'param.template')})`;
  return v;
}

function defaultExpr(p: Extract<Param, { kind: 'map' }>): string {
  const base = lit(p.default);
  return p.defaultAdds ? `${base} + (${PARAM_EXPR[p.defaultAdds]} ?? 0)` : base;
}

function bodyExpr(node: BodyNode, depth: number): string {
  if (node.kind === 'leaf') return node.write.expr;
  const pad = '  '.repeat(depth + 1);
  const spreads = node.spreads.map((w) => `${pad}...(${w.expr} as Record<string, unknown> | undefined),`);
  const entries = [...spreads, ...[...node.children].map(([k, child]) => `${pad}${key(k)}: ${bodyExpr(child, depth + 1)},`)];
  return `compact({\n${entries.join('\n')}\n${'  '.repeat(depth)}})`;
}

function usesSlot(node: TemplateNode, slot: string): boolean {
  return slotsOf(node).some((s) => s.name === slot);
}
