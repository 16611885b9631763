/**
 * Run as a child process under `node --disallow-code-generation-from-strings` (how Workers,
 * Edge runtimes and strict CSP pages behave) by test/e2e/no-eval.test.ts: a tool loop whose tool
 * has a JSON Schema, over a loopback server in this process; valid and invalid arguments.
 */
import { createClient, defineTool, runTools } from '../../generated/index.js';
import { jsonResponse, startLoopbackServer } from './loopback-server.js';

const turns = [
  { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'weather', arguments: '{"town":"Paris"}' } }] },
  { role: 'assistant', content: null, tool_calls: [{ id: 'c2', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } }] },
  { role: 'assistant', content: 'Sunny.' },
];
const server = await startLoopbackServer((_req, i) =>
  jsonResponse(200, { id: `r${i}`, model: 'm', choices: [{ index: 0, message: turns[i], finish_reason: i < 2 ? 'tool_calls' : 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }),
);
try {
  const weather = defineTool({
    description: 'Weather for a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false } as const,
    execute: async ({ city }) => `sunny in ${city}`,
  });
  const r = await runTools(createClient('openai-chat', { apiKey: 'k-0000000000', baseUrl: `${server.url}/v1`, model: 'm', maxRetries: 0 }), { messages: [{ role: 'user', content: 'Weather?' }] }, { tools: { weather }, onArgumentsError: 'report' });
  const results = r.steps.flatMap((s) => s.executions.map((e) => ({ isError: e.isError, content: e.content })));
  process.stdout.write(JSON.stringify({ text: r.response.text, results }));
} finally {
  await server.close();
}
