// The installed package from an ESM script: the root entry, a provider subpath and the kit.
import assert from 'node:assert/strict';
import { createClient, createClientFor, KIT_VERSION } from 'wireforge';
import { adapter } from 'wireforge/providers/openai-chat';
import * as kit from 'wireforge/kit';
import { start } from './server.mjs';

const server = await start();
try {
  const client = createClient('openai-chat', { apiKey: 'sk-test-0000', baseUrl: server.url, model: 'm' });
  assert.equal((await client.chat({ messages: [{ role: 'user', content: 'hi' }] })).text, 'Hello from loopback.');
  let text = '';
  for await (const t of client.stream({ messages: [{ role: 'user', content: 'hi' }] }).textStream) text += t;
  assert.equal(text, 'Hello from loopback.');
  const own = createClientFor(adapter, { apiKey: 'sk-test-0000', baseUrl: server.url, model: 'm' });
  assert.equal((await own.stream({ messages: [{ role: 'user', content: 'hi' }] }).final()).text, 'Hello from loopback.');
  assert.equal(kit.KIT_VERSION, KIT_VERSION);
  assert.equal(typeof kit.defineAdapter, 'function');
  console.log('esm: ok');
} finally {
  await server.close();
}
