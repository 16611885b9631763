/**
 * One rule for nothing: a slot whose value is absent or null leaves its key out; `$null` (or a
 * `|null` fallback) writes a JSON null on purpose. Run on a made-up overlay of MINI whose
 * assistant template is `body: $text`, and on OpenAI Chat, which sends null on purpose.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../generator/pipeline.js';
import type { ProviderAdapter } from '../../runtime/contract/adapter.js';
import type { ChatRequest } from '../../runtime/contract/unified-model.js';
import { adapter as openaiChat } from '../../generated/openai-chat.js';
import { MINI } from './helpers.js';

const OVERLAY = { file: 'test/generator/mini-text-turns.yaml', text: readFileSync(new URL('mini-text-turns.yaml', import.meta.url), 'utf8') };
const call = { id: 'c1', name: 'get_weather', arguments: '{"city":"Paris"}' };
const toolOnly: ChatRequest = {
  model: 'm',
  messages: [
    { role: 'user', content: 'Weather?' },
    { role: 'assistant', content: null, toolCalls: [call] },
    { role: 'tool', toolCallId: 'c1', content: 'Sunny' },
  ],
};

describe('a tool-only assistant turn under `body: $text`', () => {
  let dir: string;
  let adapter: ProviderAdapter;
  beforeAll(async () => {
    const kit = fileURLToPath(new URL('../../runtime/adapter-kit.js', import.meta.url));
    const { files, diagnostics } = await generate([MINI, OVERLAY], { runtimeImport: kit });
    expect(diagnostics).toEqual([]);
    dir = mkdtempSync(join(tmpdir(), 'wireforge-nothing-'));
    for (const [name, text] of files) writeFileSync(join(dir, name), text);
    adapter = ((await import(join(dir, 'mini-text-turns.ts'))) as { adapter: ProviderAdapter }).adapter;
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const turns = (req: ChatRequest) => (adapter.buildRequest(req, 'blocking').body as { turns: Array<Record<string, unknown>> }).turns;

  it('writes no body key, not a null one', () => {
    const bot = turns(toolOnly).find((t) => t.speaker === 'bot')!;
    expect(bot).toBeDefined();
    expect('body' in bot && bot.body !== undefined).toBe(false);
    expect(JSON.stringify(bot)).not.toContain('"body"');
    expect(bot.calls).toEqual([[{ kind: 'call', ref: 'c1', fn: 'get_weather', args: { city: 'Paris' } }]]);
  });

  it('an empty text is absent too; a turn with text writes it', () => {
    const empty = { ...toolOnly, messages: toolOnly.messages.map((m) => (m.role === 'assistant' ? { ...m, content: '' } : m)) };
    expect(JSON.stringify(turns(empty))).not.toContain('"body":null');
    const said = { ...toolOnly, messages: toolOnly.messages.map((m) => (m.role === 'assistant' ? { ...m, content: 'Let me look.' } : m)) };
    expect(turns(said).find((t) => t.speaker === 'bot')!.body).toBe('Let me look.');
  });
});

describe('`$text|null` writes a JSON null on purpose (OpenAI Chat)', () => {
  it('a tool-only assistant turn keeps content: null', () => {
    const body = openaiChat.buildRequest(toolOnly, 'blocking').body as { messages: Array<Record<string, unknown>> };
    const assistant = body.messages.find((m) => m.role === 'assistant')!;
    expect(assistant).toHaveProperty('content', null);
  });
});
