/**
 * Offline demo: a loopback server that speaks OpenAI Chat Completions and Anthropic Messages
 * (replaying the protocol fixtures), and one unified client talking to both, blocking and
 * streaming. Nothing leaves 127.0.0.1.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient, type ChatRequest, type ProviderId } from '../generated/index.js';

const fixture = (id: string, name: string, ext: string) => readFileSync(new URL(`../test/fixtures/${id}/${name}.${ext}`, import.meta.url), 'utf8');

const server = createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    const request = JSON.parse(body) as { stream?: boolean };
    const id = req.url?.endsWith('/messages') ? 'anthropic-messages' : 'openai-chat';
    const name = id === 'anthropic-messages' ? 'tool-use' : 'tool-calls-parallel';
    if (request.stream) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const text = fixture(id, name, 'sse');
      // Send in small pieces, as a network would.
      let i = 0;
      const tick = setInterval(() => {
        res.write(text.slice(i, (i += 97)));
        if (i >= text.length) {
          clearInterval(tick);
          res.end();
        }
      }, 1);
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(fixture(id, name, 'json'));
    }
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;

const request: ChatRequest = {
  system: 'You are a concise assistant.',
  messages: [{ role: 'user', content: 'Look up what I need for my trip.' }],
  tools: [
    { name: 'get_weather', description: 'Current weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
    { name: 'get_stock_price', parameters: { type: 'object', properties: { ticker: { type: 'string' } }, required: ['ticker'] } },
  ],
  maxTokens: 512,
  store: true,
};

for (const id of ['openai-chat', 'anthropic-messages'] as ProviderId[]) {
  const client = createClient(id, { apiKey: 'demo-key-not-real', baseUrl, model: id === 'openai-chat' ? 'gpt-4o' : 'claude-sonnet-4-5' });
  console.log(`\n=== ${id} ===`);
  const blocking = await client.chat(request);
  console.log('chat():', { text: blocking.text, toolCalls: blocking.toolCalls, finishReason: blocking.finishReason, usage: blocking.usage });
  if (blocking.warnings.length) console.log('warnings:', blocking.warnings.map((w) => `${w.field}: ${w.message}`));

  const stream = client.stream(request);
  const counts: Record<string, number> = {};
  for await (const event of stream) counts[event.type] = (counts[event.type] ?? 0) + 1;
  const final = await stream.final();
  console.log('stream() events:', counts);
  console.log('stream().final() equals chat():', JSON.stringify({ ...final, raw: 0, warnings: 0 }) === JSON.stringify({ ...blocking, raw: 0, warnings: 0 }));
}
server.close();
