// The installed package's tool loop, schema validation included, run with
// --disallow-code-generation-from-strings (how Workers, Edge runtimes and strict CSP pages behave).
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { createClient, defineTool, runTools } from 'wireforge';

const turns = [
  { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'weather', arguments: '{"town":"Oslo"}' } }] },
  { role: 'assistant', content: null, tool_calls: [{ id: 'c2', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } }] },
  { role: 'assistant', content: 'Sunny.' },
];
let i = 0;
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const message = turns[Math.min(i++, turns.length - 1)];
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id: `r${i}`, model: 'm', choices: [{ index: 0, message, finish_reason: message.tool_calls ? 'tool_calls' : 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }));
  });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
try {
  const weather = defineTool({
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
    execute: async ({ city }) => `sunny in ${city}`,
  });
  const client = createClient('openai-chat', { apiKey: 'sk-test-0000', baseUrl: `http://127.0.0.1:${server.address().port}/v1`, model: 'm', maxRetries: 0 });
  const r = await runTools(client, { messages: [{ role: 'user', content: 'Weather?' }] }, { tools: { weather }, onArgumentsError: 'report' });
  assert.equal(r.response.text, 'Sunny.');
  assert.equal(r.steps[0].executions[0].isError, true);
  assert.equal(r.steps[1].executions[0].content, 'sunny in Oslo');
  console.log('tools without eval: ok');
} finally {
  server.close();
}
