/**
 * The CLI's messages say what applies to the command at hand: `check` names only the folders it
 * compares, each command's help lists its own options and only the folder defaults it uses, an
 * option of another command is refused, and a gateway without an upstream key is told the
 * variable to set or the flag to pass (not a library call).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cliProject, MINI } from './helpers.js';
import { runCli } from '../helpers/run-cli.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

describe('wireforge check', () => {
  it('names the output folder alone when no docs folder is in use', async () => {
    const dir = cliProject({ 'mini.yaml': MINI.text });
    const r = await runCli(dir, 'check');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('generated/ does not match the specs');
    expect(r.stderr).not.toContain('undefined');
  }, 60_000);

  it('names both when docs are generated too', async () => {
    const dir = cliProject({ 'mini.yaml': MINI.text });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ wireforge: { docs: 'docs' } }));
    const r = await runCli(dir, 'check');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('generated/ or docs/ does not match the specs');
  }, 60_000);
});

describe('help', () => {
  const helpOf = async (command: string) => (await runCli(root, command, '--help')).stdout;

  it('gen and check: the three folder defaults', async () => {
    for (const c of ['gen', 'check']) {
      const text = await helpOf(c);
      expect(text).toContain('Defaults for --specs, --out and --docs come from a "wireforge" field in package.json');
    }
  });

  it('validate and new: the specs folder only', async () => {
    for (const c of ['validate', 'new']) {
      const text = await helpOf(c);
      expect(text).toContain('The default for --specs comes from a "wireforge" field in package.json ({ "specs": "specs" }); without it: specs/.');
      expect(text).not.toMatch(/--out|--docs|generated\//);
    }
  });

  it('serve and gateway: their own options, and only the folder default they use (--specs, for your own ids)', async () => {
    const serve = await helpOf('serve');
    expect(serve).toMatch(/--specs DIR.*--port N.*--script.*--key KEY/);
    expect(serve).toMatch(/default for --specs comes from a "wireforge" field in package\.json/);
    expect(serve).not.toMatch(/--out|--docs|--listen/);
    const gateway = await helpOf('gateway');
    expect(gateway).toMatch(/--listen <id> --upstream <id>.*--specs DIR.*--token T.*--key-from env\|caller/);
    expect(gateway).not.toMatch(/--out|--docs|--script/);
  });

  it("an option of another command is refused, with the command's usage", async () => {
    const r = await runCli(root, 'serve', 'openai-chat', '--out', 'x');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('wireforge serve takes no --out');
    expect(r.stderr).toContain('wireforge serve <id>…');
    const v = await runCli(root, 'validate', 'a.yaml', '--listen', 'openai-chat');
    expect(v.stderr).toContain('wireforge validate takes no --listen');
  });
});

describe('wireforge gateway without an upstream key', () => {
  it('advises the variable or --key-from caller', async () => {
    const saved = process.env.ANTHROPIC_API_KEY;
    delete process.env.ANTHROPIC_API_KEY;
    try {
      const r = await runCli(root, 'gateway', '--listen', 'openai-chat', '--upstream', 'anthropic-messages');
      expect(r.status).toBe(1);
      expect(r.stderr).toContain('the gateway has no key for anthropic-messages: set ANTHROPIC_API_KEY in its environment, or pass --key-from caller');
      expect(r.stderr).not.toContain('createClient');
    } finally {
      if (saved !== undefined) process.env.ANTHROPIC_API_KEY = saved;
    }
  });
});
