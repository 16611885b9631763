/**
 * The gateway config checked at start: every problem a located diagnostic (file:line:col, code,
 * pointer, did-you-mean), never a failure at the first request; and a good config served by
 * `wireforge gateway --config`. The JSON Schema for editors takes the same keys as the check.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createClient } from '../../generated/index.js';
import { builtInSpecs, checkGatewayConfig, createMockServer, GatewayConfigError, startGateway } from '../../node/index.js';
import { CONFIG_KEYS } from '../../runtime/serve/gateway-config.js';
import { runCli, startCli } from '../helpers/run-cli.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'wf-gwconf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

describe('gateway config: located diagnostics at start', () => {
  it('an unknown key, a route to an unknown spec, an unset key variable: each with its line, field and a hint', async () => {
    const file = write(
      'bad.yaml',
      [
        'listen: openai-chat', // 1
        'routs: []', // 2
        'routes:', // 3
        '  - model: smart', // 4
        '    targets:', // 5
        '      - spec: antropic-messages', // 6
        '        model: claude-x', // 7
        '      - spec: openai-chat', // 8
        '        key: { env: WF_TEST_UNSET_KEY_VAR }', // 9
        '        modle: gpt-x', // 10
        '',
      ].join('\n'),
    );
    delete process.env.WF_TEST_UNSET_KEY_VAR;
    const r = await runCli(root, 'gateway', '--config', file);
    expect(r.status).toBe(1);
    const lines = r.stderr.split('\n');
    const line = (code: string) => lines.find((l) => l.includes(` ${code} `)) ?? '';
    expect(line('unknown-key')).toMatch(/bad\.yaml:2:1 unknown-key unknown key "routs" in the gateway config \(at \/routs\); did you mean "routes"\?/);
    expect(line('unknown-spec')).toMatch(/bad\.yaml:6:15 unknown-spec no spec "antropic-messages" \(at \/routes\/0\/targets\/0\/spec\); did you mean "anthropic-messages"\?/);
    expect(line('unset-env')).toMatch(/bad\.yaml:9:21 unset-env environment variable WF_TEST_UNSET_KEY_VAR is not set/);
    expect(lines.some((l) => /bad\.yaml:10:9 unknown-key unknown key "modle" in a target .*did you mean "model"/.test(l))).toBe(true);
  });

  it('the object form: the same problems from checkGatewayConfig, and startGateway refuses before listening', async () => {
    const specs = builtInSpecs();
    expect(checkGatewayConfig({ listen: 'openai-chat', routes: [{ model: 'm', targets: [{ spec: 'openai-chat', key: { keys: ['sk-pool-key-0001'] } }] }] }, { specs, env: {} })).toEqual([]);
    const problems = checkGatewayConfig(
      {
        listen: [{ spec: 'openai-chat', path: '/a' }, { spec: 'gemini', path: '/a' }],
        clients: [{ name: 'x', token: 'short', routes: ['nope'], limits: { requestsPerMinute: -1, burst: 2 } }],
        routes: [{ model: 'm', targets: [{ spec: 'openai-chat', key: 'caller' }] }],
        limitsOnRedisDown: 'maybe',
      },
      { specs, env: {} },
    );
    expect(problems.map((p) => `${p.pointer} ${p.code}`).sort()).toEqual(
      [
        '/listen/1/path bad-value',
        '/clients/0/token bad-value',
        '/clients/0/routes/0 unknown-route',
        '/clients/0/limits/burst unknown-key',
        '/clients/0/limits/requestsPerMinute wrong-type',
        '/routes/0/targets/0/key bad-value',
        '/limitsOnRedisDown bad-value',
      ].sort(),
    );
    // No problem message holds a key.
    const keyed = checkGatewayConfig({ listen: 'openai-chat', routes: [{ model: 'm', targets: [{ spec: 'openai-chat', key: { keys: ['sk-secret-pool-1', 7] } }] }] }, { specs, env: {} });
    expect(keyed).toHaveLength(1);
    expect(JSON.stringify(keyed)).not.toContain('sk-secret-pool-1');
    // Names that Object's prototype has are not specs, variables or config keys.
    const proto = checkGatewayConfig(JSON.parse('{"listen":"openai-chat","__proto__":{"x":1},"routes":[{"model":"m","targets":[{"spec":"constructor"},{"spec":"openai-chat","key":{"env":"toString"}}]}]}'), { specs, env: { ...process.env } });
    expect(proto.map((p) => `${p.pointer} ${p.code}`)).toEqual(['/__proto__ unknown-key', '/routes/0/targets/0/spec unknown-spec', '/routes/0/targets/1/key/env unset-env']);
    const refused = await startGateway({ listen: 'openai-chat', routes: [{ model: 'm', targets: [{ spec: 'nope' }] }] }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(GatewayConfigError);
    expect((refused as GatewayConfigError).problems).toMatchObject([{ code: 'unknown-spec', pointer: '/routes/0/targets/0/spec' }]);
  });

  it('a good config from YAML: served by wireforge gateway --config, with a key from the environment', async () => {
    const mock = await createMockServer({ provider: 'anthropic-messages', apiKey: 'sk-ant-config-0001' });
    process.env.WF_TEST_ANT_KEY = 'sk-ant-config-0001';
    const file = write(
      'good.yaml',
      `listen:\n  - spec: openai-chat\n    path: /v1\nclients:\n  - name: team\n    token: team-token-config-0001\n    limits: { requestsPerMinute: 10 }\nroutes:\n  - model: "claude-*"\n    list: [claude-a]\n    targets:\n      - spec: anthropic-messages\n        baseUrl: ${mock.url}\n        key: { env: WF_TEST_ANT_KEY }\n`,
    );
    const cli = startCli(root, 'gateway', '--config', file);
    try {
      let url: string | undefined;
      for (let i = 0; i < 500 && !url; i++) {
        url = /openai-chat\s+(http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(cli.stdout())?.[1];
        if (!url) await new Promise((r) => setTimeout(r, 10));
      }
      expect(url, cli.stderr()).toBeDefined();
      const r = await createClient('openai-chat', { apiKey: 'team-token-config-0001', baseUrl: url!, model: 'claude-b', maxRetries: 0 }).chat({ messages: [{ role: 'user', content: 'hi' }] });
      expect(r.text).toBe('Hello from the mock.');
      // A pattern route passes the caller's model on when its target names none.
      expect((mock.requests.at(-1)!.body as { model: string }).model).toBe('claude-b');
      const list = (await (await fetch(`${url}/models`, { headers: { authorization: 'Bearer team-token-config-0001' } })).json()) as { data: Array<{ id: string }> };
      expect(list.data.map((m) => m.id)).toEqual(['claude-a']);
    } finally {
      await cli.stop();
      await mock.close();
      delete process.env.WF_TEST_ANT_KEY;
    }
  }, 30_000);

  it("every gateway config in docs/serving.md passes the start-up check (a reader copies them)", () => {
    const doc = readFileSync(join(root, 'docs/serving.md'), 'utf8');
    const configs = [...doc.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)].map((m) => ({ config: parse(m[1]!) as Record<string, unknown>, line: doc.slice(0, m.index).split('\n').length + 1 })).filter((c) => c.config && 'routes' in c.config);
    expect(configs.length).toBeGreaterThanOrEqual(2);
    // Every variable the doc names is set (a token of 16 characters or more), the specs' key variables among them.
    const specs = builtInSpecs();
    const names = [...[...doc.matchAll(/\b[A-Z][A-Z0-9_]{3,}\b/g)].map(([name]) => name), ...Object.values(specs).flatMap((m) => ('adapter' in m ? m.adapter : m).endpoint.apiKeyEnv ?? [])];
    const env = Object.fromEntries(names.map((name) => [name, 'a-token-from-the-environment-01']));
    for (const { config, line } of configs) expect({ line, problems: checkGatewayConfig(config as never, { specs, env }) }).toEqual({ line, problems: [] });
  });

  it('the JSON Schema is a schema editors can use: it takes the example config and refuses an unknown key', () => {
    const schema = JSON.parse(readFileSync(join(root, 'specs/gateway.schema.json'), 'utf8')) as object;
    const validate = new Ajv2020({ allErrors: true }).compile(schema);
    const example = parse(readFileSync(join(root, 'examples/gateway/gateway.yaml'), 'utf8')) as unknown;
    expect(validate(example), JSON.stringify(validate.errors)).toBe(true);
    // The example passes the full check too, with its variables set.
    const env = { OPENAI_API_KEY: 'sk-example-0001', ANTHROPIC_API_KEY: 'sk-ant-example-0001', GATEWAY_WEB_TOKEN: 'web-token-example-0001' };
    expect(checkGatewayConfig(example, { specs: builtInSpecs(), env })).toEqual([]);
    expect(validate({ listen: 'openai-chat', routes: [{ model: 'm', targets: [{ spec: 'openai-chat', modle: 'x' }] }] })).toBe(false);
    expect(validate({ listen: 'openai-chat', routes: [{ model: 'm', targets: [{ spec: 'openai-chat', key: { keys: [] } }] }] })).toBe(false);
  });

  it('the JSON Schema for editors names the same keys as the check', () => {
    const schema = JSON.parse(readFileSync(join(root, 'specs/gateway.schema.json'), 'utf8')) as { properties: Record<string, unknown>; $defs: Record<string, { properties: Record<string, unknown> }> };
    const keysOf = (o: { properties: Record<string, unknown> }) => Object.keys(o.properties).sort();
    expect(keysOf(schema)).toEqual([...CONFIG_KEYS.config].sort());
    for (const k of ['listen', 'client', 'limits', 'route', 'target', 'telemetry'] as const) expect(keysOf(schema.$defs[k]!)).toEqual([...CONFIG_KEYS[k]].sort());
  });
});
