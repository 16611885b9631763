/**
 * The `wireforge` command (generator/cli.ts), run in process: a project of its own (new →
 * validate → gen → check), and a spec from scratch that answers as written.
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliProject, KIT } from './helpers.js';
import { jsonResponse, startLoopbackServer } from '../helpers/loopback-server.js';
import { runCli } from '../helpers/run-cli.js';
import { createClientFor } from '../../runtime/index.js';

describe('wireforge (the CLI, run in process): projects', () => {
  it('a project of its own: new → validate → gen → check; its spec extends a built-in one it does not hold; gen writes only its modules and an index over the built-in ids and its own', { timeout: 120_000 }, async () => {
    const dir = cliProject();
    const server = await startLoopbackServer(jsonResponse(200, { id: 'c1', model: 'acme-1', choices: [{ index: 0, message: { role: 'assistant', content: 'Hello from acme.' }, finish_reason: 'stop' }] }));
    try {
      const created = await runCli(dir, 'new', 'acme', '--extends', 'openai-chat');
      expect(created.status, created.stderr).toBe(0);
      expect(created.stdout).toContain('created specs/acme.yaml');
      const text = readFileSync(join(dir, 'specs/acme.yaml'), 'utf8');
      // The scaffold lists every unified field, and points at the spec language's reference of the runtime it is for.
      for (const field of ['maxTokens', 'temperature', 'reasoning.effort', 'previousResponseId', 'metadata']) expect(text).toMatch(new RegExp(`^#\\s+${field.replace('.', '\\.')}: `, 'm'));
      expect(text).toContain('extends: openai-chat');
      expect(text).toMatch(/The reference: .*docs\/spec-language\.md\./);
      const again = await runCli(dir, 'new', 'acme', '--extends', 'openai-chat');
      expect(again.status).toBe(1);
      expect(again.stderr).toContain('exists already');
      expect((await runCli(dir, 'validate', 'specs/acme.yaml')).stdout).toContain('ok specs/acme.yaml');
      // A spec of the project's that extends one of its own, which extends a built-in one.
      writeFileSync(join(dir, 'specs/acme-eu.yaml'), 'id: acme-eu\nextends: acme\nname: Acme EU\nendpoint:\n  baseUrl: https://eu.acme.example/v1\n  apiKeyEnv: ACME_EU_API_KEY\n');
      const gen = await runCli(dir, 'gen');
      expect(gen.status, gen.stderr).toBe(0);
      expect(gen.stdout).toContain('created generated/acme.ts');
      expect(gen.stdout).toContain('from 2 specs');
      expect(readdirSync(join(dir, 'generated')).sort()).toEqual(['acme-eu.ts', 'acme.ts', 'index.ts', 'serve.ts']);
      expect(readFileSync(join(dir, 'generated/acme-eu.ts'), 'utf8')).toContain("import * as base from './acme.js';");
      expect(existsSync(join(dir, 'docs')), 'docs only when asked for').toBe(false);
      expect((await runCli(dir, 'gen')).stdout).toMatch(/^nothing changed/m);
      expect((await runCli(dir, 'check')).status).toBe(0);

      const index = (await import(join(dir, 'generated/index.ts'))) as typeof import('../../generated/index.js') & { adapters: Record<string, unknown> };
      const ids = Object.keys(index.adapters);
      expect(ids).toEqual(expect.arrayContaining(['acme', 'acme-eu', 'openai-chat', 'anthropic-messages', 'gemini']));
      // The serve index: the built-in specs' serve exports and the project's own, by the same ids.
      const serveIndex = (await import(join(dir, 'generated/serve.ts'))) as { serves: Record<string, unknown> };
      expect(Object.keys(serveIndex.serves).sort()).toEqual(ids.sort());
      const client = index.createClient('acme' as 'openai-chat', { apiKey: 'acme-test-key', baseUrl: server.url, model: 'acme-1' });
      expect((await client.chat({ messages: [{ role: 'user', content: 'hi' }] })).text).toBe('Hello from acme.');
      expect(server.requests[0]!.url).toBe('/chat/completions');
      expect((server.requests[0]!.body as { model?: string }).model).toBe('acme-1');
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('new without --extends: a spec from scratch, every section commented, that validates, generates and answers a chat and a stream as written', { timeout: 120_000 }, async () => {
    const dir = cliProject();
    const answer = { id: 'r1', model: 'kite-1', choices: [{ index: 0, message: { role: 'assistant', content: 'Hello from kite.' }, finish_reason: 'stop' }], usage: { prompt_tokens: 3, completion_tokens: 4 } };
    const sse = ['{"id":"r2","model":"kite-1","choices":[{"index":0,"delta":{"content":"Hel"}}]}', '{"id":"r2","choices":[{"index":0,"delta":{"content":"lo"},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":2}}', '[DONE]'];
    const server = await startLoopbackServer([jsonResponse(200, answer), { headers: { 'content-type': 'text/event-stream' }, body: sse.map((d) => `data: ${d}\n\n`).join('') }]);
    try {
      const created = await runCli(dir, 'new', 'kite');
      expect(created.status, created.stderr).toBe(0);
      expect(created.stdout).toContain('created specs/kite.yaml (from scratch');
      const text = readFileSync(join(dir, 'specs/kite.yaml'), 'utf8');
      expect(text).not.toContain('extends:');
      // The editor's schema is the runtime's own file, and the spec says which sections are optional and what no serve: gets.
      const schema = /^# yaml-language-server: \$schema=(.+)$/m.exec(text)?.[1];
      expect(schema && existsSync(join(dir, 'specs', schema)), schema).toBe(true);
      expect(text).toMatch(/^# Required: id, endpoint, request/m);
      expect(text).toMatch(/^# serve: .*\n#\s+Without it the spec still reads requests back/m);
      for (const section of ['endpoint', 'request', 'response', 'stream', 'finish', 'usage', 'errors']) expect(text).toMatch(new RegExp(`^${section}:`, 'm'));
      for (const section of ['parts', 'required', 'continuity', 'serve']) expect(text).toMatch(new RegExp(`^# ${section}:`, 'm'));
      expect((await runCli(dir, 'validate', 'specs/kite.yaml')).stdout).toContain('ok specs/kite.yaml');
      const gen = await runCli(dir, '--runtime-import', KIT);
      expect(gen.status, gen.stderr).toBe(0);
      expect(gen.stdout).toContain('not-served');
      const mod = (await import(join(dir, 'generated/kite.ts'))) as { adapter: Parameters<typeof createClientFor>[0] };
      const client = createClientFor(mod.adapter, { apiKey: 'kite-key', baseUrl: server.url, model: 'kite-1' });
      const res = await client.chat({ system: 'Be brief.', messages: [{ role: 'user', content: 'hi' }], maxTokens: 20 });
      expect(res.text).toBe('Hello from kite.');
      expect(res.usage).toMatchObject({ inputTokens: 3, outputTokens: 4 });
      const sent = server.requests[0]!;
      expect(sent.url).toBe('/chat');
      expect(sent.headers.authorization).toBe('Bearer kite-key');
      expect(sent.body).toEqual({ model: 'kite-1', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hi' }], max_tokens: 20 });
      const stream = client.stream({ messages: [{ role: 'user', content: 'hi' }] });
      const final = await stream.final();
      expect(final.text).toBe('Hello');
      expect(final.finishReason).toBe('stop');
      expect((server.requests[1]!.body as { stream?: boolean }).stream).toBe(true);
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
