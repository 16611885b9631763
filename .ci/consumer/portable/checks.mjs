// The portability checks, the same in every runtime (a browser page under a strict CSP, Deno,
// Bun): a client call, a stream, a tool loop (a JSON Schema tool and a zod tool) and the mock's
// fetch handler, which answers the client in place of a network (createMockHandler from
// wireforge/serve, given to the client as its fetch). Throws on the first thing that differs.
import { adapters, createClient, defineTool, ProviderError, runTools } from 'wireforge';
import { createMockHandler, serves } from 'wireforge/serve';
import { z } from 'zod';

const KEY = 'sk-ant-portable-0001';

function check(ok, what, got) {
  if (!ok) throw new Error(`${what}: got ${JSON.stringify(got)}`);
}

export async function runChecks() {
  const done = [];
  const mock = createMockHandler(
    { adapter: adapters['anthropic-messages'], serve: serves['anthropic-messages'] },
    {
      apiKey: KEY,
      chunk: 5,
      script: [
        { when: { toolResultFor: 'call_f' }, reply: { text: 'Sunny in Oslo; 3 dry days.' } },
        {
          when: { lastUserText: 'weather' },
          reply: { toolCalls: [{ id: 'call_w', name: 'weather', arguments: { city: 'Oslo' } }, { id: 'call_f', name: 'forecast', arguments: { city: 'Oslo', days: 3 } }] },
        },
        { when: { stream: true }, reply: { text: 'Streamed from the mock, in pieces.', usage: { inputTokens: 4, outputTokens: 7 } } },
        { reply: { text: 'Hello from the mock.' } },
      ],
    },
  );
  // The client's fetch is the mock's handler: nothing leaves the runtime.
  const options = { apiKey: KEY, baseUrl: 'http://mock.invalid', model: 'claude-test', maxRetries: 0, fetch: (input, init) => mock.fetch(new Request(input, init)) };
  const client = createClient('anthropic-messages', options);

  const chat = await client.chat({ system: 'Be brief.', messages: [{ role: 'user', content: 'hi' }], maxTokens: 50 });
  check(chat.text === 'Hello from the mock.' && chat.finishReason === 'stop', 'chat', chat.text);
  // What the mock read back: the unified request the client wrote, on the Anthropic wire.
  const first = mock.calls[0];
  check(first.request?.system === 'Be brief.' && first.request?.messages[0]?.content === 'hi', 'the mock read the request', first.request);
  done.push('chat');

  const stream = client.stream({ messages: [{ role: 'user', content: 'stream please' }] });
  const pieces = [];
  for await (const event of stream) if (event.type === 'text-delta') pieces.push(event.delta);
  const final = await stream.final();
  check(pieces.join('') === 'Streamed from the mock, in pieces.' && pieces.length > 1, 'stream', pieces);
  check(final.usage?.outputTokens === 7, 'stream usage', final.usage);
  done.push(`stream (${pieces.length} deltas)`);

  const weather = defineTool({
    description: 'Current weather',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
    execute: async ({ city }) => `sunny in ${city}`,
  });
  const forecast = defineTool({
    description: 'Days of weather ahead',
    parameters: z.object({ city: z.string(), days: z.number().int().min(1).max(7) }),
    execute: async ({ city, days }) => `${days} dry days in ${city}`,
  });
  const loop = await runTools(client, { messages: [{ role: 'user', content: 'What is the weather in Oslo?' }] }, { tools: { weather, forecast } });
  check(loop.response.text === 'Sunny in Oslo; 3 dry days.', 'tool loop answer', loop.response.text);
  const executed = loop.steps[0]?.executions.map((e) => e.content);
  check(JSON.stringify(executed) === JSON.stringify(['sunny in Oslo', '3 dry days in Oslo']), 'tool results', executed);
  // The wire got zod's JSON Schema for the zod tool.
  const sentTools = mock.calls.at(-1).body.tools;
  const days = sentTools.find((t) => t.name === 'forecast')?.input_schema?.properties?.days;
  check(days?.maximum === 7 && days?.type === 'integer', 'the zod tool on the wire', days);
  done.push('runTools (JSON Schema and zod tools)');

  // The handler itself: a path the spec does not serve is the provider's 404; a wrong key its 401.
  const lost = await mock.fetch(new Request('http://mock.invalid/v1/nowhere', { method: 'POST', body: '{}' }));
  check(lost.status === 404, 'a path the spec does not serve', lost.status);
  const refused = await createClient('anthropic-messages', { ...options, apiKey: 'sk-ant-wrong-0000' }).chat({ messages: [{ role: 'user', content: 'hi' }] }).then(
    () => undefined,
    (e) => e,
  );
  check(refused instanceof ProviderError && refused.status === 401, 'a wrong key', refused && String(refused));
  done.push('mock fetch handler (404, 401)');
  return done;
}
