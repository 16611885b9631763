/**
 * The newcomer's test: a made-up protocol written from its own documentation (string-valued
 * lines that must be joined, an `only:<name>` tool choice, a choice required whenever tools are
 * declared, sealed thinking blocks opened by their own events, NDJSON), generated in a temporary
 * folder with the real CLI (in process), holds a tool conversation over loopback and passes the conformance
 * cases it carries. Nothing in generator/ or runtime/ knows this protocol.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createClientFor, defineTool, streamTools, type ProviderAdapter } from '../../../runtime/index.js';
import { runCli } from '../../helpers/run-cli.js';
import { loadCasesFile, runSpecCases } from '../../helpers/spec-cases.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const here = fileURLToPath(new URL('./heron/', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'wireforge-heron-'));
mkdirSync(join(dir, 'specs/cases'), { recursive: true });
copyFileSync(join(here, 'heron.yaml.txt'), join(dir, 'specs/heron.yaml'));
copyFileSync(join(here, 'heron.cases.yaml.txt'), join(dir, 'specs/cases/heron.yaml'));
const gen = await runCli(dir, '--specs', 'specs', '--out', 'generated', '--docs', '');
if (gen.status !== 0) throw new Error(`wireforge gen failed for the Heron spec:\n${gen.stderr}`);
const { adapter } = (await import(join(dir, 'generated/heron.ts'))) as { adapter: ProviderAdapter };
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The cases the spec carries, run by the same runner as the built-in specs' cases.
const cases = loadCasesFile(join(dir, 'specs/cases/heron.yaml'));
describe('heron: its own conformance cases', () => {
  it('are a valid cases file', () => expect(cases.errors).toEqual([]));
});
runSpecCases(adapter, cases.doc, 'specs/cases/heron.yaml', { lineOf: cases.lineOf });

/** A Heron server: asks for the weather tool, then answers from the results it was sent. */
async function heronServer(): Promise<{ url: string; bodies: Array<Record<string, any>>; close(): void }> {
  const bodies: Array<Record<string, any>> = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw) as Record<string, any>;
      bodies.push(body);
      const results = (body.lines as Array<Record<string, any>>).filter((l) => l.result);
      const lines = results.length
        ? [
            { kind: 'start', id: 'h-2', engine: 'heron-1' },
            { kind: 'say', bit: `Lisbon: ${results.map((r) => r.result.output).join(', ')}.` },
            { kind: 'done', why: 'finished', spent: { in: 20, out: 6 } },
          ]
        : [
            { kind: 'start', id: 'h-1', engine: 'heron-1' },
            { kind: 'ponder-open' },
            { kind: 'ponder', bit: 'They want weather.' },
            { kind: 'ponder-seal', seal: 'seal-1' },
            { kind: 'call', call: { id: 'k-1', tool: 'weather', args: { city: 'Lisbon' } } },
            { kind: 'call', call: { id: 'k-2', tool: 'weather', args: { city: 'Porto' } } },
            { kind: 'done', why: 'needs-tools', spent: { in: 12, out: 8 } },
          ];
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      const text = lines.map((l) => `${JSON.stringify(l)}\n`).join('');
      for (let i = 0; i < text.length; i += 5) res.write(text.slice(i, i + 5));
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bodies, close: () => server.close() };
}

describe('heron: a tool conversation over loopback', () => {
  it('runs the tool loop: two parallel results go back as two results, the sealed ponder with them', async () => {
    const server = await heronServer();
    try {
      const client = createClientFor(adapter, { apiKey: 'heron-key-0123456789', baseUrl: server.url, model: 'heron-1' });
      const weather = defineTool({
        description: 'Weather in a city',
        parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } as const,
        execute: async ({ city }) => (city === 'Lisbon' ? 'sunny' : 'rain'),
      });
      const result = await streamTools(client, { system: 'Be brief.', messages: [{ role: 'user', content: 'Weather?' }, { role: 'user', content: 'Lisbon and Porto.' }] }, { tools: { weather } }).final();
      expect(result.stoppedBy).toBe('answer');
      expect(result.response.text).toBe('Lisbon: sunny, rain.');
      const [first, second] = server.bodies;
      expect(first!.pick).toBe('any');
      expect(first!.lines).toEqual([
        { speaker: 'narrator', text: 'Be brief.' },
        { speaker: 'guest', text: 'Weather?\nLisbon and Porto.' },
      ]);
      // A turn of only tool calls has no text: `text: $text` leaves the key out (one rule for nothing).
      expect(second!.lines.slice(2)).toEqual([
        { speaker: 'heron', ponders: [{ text: 'They want weather.', seal: 'seal-1' }], calls: [{ id: 'k-1', tool: 'weather', args: { city: 'Lisbon' } }, { id: 'k-2', tool: 'weather', args: { city: 'Porto' } }] },
        { speaker: 'guest', result: { call: 'k-1', output: 'sunny' } },
        { speaker: 'guest', result: { call: 'k-2', output: 'rain' } },
      ]);
    } finally {
      server.close();
    }
  });

  it('the spec is all it took: the generated module names no other protocol', () => {
    const text = readFileSync(join(dir, 'generated/heron.ts'), 'utf8');
    expect(text).toContain("'only:'");
    expect(text).not.toMatch(/openai|anthropic|gemini/i);
  });
});
