// Runs the user's project (compiled by tsc into build/) against loopback servers for both wires.
import assert from 'node:assert/strict';
import { start } from './server.mjs';
import { run } from './build/own.js';

const server = await start();
try {
  const out = await run({ chat: server.url, tern: server.ternUrl });
  assert.equal(out.acme, 'Hello from loopback.');
  assert.equal(out.tern, 'Hello from the tern.');
  assert.equal(out.ternFinish, 'stop');
  assert.equal(out.ternOutputTokens, 5);
  assert.match(out.refused, /messages\[0\]\.role/);
  // What the from-scratch spec wrote: its own field names, the key in its own header.
  const sent = server.requests.find((r) => r.url === '/tern/reply');
  assert.equal(sent.headers['x-tern-key'], 'tern-test-key');
  assert.deepEqual(
    { engine: sent.body.engine, brief: sent.body.brief, heat: sent.body.heat, live: sent.body.live, turns: sent.body.turns },
    { engine: 'tern-1', brief: 'Be brief.', heat: 0.2, live: true, turns: [{ from: 'person', words: 'Say hello.' }] },
  );
  // The extending spec: the OpenAI Chat wire at acme's model.
  assert.equal(server.requests.find((r) => r.url === '/v1/chat/completions').body.model, 'acme-1');
  console.log('user project (a spec extending openai-chat, one from scratch): ok');
} finally {
  await server.close();
}
