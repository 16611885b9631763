// The installed package's tool loop, schema validation included (a JSON Schema tool and a zod
// tool), run with --disallow-code-generation-from-strings (how Workers, Edge runtimes and strict
// CSP pages behave).
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { createClient, defineTool, runTools } from 'wireforge';
import { z } from 'zod';

const call = (id, name, args) => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } });

const turns = [
  { role: 'assistant', content: null, tool_calls: [call('c1', 'weather', { town: 'Oslo' }), call('f1', 'forecast', { city: 'Oslo', days: 0 })] },
  { role: 'assistant', content: null, tool_calls: [call('c2', 'weather', { city: 'Oslo' }), call('f2', 'forecast', { city: 'Oslo', days: 2 })] },
  { role: 'assistant', content: 'Sunny.' },
];
let i = 0;
const bodies = [];
const server = createServer((req, res) => {
  let raw = '';
  req.on('data', (c) => (raw += c));
  req.on('end', () => {
    bodies.push(JSON.parse(raw));
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
  const forecast = defineTool({
    description: 'Days of weather ahead',
    parameters: z.object({ city: z.string(), days: z.number().int().min(1).max(7) }),
    execute: async ({ city, days }) => `${days} dry days in ${city}`,
  });
  const client = createClient('openai-chat', { apiKey: 'sk-test-0000', baseUrl: `http://127.0.0.1:${server.address().port}/v1`, model: 'm', maxRetries: 0 });
  const r = await runTools(client, { messages: [{ role: 'user', content: 'Weather?' }] }, { tools: { weather, forecast }, onArgumentsError: 'report' });
  assert.equal(r.response.text, 'Sunny.');
  assert.deepEqual(r.steps[0].executions.map((e) => e.isError), [true, true]);
  assert.deepEqual(r.steps[1].executions.map((e) => e.content), ['sunny in Oslo', '2 dry days in Oslo']);
  // The wire got zod's JSON Schema for the zod tool.
  const sent = bodies[0].tools.find((t) => t.function.name === 'forecast').function.parameters;
  assert.deepEqual(sent.required, ['city', 'days']);
  assert.equal(sent.properties.days.maximum, 7);
  console.log('tools without eval: ok');
} finally {
  server.close();
}
