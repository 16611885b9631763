// The gateway for teams' CORS, enforced by a real browser: headless Chromium (Debian's, driven by
// playwright-core) opens a page on an allowed origin and one on another origin; each calls the
// packed gateway (openai.models.list()'s request and a chat completion, with the client token, so
// both need a preflight). The allowed page gets the route list and an answer with the target
// header exposed; the browser blocks the other. Nothing leaves 127.0.0.1.
import { createServer } from 'node:http';
import { chromium } from 'playwright-core';
import { createMockServer, startGateway } from 'wireforge/serve/node';

const TOKEN = 'team-token-browser-0123456789';
const page = () => createServer((_, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>app</title>'));
const [allowed, other] = [page(), page()];
await Promise.all([allowed, other].map((s) => new Promise((resolve) => s.listen(0, '127.0.0.1', resolve))));
const origin = (s) => `http://127.0.0.1:${s.address().port}`;
const mock = await createMockServer({ provider: 'anthropic-messages', script: [{ reply: { text: 'hello, browser' } }] });
const gateway = await startGateway({
  listen: [{ spec: 'openai-chat', path: '/openai' }],
  clients: [{ name: 'app', token: TOKEN }],
  routes: [{ model: 'claude', targets: [{ spec: 'anthropic-messages', model: 'claude-up', baseUrl: mock.url, key: { keys: ['sk-ant-browser-000000'] } }] }],
  cors: [origin(allowed)],
});
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
try {
  /** What a page on this origin gets from the gateway: the model list and one answer, or the browser's refusal. */
  const callFrom = async (server) => {
    const tab = await browser.newPage();
    await tab.goto(`${origin(server)}/`);
    return tab.evaluate(
      async ({ base, token }) => {
        try {
          const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
          const list = await (await fetch(`${base}/v1/models`, { headers })).json();
          const res = await fetch(`${base}/v1/chat/completions`, { method: 'POST', headers, body: JSON.stringify({ model: 'claude', messages: [{ role: 'user', content: 'hi' }] }) });
          const body = await res.json();
          return { ids: list.data.map((m) => m.id), text: body.choices[0].message.content, target: res.headers.get('x-wireforge-target') };
        } catch (e) {
          return { blocked: String(e) };
        }
      },
      { base: `${gateway.url}/openai`, token: TOKEN },
    );
  };
  const ok = await callFrom(allowed);
  if (JSON.stringify(ok) !== JSON.stringify({ ids: ['claude'], text: 'hello, browser', target: 'anthropic-messages/claude-up' })) throw new Error(`the allowed origin: ${JSON.stringify(ok)}`);
  const refused = await callFrom(other);
  if (!refused.blocked?.includes('Failed to fetch')) throw new Error(`another origin was not blocked: ${JSON.stringify(refused)}`);
  console.log(`Chromium ${browser.version()}: the gateway's CORS lets ${origin(allowed)} list the routes and call one (target header exposed); ${origin(other)} is blocked: ok`);
} finally {
  await browser.close();
  await gateway.close();
  await mock.close();
  allowed.close();
  other.close();
}
