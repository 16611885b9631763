/**
 * `wireforge serve` and `wireforge gateway` from this repository's source, run in process
 * (test/helpers/run-cli.ts): each prints where it listens, answers a client over 127.0.0.1, and
 * stops when told to (SIGINT for the process).
 */
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../generated/index.js';
import { startLoopbackServer } from '../helpers/loopback-server.js';
import { startCli, type RunningCli } from '../helpers/run-cli.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const running: RunningCli[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((c) => c.stop()));
});

/** Starts a command and resolves with the URLs it prints, by name; rejects with its output when it ends instead. */
function start(args: string[], names: string[]): Promise<Record<string, string>> {
  const cli = startCli(root, ...args);
  running.push(cli);
  return new Promise((resolve, reject) => {
    const look = () => {
      const text = cli.stdout();
      const urls: Record<string, string> = {};
      for (const n of names) {
        const url = new RegExp(`${n}\\s+(http://127\\.0\\.0\\.1:\\d+)`).exec(text)?.[1];
        if (url) urls[n] = url;
      }
      if (names.every((n) => urls[n])) return resolve(urls);
      setTimeout(look, 10);
    };
    look();
    void cli.done.then((code) => reject(new Error(`exited with ${code}: ${cli.stdout()}${cli.stderr()}`)));
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

  it('wireforge gateway: one protocol in, another out, with a token; stopping it closes the port', async () => {
    const mock = await start(['serve', 'anthropic-messages', '--key', 'sk-ant-cli-upstream-01'], ['anthropic-messages']);
    // The gateway holds the upstream key from the environment, as the process would.
    const before = process.env.ANTHROPIC_API_KEY;
    process.env.ANTHROPIC_API_KEY = 'sk-ant-cli-upstream-01';
    try {
      const gw = (await start(['gateway', '--listen', 'openai-chat', '--upstream', 'anthropic-messages', '--upstream-url', mock['anthropic-messages']!, '--token', 'gw-cli-token-0001'], ['gateway']))['gateway']!;
      const r = await createClient('openai-chat', { apiKey: 'gw-cli-token-0001', baseUrl: gw, model: 'claude-test', maxRetries: 0 }).stream({ messages: [{ role: 'user', content: 'hi' }] }).final();
      expect(r.text).toBe('Hello from the mock.');
      expect(await running.at(-1)!.stop()).toBe(0);
      await expect(fetch(`${gw}/chat/completions`, { method: 'POST' })).rejects.toThrow();
    } finally {
      if (before === undefined) delete process.env.ANTHROPIC_API_KEY;
      else process.env.ANTHROPIC_API_KEY = before;
    }
  }, 30_000);

  it('--cors on serve and --cors-origin on gateway answer a browser preflight', async () => {
    const ask = (url: string, origin: string) => fetch(url, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' } });
    const mock = (await start(['serve', 'openai-chat', '--cors'], ['openai-chat']))['openai-chat']!;
    expect((await ask(`${mock}/chat/completions`, 'http://a.localhost')).headers.get('access-control-allow-origin')).toBe('*');
    const gw = (await start(['gateway', '--listen', 'openai-chat', '--upstream', 'openai-chat', '--upstream-url', mock, '--key-from', 'caller', '--cors-origin', 'http://a.localhost', '--cors-origin', 'http://b.localhost'], ['gateway']))['gateway']!;
    expect((await ask(`${gw}/chat/completions`, 'http://b.localhost')).headers.get('access-control-allow-origin')).toBe('http://b.localhost');
    expect((await ask(`${gw}/chat/completions`, 'http://c.localhost')).headers.get('access-control-allow-origin')).toBeNull();
  }, 30_000);

  it('--max-retries, --timeout-ms and --body-limit reach the gateway; a bad count is refused', async () => {
    // Chat Completions bodies as the API writes them: a 503 error, then an answer.
    const error = { status: 503, headers: { 'content-type': 'application/json', 'retry-after-ms': '1' }, body: JSON.stringify({ error: { message: 'busy', type: 'server_error', param: null, code: null } }) };
    const answer = { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 'c1', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'second try' }, finish_reason: 'stop' }] }) };
    const up = await startLoopbackServer([error, answer, { hang: true }]);
    try {
      const gw = (await start(['gateway', '--listen', 'openai-chat', '--upstream', 'openai-chat', '--upstream-url', up.url, '--key-from', 'caller', '--max-retries', '1', '--timeout-ms', '300', '--body-limit', '2048'], ['gateway']))['gateway']!;
      const post = (content: string) => fetch(`${gw}/chat/completions`, { method: 'POST', headers: { authorization: 'Bearer caller-key', 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content }] }) });
      const ok = await post('hi');
      expect(((await ok.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe('second try');
      expect(up.requests).toHaveLength(2);
      // The third upstream request never answers: the timeout, with one retry, is a 504.
      const slow = await post('hi');
      expect(slow.status).toBe(504);
      const big = await post('x'.repeat(3000));
      expect(big.status).toBe(413);
      expect(((await big.json()) as { error: { message: string } }).error.message).toContain('2048 bytes');
    } finally {
      await up.close();
    }
    await expect(start(['gateway', '--listen', 'openai-chat', '--upstream', 'openai-chat', '--max-retries', 'two'], ['never'])).rejects.toThrow(/exited with 2: .*--max-retries takes a whole number, not "two"/s);
  }, 30_000);

  it('refuses a non-loopback address with a held key and no token', async () => {
    await expect(start(['gateway', '--listen', 'openai-chat', '--upstream', 'anthropic-messages', '--host', '0.0.0.0'], ['never'])).rejects.toThrow(/exited with 1: .*client token/s);
  }, 30_000);
});
