/**
 * The model list's shape is the listen spec's data (`serve.models`), not a table of spec ids:
 * Ollama's `/api/tags` read by the official `ollama` client, and a user's own spec that extends
 * anthropic-messages (generated in a temporary folder with the real CLI, in process) listing its
 * routes the way `anthropic.models.list()` reads them, with nothing in the runtime naming it.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Anthropic from '@anthropic-ai/sdk';
import { Ollama } from 'ollama';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Listening } from '../../node/index.js';
import type { ServedSpec } from '../../runtime/contract/serve-codec.js';
import { runCli } from '../helpers/run-cli.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const TOKEN = 'team-token-models-0123456789';
// A provider that speaks Anthropic's Messages API at its own URL: its clients are Anthropic SDKs.
const SPEC = `id: acme-messages
extends: anthropic-messages
name: Acme Messages
endpoint:
  baseUrl: https://api.acme.invalid/v1
  apiKeyEnv: ACME_API_KEY
`;

let dir: string;
let gw: Listening;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wireforge-models-'));
  mkdirSync(join(dir, 'specs'));
  writeFileSync(join(dir, 'specs/acme-messages.yaml'), SPEC);
  const gen = await runCli(dir, '--specs', 'specs', '--out', 'generated', '--runtime-import', join(root, 'runtime/adapter-kit.js'));
  expect(gen.status, gen.stderr).toBe(0);
  const acme = (await import(join(dir, 'generated/acme-messages.ts'))) as ServedSpec;
  // Nothing is called upstream here: the targets only give the routes their names.
  const target = { spec: 'openai-chat', model: 'up', baseUrl: 'http://127.0.0.1:9', key: { keys: ['sk-upstream-unused-01'] } };
  gw = await startGateway({
    listen: [
      { spec: 'ollama', path: '/ollama' },
      { spec: acme, path: '/acme' },
      { spec: 'openai-chat', path: '/openai' },
    ],
    clients: [{ name: 'team', token: TOKEN }],
    routes: [
      { model: 'llama3:8b', targets: [target] },
      { model: 'smart', targets: [target] },
    ],
  });
}, 120_000);

afterAll(async () => {
  await gw?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('model lists by the listen spec', () => {
  it("ollama: `ollama.list()` reads GET /api/tags (names with `:` kept), and /v1/models is not Ollama's", async () => {
    const ollama = new Ollama({ host: `${gw.url}/ollama`, headers: { authorization: `Bearer ${TOKEN}` } });
    const { models } = await ollama.list();
    expect(models.map((m) => m.name)).toEqual(['llama3:8b', 'smart']);
    // The fields ollama's ListResponse types declare are all present.
    expect(Object.keys(models[0]!).sort()).toEqual(['details', 'digest', 'model', 'modified_at', 'name', 'size']);
    expect(models[0]!.model).toBe('llama3:8b');
    const openaiPath = await fetch(`${gw.url}/ollama/v1/models`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(openaiPath.status).toBe(405);
  });

  it("a user's spec that extends anthropic-messages lists as Anthropic's clients read it", async () => {
    const ant = new Anthropic({ apiKey: TOKEN, baseURL: `${gw.url}/acme` });
    const listed: string[] = [];
    for await (const m of ant.models.list()) {
      expect(m.type).toBe('model');
      listed.push(m.id);
    }
    expect(listed).toEqual(['llama3:8b', 'smart']);
    expect(await ant.models.retrieve('smart')).toMatchObject({ type: 'model', id: 'smart' });
  });

  it('a spec that names no shape (openai-chat) keeps the OpenAI list', async () => {
    const openai = new OpenAI({ apiKey: TOKEN, baseURL: `${gw.url}/openai/v1` });
    const ids: string[] = [];
    for await (const m of openai.models.list()) ids.push(m.id);
    expect(ids).toEqual(['llama3:8b', 'smart']);
  });
});
