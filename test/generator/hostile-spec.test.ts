/**
 * A spec full of hostile strings (quotes, backticks, `${}`, comment closers, newlines, Unicode
 * line separators) in names, paths, keys and values: the generated adapter must type-check,
 * run, and carry every string as data, never as code.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { typeCheck } from '../../generator/check/type-check.js';
import { generate } from '../../generator/pipeline.js';
import { TurnAssembler } from '../../runtime/adapter-kit.js';
import type { ProviderAdapter } from '../../runtime/index.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const EVIL = 'q"uo\'te `tick` ${globalThis.__wfPwned = 1} */ /* \\ \n nl \u2028 ls \u2029 ps';
const KEY = `k${EVIL}`;
/** Paths are dot-separated keys without whitespace (the schema rejects it, to catch typos). */
const PATH = 'p"q\'r`s`${__wfPwned=1}*/\\/*';

const spec = {
  id: 'hostile',
  name: `Hostile ${EVIL}`,
  endpoint: {
    baseUrl: `http://127.0.0.1:1/${encodeURIComponent(EVIL)}`,
    path: '/x/{model}',
    auth: { header: 'x-evil', scheme: `Sch${EVIL}` },
    apiKeyEnv: 'HOSTILE_KEY',
    headers: { 'x-h': EVIL },
  },
  request: {
    model: PATH,
    system: { placement: 'field', to: `sys.${PATH}`, join: EVIL },
    messages: {
      to: 'msgs',
      roles: {
        // In a template `${` interpolates; `$${` is how a spec writes it literally.
        user: { [KEY]: EVIL.replace(/\$\{/g, () => '$${'), who: 'u', body: '$text' },
        assistant: { who: 'a', body: '$text', calls: '$toolCalls' },
        tool: { who: 't', ref: '$toolCallId', body: '$text' },
      },
      blocks: { toolCall: { id: '$id', [KEY]: '$name', args: '$arguments' } },
    },
    tools: { to: 'tools', item: { [KEY]: '$name', p: '$parameters', lit: `$$${EVIL}` } },
    params: {
      maxTokens: { to: 'limits.max', default: 7 },
      temperature: { to: 'temp', values: { [EVIL]: EVIL } },
      topP: { drop: EVIL },
      stop: { drop: EVIL },
      parallelToolCalls: { drop: EVIL },
      'reasoning.effort': { drop: EVIL },
      'reasoning.budgetTokens': { drop: EVIL },
      'reasoning.summary': { drop: EVIL },
      user: { reject: EVIL },
      store: { drop: EVIL },
      previousResponseId: { drop: EVIL },
      metadata: { drop: EVIL },
    },
    streamBody: { [KEY]: EVIL },
  },
  response: {
    [KEY]: { text: PATH },
    finish: { finish: `f.${PATH}` },
    usage: { usage: 'u' },
    [`rule ${EVIL}`]: { when: { [PATH]: EVIL }, refusal: PATH },
  },
  stream: {
    framing: 'sse',
    eventKey: 'type',
    on: {
      [EVIL]: { text: { text: PATH } },
      '*': { s: { switch: 'kind', cases: { [EVIL]: { t: { text: 'v' } } } } },
    },
  },
  finish: { map: { [EVIL]: 'stop' }, other: 'other' },
  usage: { inputTokens: PATH, outputTokens: 'out' },
  errors: { message: PATH, requestIdHeader: 'x-req' },
};

const dir = mkdtempSync(join(tmpdir(), 'wireforge-hostile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a spec with hostile strings', async () => {
  const { files, diagnostics } = await generate([{ file: 'specs/hostile.yaml', text: stringify(spec) }], {
    runtimeImport: join(root, 'runtime/adapter-kit.js'),
  });

  it('generates without diagnostics', () => {
    expect(diagnostics).toEqual([]);
    expect(files.get('hostile.ts')).toBeDefined();
  });

  const file = join(dir, 'hostile.ts');
  writeFileSync(file, files.get('hostile.ts') ?? '');

  // The generator's own check (generator/check/type-check.ts, tested in type-check.test.ts): a
  // demanding user's settings (strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess), and
  // one program per worker kept between runs, where a program of this file's own was a cold start.
  it('type-checks under a demanding user\'s settings', () => {
    const problems = typeCheck(new Map([['hostile.ts', files.get('hostile.ts') ?? '']]), dir, []).map((d) => d.message);
    expect(problems).toEqual([]);
  }, 60_000);

  it('treats every string as data when it runs', async () => {
    const { adapter } = (await import(file)) as { adapter: ProviderAdapter };
    expect((globalThis as { __wfPwned?: unknown }).__wfPwned).toBeUndefined();
    expect(adapter.name).toBe(`Hostile ${EVIL}`);
    expect(adapter.endpoint.headers?.['x-h']).toBe(EVIL);

    const built = adapter.buildRequest(
      { model: 'm', system: 'S', messages: [{ role: 'user', content: 'hi' }], tools: [{ name: 'n', parameters: {} }], temperature: EVIL as never, topP: 1 },
      'stream',
    );
    expect(built.body).toEqual({
      [KEY]: EVIL,
      [PATH]: 'm',
      sys: { [PATH]: 'S' },
      msgs: [{ [KEY]: EVIL, who: 'u', body: 'hi' }],
      tools: [{ [KEY]: 'n', p: {}, lit: `$${EVIL}` }],
      limits: { max: 7 },
      temp: EVIL,
    });
    expect(built.warnings).toEqual([{ type: 'dropped', field: 'topP', message: EVIL }]);
    expect(() => adapter.buildRequest({ user: 'x', messages: [{ role: 'user', content: 'a' }] }, 'blocking')).toThrow(EVIL);

    const a = new TurnAssembler(adapter.rules, { streaming: true });
    adapter.readEvent(a, { type: EVIL, [PATH]: 'A', kind: EVIL, v: 'B' } as never, undefined);
    adapter.readResponse(a, { [PATH]: 'C', f: { [PATH]: EVIL }, u: { [PATH]: 3, out: 4 } } as never);
    const r = a.result();
    expect([r.text, r.finishReason, r.rawFinishReason, r.usage?.totalTokens]).toEqual(['BAC', 'stop', EVIL, 7]);
    expect((globalThis as { __wfPwned?: unknown }).__wfPwned).toBeUndefined();
  });
});
