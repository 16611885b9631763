/**
 * `wireforge serve` and `wireforge gateway` from this repository's source: each prints where it
 * listens, answers a client over 127.0.0.1, and stops on SIGINT.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../generated/index.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const tsx = `${root}node_modules/.bin/tsx`;
const running: ChildProcess[] = [];
afterEach(() => {
  for (const c of running.splice(0)) c.kill('SIGINT');
});

/** Starts the CLI and resolves with the URLs it prints, by name. */
function start(args: string[], names: string[]): Promise<Record<string, string>> {
  const child = spawn(tsx, ['generator/cli.ts', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  running.push(child);
  return new Promise((resolve, reject) => {
    let text = '';
    const urls: Record<string, string> = {};
    const take = (d: Buffer) => {
      text += d.toString();
      for (const n of names) urls[n] ??= new RegExp(`${n}\\s+(http://127\\.0\\.0\\.1:\\d+)`).exec(text)?.[1] as string;
      if (names.every((n) => urls[n])) resolve(urls);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', (d: Buffer) => (text += d.toString()));
    child.on('exit', (code) => reject(new Error(`exited with ${code}: ${text}`)));
  });
}

describe('the serve commands', () => {
  it('wireforge serve: a mock per id, at the URLs it prints', async () => {
    const urls = await start(['serve', 'openai-chat', 'anthropic-messages', '--key', 'cli-key-0001'], ['openai-chat', 'anthropic-messages']);
    for (const id of ['openai-chat', 'anthropic-messages'] as const) {
      const r = await createClient(id, { apiKey: 'cli-key-0001', baseUrl: urls[id]!, model: 'm', maxRetries: 0 }).chat({ messages: [{ role: 'user', content: 'hi' }] });
      expect(r.text).toBe('Hello from the mock.');
    }
    await expect(createClient('openai-chat', { apiKey: 'wrong-key', baseUrl: urls['openai-chat']!, model: 'm', maxRetries: 0 }).chat({ messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ status: 401 });
  }, 30_000);

  it('wireforge gateway: one protocol in, another out, with a token', async () => {
    const mock = await start(['serve', 'anthropic-messages', '--key', 'sk-ant-cli-upstream-01'], ['anthropic-messages']);
    const gw = await new Promise<string>((resolve, reject) => {
      const child = spawn(tsx, ['generator/cli.ts', 'gateway', '--listen', 'openai-chat', '--upstream', 'anthropic-messages', '--upstream-url', mock['anthropic-messages']!, '--token', 'gw-cli-token-0001'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ANTHROPIC_API_KEY: 'sk-ant-cli-upstream-01' } });
      running.push(child);
      let text = '';
      child.stdout.on('data', (d: Buffer) => {
        text += d.toString();
        const m = /gateway (http:\/\/127\.0\.0\.1:\d+)/.exec(text);
        if (m) resolve(m[1]!);
      });
      child.stderr.on('data', (d: Buffer) => (text += d.toString()));
      child.on('exit', (code) => reject(new Error(`exited with ${code}: ${text}`)));
    });
    const r = await createClient('openai-chat', { apiKey: 'gw-cli-token-0001', baseUrl: gw, model: 'claude-test', maxRetries: 0 }).stream({ messages: [{ role: 'user', content: 'hi' }] }).final();
    expect(r.text).toBe('Hello from the mock.');
  }, 30_000);

  it('refuses a non-loopback address with a held key and no token', async () => {
    await expect(start(['gateway', '--listen', 'openai-chat', '--upstream', 'anthropic-messages', '--host', '0.0.0.0'], ['never'])).rejects.toThrow(/exited with 1: .*client token/s);
  }, 30_000);
});
