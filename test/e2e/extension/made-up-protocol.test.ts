/**
 * Extension without code: a spec for a made-up protocol is written into a temporary folder,
 * generated there with the real CLI (in process), imported, and used for a streamed tool-calling turn against
 * a loopback server that speaks it. Nothing in generator/ or runtime/ knows this protocol.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClientFor, type ProviderAdapter, type StreamEvent } from '../../../runtime/index.js';
import { runCli } from '../../helpers/run-cli.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
let dir: string;
let adapter: ProviderAdapter;
let generatedFiles: string[];

// The real CLI, run in this process (test/helpers/run-cli.ts): gen type-checks what it writes,
// which takes seconds, hence the hook's own timeout.
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wireforge-parrot-'));
  mkdirSync(join(dir, 'specs'));
  writeFileSync(join(dir, 'specs/parrot.yaml'), readFileSync(new URL('./parrot.yaml.txt', import.meta.url)));
  const gen = await runCli(dir, '--specs', 'specs', '--out', 'generated', '--runtime-import', join(root, 'runtime/adapter-kit.js'));
  expect(gen.status, gen.stderr).toBe(0);
  generatedFiles = readdirSync(join(dir, 'generated')).sort();
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Seen {
  url: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

async function parrotServer(): Promise<{ url: string; seen: Seen[]; close(): void }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw) as Record<string, unknown>;
      seen.push({ url: req.url ?? '', headers: req.headers, body });
      const second = (body.dialogue as Array<{ who: string }>).some((t) => t.who === 'result');
      if (body.live !== true) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ session: 'p-b', engine: 'polly-2', reply: 'Lisbon: 18C.', why: 'finished', tally: { took: 44, gave: 5 } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const events = second
        ? [
            ['begin', { session: 'p-2', engine: 'polly-2' }],
            ['say', { piece: 'It is 18 degrees ' }],
            ['say', { piece: 'in Lisbon.' }],
            ['stop', { why: 'finished', tally: { took: 40, gave: 9 } }],
          ]
        : [
            ['begin', { session: 'p-1', engine: 'polly-2' }],
            ['say', { piece: 'Let me check.' }],
            ['use', { handle: 'h-1', ability: 'weather', input: { city: 'Lisbon', units: 'C' } }],
            ['use', { handle: 'h-2', ability: 'clock', input: {} }],
            ['stop', { why: 'wants-ability', tally: { took: 31, gave: 12 } }],
          ];
      const text = events.map(([name, data]) => `event: ${String(name)}\ndata: ${JSON.stringify(data)}\n\n`).join('');
      // Deliver in awkward pieces.
      for (let i = 0; i < text.length; i += 7) res.write(text.slice(i, i + 7));
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, close: () => server.close() };
}

describe('a made-up protocol, added as one spec', () => {
  it('generates only into the temporary folder', () => {
    expect(generatedFiles).toEqual(['index.ts', 'parrot.ts', 'serve.ts']);
  });

  it('holds a streamed tool-calling conversation over loopback', async () => {
    adapter = ((await import(join(dir, 'generated/parrot.ts'))) as { adapter: ProviderAdapter }).adapter;
    const server = await parrotServer();
    try {
      const client = createClientFor(adapter, { apiKey: 'parrot-secret-key-123', baseUrl: server.url, model: 'polly-2' });
      const tools = [
        { name: 'weather', description: 'Weather now', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
        { name: 'clock', parameters: { type: 'object', properties: {} } },
      ];
      const first = client.stream({ system: 'Answer briefly.', messages: [{ role: 'user', content: 'Weather in Lisbon?' }], tools, maxTokens: 50, topP: 0.5 });
      const events: StreamEvent[] = [];
      for await (const e of first) events.push(e);
      const turn1 = await first.final();

      expect(turn1.text).toBe('Let me check.');
      expect(turn1.toolCalls).toEqual([
        { id: 'h-1', name: 'weather', arguments: '{"city":"Lisbon","units":"C"}' },
        { id: 'h-2', name: 'clock', arguments: '{}' },
      ]);
      expect([turn1.finishReason, turn1.rawFinishReason]).toEqual(['tool_calls', 'wants-ability']);
      expect(turn1.usage).toEqual({ inputTokens: 31, outputTokens: 12, totalTokens: 43 });
      expect(turn1.warnings.map((w) => w.field)).toEqual(['topP']);
      expect(events[0]).toMatchObject({ type: 'start', id: 'p-1', model: 'polly-2' });
      expect(events.at(-1)?.type).toBe('finish');

      // The request went out in Parrot's own shape.
      const req1 = server.seen[0]!;
      expect(req1.url).toBe('/engines/polly-2/converse-live');
      expect(req1.headers['x-parrot-key']).toBe('Token parrot-secret-key-123');
      expect(req1.body).toEqual({
        setup: { persona: { instructions: 'Answer briefly.', tone: 'plain' }, cap: 50 },
        dialogue: [{ who: 'person', says: 'Weather in Lisbon?' }],
        abilities: [
          { called: 'weather', explains: 'Weather now', accepts: tools[0]!.parameters },
          { called: 'clock', accepts: tools[1]!.parameters },
        ],
        live: true,
      });

      // Turn 2: the history produced by turn 1, plus the results, in Parrot's shape.
      const turn2 = await client.chat({
        messages: [
          { role: 'user', content: 'Weather in Lisbon?' },
          turn1.message,
          { role: 'tool', toolCallId: 'h-1', content: '18C' },
          { role: 'tool', toolCallId: 'h-2', content: 'clock broke', isError: true },
        ],
      });
      expect([turn2.text, turn2.finishReason, turn2.usage?.totalTokens]).toEqual(['Lisbon: 18C.', 'stop', 49]);
      expect(server.seen[1]!.url).toBe('/engines/polly-2/converse');
      expect(server.seen[1]!.body.dialogue).toEqual([
        { who: 'person', says: 'Weather in Lisbon?' },
        {
          who: 'machine',
          says: 'Let me check.',
          uses: [
            { handle: 'h-1', ability: 'weather', input: { city: 'Lisbon', units: 'C' } },
            { handle: 'h-2', ability: 'clock', input: {} },
          ],
        },
        { who: 'result', handle: 'h-1', payload: '18C' },
        { who: 'result', handle: 'h-2', payload: 'clock broke', failed: true },
      ]);
      expect(server.seen[1]!.body.setup).toEqual({ cap: 300 });

      const second = client.stream({ messages: [{ role: 'user', content: 'Weather in Lisbon?' }, turn1.message, { role: 'tool', toolCallId: 'h-1', content: '18C' }] });
      const turn3 = await second.final();
      expect([turn3.text, turn3.finishReason, turn3.id]).toEqual(['It is 18 degrees in Lisbon.', 'stop', 'p-2']);
    } finally {
      server.close();
    }
  });

  it('a rejected field fails before anything is sent', async () => {
    const client = createClientFor(adapter, { apiKey: 'k-123456789', baseUrl: 'http://127.0.0.1:9' });
    await expect(client.chat({ model: 'm', user: 'u1', messages: [{ role: 'user', content: 'x' }] })).rejects.toThrow(/user: parrots repeat user ids/);
  });
});
