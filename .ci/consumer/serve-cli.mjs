// `wireforge serve` from the installed CLI: it prints each mock's URL; a client gets an answer.
import { spawn } from 'node:child_process';
import { createClient } from 'wireforge';

const child = spawn('npx', ['--no-install', 'wireforge', 'serve', 'gemini'], { stdio: ['ignore', 'pipe', 'inherit'] });
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
  child.kill('SIGINT');
}
console.log('wireforge serve (installed CLI): ok');
