// The server side from the packed package, the user's way: a mock and a gateway from
// wireforge/serve/node, the client through both, over 127.0.0.1.
import { createClient } from 'wireforge';
import { createMockServer, startGateway } from 'wireforge/serve/node';

const mock = await createMockServer({ provider: 'anthropic-messages', script: [{ reply: { text: 'hello from the packed mock' } }] });
const gateway = await startGateway({ listen: 'openai-chat', upstream: 'anthropic-messages', clientToken: 'gw-token-123456789', client: { apiKey: 'sk-ant-packed-000000', baseUrl: mock.url, maxRetries: 0 } });
try {
  const client = createClient('openai-chat', { apiKey: 'gw-token-123456789', baseUrl: gateway.url, model: 'claude-test', maxRetries: 0 });
  const r = await client.stream({ messages: [{ role: 'user', content: 'hi' }] }).final();
  if (r.text !== 'hello from the packed mock') throw new Error(`unexpected text ${JSON.stringify(r.text)}`);
  if (mock.requests[0]?.request?.messages[0]?.content !== 'hi') throw new Error('the mock did not read the request');
} finally {
  await gateway.close();
  await mock.close();
}
console.log('server side from the package (mock, gateway, client through both): ok');
