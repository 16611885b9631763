/**
 * What the server side reads back differently from what a client wrote (docs/serving.md#reading-requests),
 * found at generation time from the request templates: forms that coincide, slots that cannot be
 * split back, values that several unified values share, defaults that read back as set. Notes,
 * not errors: the client is fine; a mock or gateway reading this wire loses what they name.
 */
import { PARAM_FIELDS } from '../../runtime/contract/param-fields.js';
import { escapePointer } from '../load/parse-spec.js';
import { slotsOf, type TemplateNode } from '../ir/templates.js';
import { ROLE_KEYS, type SpecIR } from '../ir/types.js';
import type { Finding } from './rules/rule.js';

/** Slots a client writes that lose something on the way back. */
const LOSSY: Record<string, string> = {
  images: 'images are bare data beside the text: their media types do not come back',
  thinkingText: 'reasoning travels as one text: several blocks come back as one, without signatures',
};

export function serveNotes(ir: SpecIR): Finding[] {
  const out: Finding[] = [];
  const t = ir.templates;
  if (!ir.serve?.response) out.push({ code: 'not-served', pointer: '', message: `${ir.profile.name} has no serve.response: the mock server and the gateway cannot answer in it` });
  const text = (n: TemplateNode | undefined) => (n === undefined ? undefined : JSON.stringify(n, (k, v: unknown) => (k === 'pointer' ? undefined : v)));
  // Two forms that are the same on the wire read back as the first one.
  for (const [a, b, lost] of [['tool', 'toolError', 'a failed tool result reads back as a plain one (isError is lost)']] as const) {
    if (t.roles[a] && text(t.roles[a]) === text(t.roles[b])) out.push({ code: 'reads-back-as', pointer: `/request/messages/roles/${b}`, message: `${b} has the same form as ${a}: ${lost}` });
  }
  for (const role of ROLE_KEYS) {
    const node = t.roles[role];
    if (node?.kind === 'nothing') out.push({ code: 'not-invertible', pointer: `/request/messages/roles/${role}`, message: `${role} messages are not sent, so they cannot be read back` });
    for (const s of node ? slotsOf(node) : []) if (LOSSY[s.name]) out.push({ code: 'reads-back-as', pointer: s.pointer, message: `$${s.name}: ${LOSSY[s.name]}` });
  }
  const has = (node: TemplateNode | undefined, slot: string) => node !== undefined && slotsOf(node).some((x) => x.name === slot);
  const schema = t.responseFormat.jsonSchema;
  if (schema && !has(schema, 'name')) out.push({ code: 'reads-back-as', pointer: '/request/responseFormat/jsonSchema', message: 'a JSON-schema response format is sent without its name: it reads back named "response"' });
  const call = t.blocks.toolCall;
  if (call && !has(call, 'id')) out.push({ code: 'reads-back-as', pointer: '/request/messages/blocks/toolCall', message: 'calls are sent without ids: they read back as call_<message>_<n>, and results take the id of the first unanswered call of their name' });
  for (const [ctx, node] of allTemplates(ir)) {
    for (const adjacent of adjacentSlots(node)) out.push({ code: 'not-invertible', pointer: adjacent.pointer, message: `${ctx}: "\${${adjacent.a}}\${${adjacent.b}}" has no text between the slots, so the value cannot be split back` });
  }
  for (const field of PARAM_FIELDS) {
    const rule = ir.profile.request.params[field];
    if (!rule || !('to' in rule)) continue;
    const at = `/request/params/${escapePointer(field)}`;
    if (rule.values) {
      const entries = Object.entries(rule.values);
      for (const [unified, wire] of entries) {
        // The decoder takes the unified value of the wire value's name, else the first (decode-request.ts).
        const back = entries.find(([u, w]) => w === wire && u === wire)?.[0] ?? entries.find(([, w]) => w === wire)![0];
        if (back !== unified) out.push({ code: 'reads-back-as', pointer: `${at}/values/${escapePointer(unified)}`, message: `${field} ${JSON.stringify(unified)} is sent as ${JSON.stringify(wire)}: it reads back as ${JSON.stringify(back)}` });
      }
    }
    if (rule.default !== undefined) out.push({ code: 'reads-back-as', pointer: `${at}/default`, message: `${field} has a default the client fills in: a request without it reads back with the default set` });
  }
  return out;
}

function allTemplates(ir: SpecIR): Array<[string, TemplateNode]> {
  const t = ir.templates;
  const list: Array<[string, TemplateNode | undefined]> = [
    ...Object.entries(t.roles).map(([k, n]): [string, TemplateNode | undefined] => [`roles.${k}`, n]),
    ...Object.entries(t.parts).map(([k, n]): [string, TemplateNode | undefined] => [`parts.${k}`, n]),
    ...Object.entries(t.blocks).map(([k, n]): [string, TemplateNode | undefined] => [`blocks.${k}`, n]),
    ['system.template', t.system],
    ['tools.item', t.tools?.item],
  ];
  return list.filter((x): x is [string, TemplateNode] => x[1] !== undefined);
}

function adjacentSlots(node: TemplateNode): Array<{ a: string; b: string; pointer: string }> {
  switch (node.kind) {
    case 'concat': {
      const out: Array<{ a: string; b: string; pointer: string }> = [];
      for (let i = 1; i < node.parts.length; i++) {
        const prev = node.parts[i - 1]!;
        const cur = node.parts[i]!;
        if (typeof prev !== 'string' && typeof cur !== 'string') out.push({ a: prev.slot, b: cur.slot, pointer: cur.pointer });
      }
      return out;
    }
    case 'object':
      return node.entries.flatMap(([, v]) => adjacentSlots(v));
    case 'array':
      return node.items.flatMap(adjacentSlots);
    default:
      return [];
  }
}
