// A JavaScript project: `wireforge gen --js --out generated-js` wrote .js + .d.ts, which plain Node
// imports (no TypeScript, no loader). It streams through the project's own specs: Tern (from
// scratch) against the loopback server, and acme (extends openai-chat) against
// `wireforge serve acme` from the installed CLI, started, called and stopped here.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createClient, RequestError } from './generated-js/index.js';
import { start } from './server.mjs';

const request = { system: 'Be brief.', messages: [{ role: 'user', content: 'Say hello.' }], temperature: 0.2 };

const server = await start();
try {
  const tern = createClient('tern', { apiKey: 'tern-test-key', baseUrl: server.ternUrl, model: 'tern-1' });
  const stream = tern.stream(request);
  let text = '';
  for await (const event of stream) if (event.type === 'text-delta') text += event.delta;
  const final = await stream.final();
  assert.equal(text, 'Hello from the tern.');
  assert.deepEqual([final.finishReason, final.usage?.outputTokens], ['stop', 5]);
  const sent = server.requests.find((r) => r.url === '/tern/reply');
  assert.equal(sent.headers['x-tern-key'], 'tern-test-key');
  assert.deepEqual(sent.body.turns, [{ from: 'person', words: 'Say hello.' }]);
  await assert.rejects(tern.chat({ messages: [{ role: 'usr', content: 'hi' }] }), (e) => e instanceof RequestError && /messages\[0\]\.role/.test(e.message));
} finally {
  await server.close();
}

// The bin itself, not through npx: a signal to npx would not reach the server it starts.
const child = spawn('node_modules/.bin/wireforge', ['serve', 'acme', '--key', 'acme-test-key'], { stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise((resolve, reject) => {
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
    const m = /acme\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(out);
    if (m) resolve(m[1]);
  });
  child.on('exit', (code) => reject(new Error(`wireforge serve acme exited with ${code}: ${out}`)));
});
try {
  const acme = createClient('acme', { apiKey: 'acme-test-key', baseUrl: url, model: 'acme-1', maxRetries: 0 });
  let text = '';
  for await (const piece of acme.stream(request).textStream) text += piece;
  assert.equal(text, 'Hello from the mock.');
  // A wrong key: the mock answers 401 in the OpenAI shape, which the client reads as such.
  const wrong = createClient('acme', { apiKey: 'not-the-key', baseUrl: url, model: 'acme-1', maxRetries: 0 });
  await assert.rejects(wrong.chat(request), (e) => e.status === 401);
} finally {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGINT');
  const code = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve('timeout'), 5000))]);
  if (code === 'timeout') {
    child.kill('SIGKILL');
    throw new Error('wireforge serve acme did not stop on SIGINT');
  }
}
console.log('a JavaScript project (gen --js, plain Node): streamed through tern and through `wireforge serve acme`: ok');
