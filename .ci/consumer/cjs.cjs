// The installed package from CommonJS (require of an ES module: Node >= 20.19).
const assert = require('node:assert/strict');
const { createClient, RequestError } = require('wireforge');

(async () => {
  const { start } = await import('./server.mjs');
  const server = await start();
  try {
    const client = createClient('openai-chat', { apiKey: 'sk-test-0000', baseUrl: server.url, model: 'm' });
    assert.equal((await client.chat({ messages: [{ role: 'user', content: 'hi' }] })).text, 'Hello from loopback.');
    await assert.rejects(client.chat({ messages: [{ role: 'usr', content: 'hi' }] }), RequestError);
    console.log('cjs: ok');
  } finally {
    await server.close();
  }
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
