// The AI SDK bridge from the packed package, the user's way: `ai` 7 with `wireforge/ai-sdk`,
// generateText, streamText and a tool round through a mock from wireforge/serve/node.
import { generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai';
import { createWireforgeProvider, languageModel } from 'wireforge/ai-sdk';
import { createMockServer } from 'wireforge/serve/node';

const key = 'sk-ant-packed-ai-sdk-0000';
const mock = await createMockServer({
  provider: 'anthropic-messages',
  apiKey: key,
  script: [
    { when: { toolResultFor: 'call_p1' }, reply: { text: 'It is 18 degrees.' } },
    { when: { lastUserText: 'weather' }, reply: { thinking: { text: 'Call the tool.', signature: 'sig-packed-1' }, toolCalls: [{ id: 'call_p1', name: 'weather', arguments: { city: 'Paris' } }] } },
    { reply: { text: 'hello from the packed bridge' } },
  ],
});
try {
  const model = languageModel('anthropic-messages', { model: 'claude-test', apiKey: key, baseUrl: mock.url });
  const g = await generateText({ model, prompt: 'hi', maxRetries: 0 });
  if (g.text !== 'hello from the packed bridge') throw new Error(`generateText: ${JSON.stringify(g.text)}`);
  const s = streamText({ model, prompt: 'hi', maxRetries: 0 });
  if ((await s.text) !== 'hello from the packed bridge') throw new Error('streamText: wrong text');
  const wf = createWireforgeProvider({ clients: { 'anthropic-messages': { apiKey: key, baseUrl: mock.url } } });
  const weather = tool({ inputSchema: jsonSchema({ type: 'object', properties: { city: { type: 'string' } } }), execute: async () => ({ temperature: 18 }) });
  const t = await generateText({ model: wf('anthropic-messages/claude-test'), prompt: 'weather in Paris?', tools: { weather }, stopWhen: stepCountIs(3), maxRetries: 0 });
  if (t.text !== 'It is 18 degrees.') throw new Error(`tools: ${JSON.stringify(t.text)}`);
  const sent = JSON.stringify(mock.requests.at(-1).body);
  if (!sent.includes('sig-packed-1')) throw new Error('the thinking signature did not go back on the second step');
} finally {
  await mock.close();
}
console.log('AI SDK bridge from the package (generateText, streamText, a tool round with thinking): ok');
