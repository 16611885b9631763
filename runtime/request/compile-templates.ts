/**
 * Request templates as data (the spec's JSON with `$slot` strings) compiled once into the
 * functions a codec calls: an overlay's module holds the templates it changes once, as data, and
 * both its codec (through this) and its serve side (reading requests back) use that one copy
 * (docs/architecture.md). Base modules are compiled by the generator instead, so the core bundle
 * carries no template compiler; the same slot table is the generator's (generator/emit/slot-exprs.ts),
 * and a test holds the two to the same output on every built-in template.
 */
import type { Codec } from '../contract/codec.js';
import type { Test } from '../contract/profile.js';
import type { RequestTemplates, TemplateData } from '../contract/serve-codec.js';
import { isObject } from '../wire/read-path.js';
import { compact } from './compact.js';
import { passes } from './conditions.js';

/** A compiled template: the message, part, block, tool or value; the message context; the block's index. */
type Fn = (x: any, cx: any, i: number) => unknown;
type Slots = Readonly<Record<string, Fn>>;

const tool: Slots = {
  toolCallId: (m) => m.toolCallId,
  toolName: (m) => m.toolName,
  content: (m, cx) => cx.content(m.content),
  parts: (m, cx) => cx.parts(m.content),
  text: (m, cx) => cx.text(m.content),
  isError: (m) => m.isError || undefined,
  kind: (m, cx) => cx.callKind(m),
  output: (m, cx) => cx.output(m),
  plainText: (m, cx) => cx.plainText(m),
};
const thinking: Slots = { text: (b) => b.text, signature: (b) => b.signature, id: (b) => b.id, format: (b) => b.format, index: (_b, _cx, i) => i };
const value: Slots = { value: (v) => v };

/** What each `$slot` reads, by template context. */
export const SLOT_READS: Readonly<Record<string, Slots>> = {
  'roles.system': { text: (m) => m.content },
  'roles.user': {
    content: (m, cx) => cx.content(m.content),
    parts: (m, cx) => cx.parts(m.content),
    text: (m, cx) => cx.text(m.content),
    images: (m, cx) => cx.imageData(m.content),
    name: (m) => m.name,
  },
  'roles.assistant': {
    text: (m, cx) => cx.assistantText(m),
    blocks: (m, cx) => cx.blocks(m),
    toolCalls: (m, cx) => cx.toolCalls(m),
    thinking: (m, cx) => cx.thinkingBlocks(m),
    thinkingText: (m, cx) => cx.thinkingText(m),
  },
  'roles.tool': tool,
  'roles.toolError': tool,
  'roles.approval': { requestId: (m) => m.requestId, approve: (m) => m.approve, reason: (m) => m.reason },
  'parts.text': { text: (p) => p.text, cacheControl: (p) => p.cacheControl },
  'parts.imageUrl': { url: (p) => p.url, mediaType: (p) => p.mediaType, cacheControl: (p) => p.cacheControl },
  'parts.imageData': {
    data: (p) => p.data,
    mediaType: (p) => p.mediaType,
    // png of image/png (Bedrock's image format).
    mediaSubtype: (p) => (p.mediaType ?? '').replace(/^[^/]*\//, ''),
    dataUrl: (p) => `data:${p.mediaType};base64,${p.data}`,
    cacheControl: (p) => p.cacheControl,
  },
  'blocks.thinking': thinking,
  'blocks.summaryThinking': thinking,
  'blocks.redactedThinking': { data: (b) => b.redacted, id: (b) => b.id, format: (b) => b.format, index: (_b, _cx, i) => i },
  'blocks.text': { text: (b) => b.text, signature: (b) => b.signature, phase: (b) => b.phase, id: (b) => b.id },
  'blocks.toolCall': {
    signature: (b) => b.signature,
    id: (b) => b.id,
    name: (b) => b.name,
    arguments: (b) => b.arguments,
    argumentsObject: (b, cx) => cx.argumentsObject(b),
  },
  system: { text: (v) => v },
  'tools.item': { name: (t) => t.name, description: (t) => t.description, parameters: (t) => t.parameters, strict: (t) => t.strict, cacheControl: (t) => t.cacheControl },
  'tools.wrap': { items: (v) => v },
  toolChoice: { name: (c) => c.name, noParallel: (c) => c.noParallel },
  responseFormat: { name: (f) => f.name, schema: (f) => f.schema, strict: (f) => f.strict },
  params: value,
};

type Compiled = { fn: Fn; always: boolean; slots: boolean };
const SLOT = /^\$([A-Za-z_][A-Za-z0-9_.]*)(?:\|(.*))?$/s;

/** One template of a context (`roles.tool`, `toolChoice`, …) as a function. */
export function compileTemplate(t: TemplateData, context: string): Fn {
  const slots = SLOT_READS[context];
  if (!slots) throw new TypeError(`no template context "${context}"`);
  return compile(t, slots, context).fn;
}

function compile(t: TemplateData, slots: Slots, where: string): Compiled {
  if (typeof t === 'string') return compileString(t, slots, where);
  if (Array.isArray(t)) {
    const items = t.map((x, i) => compile(x, slots, `${where}/${i}`));
    // Items that can vanish (`$when`) are left out.
    const vanish = t.some((x) => isObject(x) && '$when' in x);
    return {
      fn: (x, cx, i) => {
        const out = items.map((c) => c.fn(x, cx, i));
        return vanish ? out.filter((v) => v !== undefined) : out;
      },
      always: true,
      slots: items.some((c) => c.slots),
    };
  }
  if (isObject(t)) return compileObject(t, slots, where);
  return constant(t);
}

function constant(v: unknown): Compiled {
  return { fn: () => v, always: true, slots: false };
}

function compileString(t: string, slots: Slots, where: string): Compiled {
  if (t === '$null') return constant(null);
  if (t.startsWith('$$') || (!t.startsWith('$') && !t.includes('${'))) return constant(t.replace(/\$\$/g, '$'));
  if (t.includes('${')) return compileConcat(t, slots, where);
  const m = SLOT.exec(t);
  const read = m && slots[m[1]!];
  if (!read) throw new TypeError(`${where}: ${JSON.stringify(t)} is not a slot of this template`);
  if (m[2] === undefined) return { fn: read, always: false, slots: true };
  const fallback: unknown = JSON.parse(m[2]);
  return { fn: (x, cx, i) => read(x, cx, i) ?? fallback, always: true, slots: true };
}

/** `only:${name}`: undefined when any slot is (a half-built string is never sent); `$${` is a literal `${`. */
function compileConcat(t: string, slots: Slots, where: string): Compiled {
  const parts: Array<string | Fn> = [];
  let rest = t;
  while (rest.length) {
    const at = rest.indexOf('${');
    if (at < 0) {
      parts.push(rest.replace(/\$\$/g, '$'));
      break;
    }
    if (at > 0 && rest[at - 1] === '$') {
      parts.push(`${rest.slice(0, at - 1).replace(/\$\$/g, '$')}\${`);
      rest = rest.slice(at + 2);
      continue;
    }
    const end = rest.indexOf('}', at);
    const read = slots[rest.slice(at + 2, end)];
    if (end < 0 || !read) throw new TypeError(`${where}: ${JSON.stringify(t)} names no slot of this template`);
    parts.push(rest.slice(0, at).replace(/\$\$/g, '$'), read);
    rest = rest.slice(end + 1);
  }
  return {
    fn: (x, cx, i) => {
      let out = '';
      for (const p of parts) {
        if (typeof p === 'string') out += p;
        else {
          const v = p(x, cx, i);
          if (v === undefined) return undefined;
          out += String(v);
        }
      }
      return out;
    },
    always: false,
    slots: true,
  };
}

function compileObject(t: Record<string, unknown>, slots: Slots, where: string): Compiled {
  const entries: Array<[string, Compiled]> = [];
  for (const k in t) if (k !== '$when') entries.push([k, k === '$spread' ? compile(t[k], slots, `${where}/$spread`) : compile(t[k], slots, `${where}/${k}`)]);
  const hasSlots = entries.some(([, c]) => c.slots);
  // An object of slots that may all be undefined is itself undefined, so its parent leaves it out.
  const mayVanish = hasSlots && !entries.some(([k, c]) => k !== '$spread' && c.always);
  // Indexed arrays, not entries: this runs for every message of every request.
  const keys = entries.map(([k]) => k);
  const fns = entries.map(([, c]) => c.fn);
  const plain = !keys.includes('$spread') && !keys.includes('__proto__');
  const build: Fn = (x, cx, i) => {
    const out: Record<string, unknown> = {};
    for (let n = 0; n < keys.length; n++) {
      const k = keys[n]!;
      const v = fns[n]!(x, cx, i);
      if (plain) out[k] = v;
      else if (k === '$spread') Object.assign(out, v);
      else if (k === '__proto__') Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
      else out[k] = v;
    }
    return mayVanish ? compact(out) : out;
  };
  const when = t.$when;
  if (when === undefined) return { fn: build, always: !mayVanish, slots: hasSlots };
  const holds = compileWhen(when, slots, `${where}/$when`);
  return { fn: (x, cx, i) => (holds(x, cx, i) ? build(x, cx, i) : undefined), always: false, slots: true };
}

/** `$when: $slot` (set and not empty), or `$when: { slot: <test> }` in the condition vocabulary. */
function compileWhen(when: unknown, slots: Slots, where: string): (x: any, cx: any, i: number) => boolean {
  if (typeof when === 'string') {
    const read = compileString(when, slots, where).fn;
    return (x, cx, i) => {
      const v = read(x, cx, i);
      return !(v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0));
    };
  }
  if (!isObject(when)) throw new TypeError(`${where}: $when takes a $slot or a condition`);
  const tests = Object.entries(when).map(([name, test]) => {
    const read = slots[name.replace(/^\$/, '')];
    if (!read) throw new TypeError(`${where}: no slot "${name}" to test`);
    return { read, test: toTest(test) };
  });
  return (x, cx, i) => tests.every((c) => passes(c.test, c.read(x, cx, i)));
}

/** A condition value as the generator reads it (generator/ir/templates.ts `toTest`): a literal is equality. */
function toTest(t: unknown): Test {
  if (isObject(t)) {
    if ('exists' in t) return { exists: t.exists === true };
    if ('in' in t) return { in: t.in as never };
    if ('matches' in t) return { matches: String(t.matches) };
    if ('not' in t) return { not: toTest(t.not) };
  }
  return { eq: t as string | number | boolean | null };
}

/** An overlay's request templates: the forms it changes, a form or group it takes away as undefined. */
export type RequestTemplateChanges = { readonly [G in keyof RequestTemplates]?: RequestTemplates[G] extends Readonly<Record<string, TemplateData>> | undefined ? Readonly<Record<string, TemplateData>> | undefined : RequestTemplates[G] | undefined };

type TemplateGroups = Pick<Codec, 'roles' | 'parts' | 'blocks' | 'toolChoice' | 'responseFormat' | 'system' | 'tools' | 'params'>;

/**
 * The codec's template groups with an overlay's request templates compiled over its base's:
 * a form set to undefined is taken away, a group set to undefined too.
 */
export function templatesOver(base: Codec, t: RequestTemplateChanges): Partial<TemplateGroups> {
  const out: Record<string, unknown> = {};
  for (const group of ['roles', 'parts', 'blocks', 'toolChoice', 'responseFormat', 'params'] as const) {
    if (!(group in t)) continue;
    const forms = t[group];
    if (forms === undefined) {
      out[group] = undefined;
      continue;
    }
    const merged: Record<string, unknown> = { ...(base[group] as object | undefined) };
    for (const [k, form] of Object.entries(forms)) merged[k] = form === undefined ? undefined : compileTemplate(form, group === 'roles' || group === 'parts' || group === 'blocks' ? `${group}.${k}` : group);
    out[group] = merged;
  }
  if ('system' in t) out.system = t.system === undefined ? undefined : compileTemplate(t.system, 'system');
  if ('tools' in t) {
    const tools = t.tools;
    out.tools = tools && { item: compileTemplate(tools.item, 'tools.item'), wrap: tools.wrap === undefined ? undefined : compileTemplate(tools.wrap, 'tools.wrap') };
  }
  return out as Partial<TemplateGroups>;
}
