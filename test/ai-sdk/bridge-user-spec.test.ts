/**
 * A spec of the user's own inside the AI SDK: written into a temporary folder, generated there
 * with the real CLI (in process), its module passed to `languageModel` and to
 * `createWireforgeProvider({ clients: { acme: { module } } })`, and served by a mock made from
 * the same module. Nothing in the bridge knows this spec.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai';
import { createMockServer, type MockServer } from '../../node/index.js';
import { createWireforgeProvider, languageModel, type SpecModule } from '../../ai-sdk/index.js';
import type { ServedSpec } from '../../runtime/contract/serve-codec.js';
import { runCli } from '../helpers/run-cli.js';
import { quietAiSdkWarnings } from '../helpers/ai-sdk-quiet.js';

quietAiSdkWarnings();

const root = fileURLToPath(new URL('../../', import.meta.url));
const KEY = 'sk-acme-bridge-0123456789';
const SPEC = `id: acme
extends: openai-chat
name: Acme
endpoint:
  baseUrl: https://api.acme.invalid/v1
  apiKeyEnv: ACME_API_KEY
request:
  params:
    store: { drop: Acme stores nothing }
`;

let dir: string;
let acme: SpecModule & ServedSpec;
let mock: MockServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wireforge-ai-sdk-'));
  mkdirSync(join(dir, 'specs'));
  writeFileSync(join(dir, 'specs/acme.yaml'), SPEC);
  const gen = await runCli(dir, '--specs', 'specs', '--out', 'generated', '--runtime-import', join(root, 'runtime/adapter-kit.js'));
  expect(gen.status, gen.stderr).toBe(0);
  acme = (await import(join(dir, 'generated/acme.ts'))) as SpecModule & ServedSpec;
  mock = await createMockServer({
    provider: acme,
    apiKey: KEY,
    script: [
      { when: { toolResultFor: 'call_a1' }, reply: { text: 'Acme says 42.' } },
      { when: { lastUserText: 'tool' }, reply: { toolCalls: [{ id: 'call_a1', name: 'answer', arguments: { q: 'life' } }] } },
      { reply: { text: 'Hello from Acme.' } },
    ],
  });
}, 120_000);

afterAll(async () => {
  await mock?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a user spec (acme, extends openai-chat) in the AI SDK', () => {
  it('languageModel(module): generateText and streamText', async () => {
    const model = languageModel(acme, { model: 'acme-1', apiKey: KEY, baseUrl: mock.url });
    expect(model.provider).toBe('wireforge.acme');
    expect((await generateText({ model, prompt: 'hi', maxRetries: 0 })).text).toBe('Hello from Acme.');
    const s = streamText({ model, prompt: 'hi', maxRetries: 0 });
    expect(await s.text).toBe('Hello from Acme.');
  });

  it('createWireforgeProvider with the module: a tool round, and the spec\'s own drop as a V4 warning', async () => {
    const wf = createWireforgeProvider({ clients: { acme: { module: acme, apiKey: KEY, baseUrl: mock.url } } });
    const answer = tool({ inputSchema: jsonSchema<{ q: string }>({ type: 'object', properties: { q: { type: 'string' } } }), execute: async () => 42 });
    const r = await generateText({ model: wf('acme/acme-1'), prompt: 'use the tool', tools: { answer }, stopWhen: stepCountIs(3), providerOptions: { wireforge: { store: true } }, maxRetries: 0 });
    expect(r.text).toBe('Acme says 42.');
    expect(r.steps[0]!.warnings).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'unsupported', feature: 'store', details: expect.stringContaining('Acme stores nothing') })]));
  });
});
