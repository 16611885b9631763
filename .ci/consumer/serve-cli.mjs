// `wireforge serve` from the installed CLI: it prints each mock's URL; a client gets an answer.
import { spawn } from 'node:child_process';
import { createClient } from 'wireforge';

// The bin itself, not through npx: a signal to npx would not reach the server it starts.
const child = spawn('node_modules/.bin/wireforge', ['serve', 'gemini'], { stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise((resolve, reject) => {
  let text = '';
  child.stdout.on('data', (d) => {
    text += d;
    const m = /gemini\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(text);
    if (m) resolve(m[1]);
  });
  child.on('exit', (code) => reject(new Error(`wireforge serve exited with ${code}: ${text}`)));
});
try {
  const r = await createClient('gemini', { apiKey: 'test-key-0000', baseUrl: url, model: 'gemini-test', maxRetries: 0 }).chat({ messages: [{ role: 'user', content: 'hi' }] });
  if (r.text !== 'Hello from the mock.') throw new Error(`unexpected text ${JSON.stringify(r.text)}`);
} finally {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGINT');
  // It stops its servers and exits on SIGINT; a server left running would hold CI open.
  const code = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve('timeout'), 5000))]);
  if (code === 'timeout') {
    child.kill('SIGKILL');
    throw new Error('wireforge serve did not stop on SIGINT');
  }
}
console.log('wireforge serve (installed CLI): ok, and it stopped on SIGINT');
