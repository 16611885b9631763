/**
 * The kit's template compiler (runtime/request/compile-templates.ts, used by overlay modules) and
 * the generator's (generator/emit/emit-template.ts with slot-exprs.ts, used by base modules) are
 * two implementations of one language: on every request template of every built-in spec, over
 * messages with and without each value, they must write the same wire value.
 */
import { describe, expect, it } from 'vitest';
import { serves } from '../../generated/serve.js';
import { compileTemplate } from '../../runtime/request/compile-templates.js';
import type { RequestTemplates } from '../../runtime/contract/serve-codec.js';
import { compact, isEmpty, present } from '../../runtime/adapter-kit.js';
import { parseTemplate } from '../../generator/ir/templates.js';
import { templateExpr } from '../../generator/emit/emit-template.js';
import { SLOT_EXPRS, type RequestSlotContext } from '../../generator/emit/slot-exprs.js';

/** A message context whose every method tags what it was given (or, in the second, gives nothing). */
const tagging = new Proxy({}, { get: (_t, name) => (x: unknown) => ({ [String(name)]: x }) });
const empty = new Proxy({}, { get: () => () => undefined });

const SAMPLES: Record<string, unknown[]> = {
  roles: [
    { role: 'user', content: 'hi', name: 'ann', toolCallId: 'call_1', toolName: 'lookup', isError: true, requestId: 'r1', approve: false, reason: 'no', text: 'said' },
    { role: 'assistant', content: [{ type: 'text', text: 'a' }] },
  ],
  parts: [{ type: 'image', url: 'https://x/y.png', mediaType: 'image/png', data: 'AAAA', text: 'tx' }, { type: 'image' }],
  blocks: [{ type: 'thinking', text: 'hm', signature: 'sig', id: 'rs_1', format: 'f1', redacted: 'enc', phase: 'final', name: 'fn', arguments: '{"a":1}' }, {}],
  system: ['be brief', undefined],
  'tools.item': [{ name: 'lookup', description: 'Looks up', parameters: { type: 'object' }, strict: true }, { name: 'bare' }],
  'tools.wrap': [[{ a: 1 }], []],
  toolChoice: [{ name: 'lookup', noParallel: true }, { name: undefined, noParallel: undefined }],
  responseFormat: [{ type: 'json_schema', name: 'out', schema: { type: 'object' }, strict: true }, { type: 'json' }],
  params: [1024, 'high', true],
};

/** Every request template of a served spec with its context in both compilers' names. */
function templates(): Array<{ spec: string; where: string; data: unknown; runtime: string; generator: RequestSlotContext; samples: unknown[] }> {
  const out: ReturnType<typeof templates> = [];
  for (const [spec, serve] of Object.entries(serves)) {
    const t = serve.request as RequestTemplates | undefined;
    if (!t) continue;
    for (const [k, data] of Object.entries(t.roles)) if (data !== undefined) out.push({ spec, where: `roles.${k}`, data, runtime: `roles.${k}`, generator: (k === 'toolError' ? 'roles.tool' : `roles.${k}`) as RequestSlotContext, samples: SAMPLES.roles! });
    for (const [k, data] of Object.entries(t.parts)) if (data !== undefined) out.push({ spec, where: `parts.${k}`, data, runtime: `parts.${k}`, generator: `parts.${k}` as RequestSlotContext, samples: SAMPLES.parts! });
    for (const [k, data] of Object.entries(t.blocks)) if (data !== undefined) out.push({ spec, where: `blocks.${k}`, data, runtime: `blocks.${k}`, generator: `blocks.${k}` as RequestSlotContext, samples: SAMPLES.blocks! });
    if (t.system !== undefined) out.push({ spec, where: 'system', data: t.system, runtime: 'system', generator: 'system.template', samples: SAMPLES.system! });
    if (t.tools) {
      out.push({ spec, where: 'tools.item', data: t.tools.item, runtime: 'tools.item', generator: 'tools.item', samples: SAMPLES['tools.item']! });
      if (t.tools.wrap !== undefined) out.push({ spec, where: 'tools.wrap', data: t.tools.wrap, runtime: 'tools.wrap', generator: 'tools.wrap', samples: SAMPLES['tools.wrap']! });
    }
    for (const [k, data] of Object.entries(t.toolChoice ?? {})) if (data !== undefined) out.push({ spec, where: `toolChoice.${k}`, data, runtime: 'toolChoice', generator: 'toolChoice', samples: SAMPLES.toolChoice! });
    for (const [k, data] of Object.entries(t.responseFormat ?? {})) if (data !== undefined) out.push({ spec, where: `responseFormat.${k}`, data, runtime: 'responseFormat', generator: 'responseFormat', samples: SAMPLES.responseFormat! });
    for (const [k, data] of Object.entries(t.params ?? {})) if (data !== undefined) out.push({ spec, where: `params.${k}`, data, runtime: 'params', generator: 'param.template', samples: SAMPLES.params! });
  }
  return out;
}

/** The generator's expression for the template, made a function the way a module's arrow is. */
function generated(data: unknown, ctx: RequestSlotContext): (x: unknown, cx: unknown, i: number) => unknown {
  const expr = templateExpr(parseTemplate(data, ''), SLOT_EXPRS[ctx]);
  const fn = new Function('x', 'cx', 'i', 'compact', 'present', 'isEmpty', `const m = x, p = x, b = x, t = x, c = x, f = x, v = x; return ${expr};`);
  return (x, cx, i) => fn(x, cx, i, compact, present, isEmpty);
}

describe('compileTemplate (the kit) and the generator write the same wire values', () => {
  const all = templates();

  it('covers the templates of every served spec (and a good number of them)', () => {
    expect(new Set(all.map((t) => t.spec)).size).toBe(Object.keys(serves).length);
    expect(all.length).toBeGreaterThan(150);
  });

  for (const t of all) {
    it(`${t.spec} ${t.where}`, () => {
      const kit = compileTemplate(t.data, t.runtime);
      const gen = generated(t.data, t.generator);
      for (const x of t.samples) {
        for (const cx of [tagging, empty]) {
          for (const i of [0, 2]) expect(kit(x, cx, i)).toStrictEqual(gen(x, cx, i));
        }
      }
    });
  }
});

describe('compileTemplate on the language itself', () => {
  it('$$ is a literal $, ${name} interpolates, and a string with an unset slot is not half-built', () => {
    const f = compileTemplate({ a: 'US$$5', b: 'only:${name}', c: '$${x}' }, 'toolChoice');
    expect(f({ name: 'get' }, undefined, 0)).toStrictEqual({ a: 'US$5', b: 'only:get', c: '${x}' });
    expect(f({}, undefined, 0)).toStrictEqual({ a: 'US$5', b: undefined, c: '${x}' });
  });

  it('$null writes null; a default stands in for an unset value; $when leaves an item out', () => {
    const f = compileTemplate([{ $when: '$noParallel', flag: '$noParallel' }, { n: '$name|"none"', z: '$null' }], 'toolChoice');
    expect(f({}, undefined, 0)).toStrictEqual([{ n: 'none', z: null }]);
    expect(f({ noParallel: true, name: 'x' }, undefined, 0)).toStrictEqual([{ flag: true }, { n: 'x', z: null }]);
  });

  it('names the template and the string when a slot is not one of its context', () => {
    expect(() => compileTemplate({ a: '$toolCallId' }, 'toolChoice')).toThrow(/toolChoice\/a: "\$toolCallId" is not a slot/);
  });

  it('a "__proto__" key is an own key of the wire object, not its prototype', () => {
    const out = compileTemplate({ ['__proto__']: { polluted: true } }, 'toolChoice')({}, undefined, 0) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(JSON.stringify(out)).toBe('{"__proto__":{"polluted":true}}');
  });
});
