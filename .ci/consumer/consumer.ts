// A strict TypeScript consumer of the installed package: type-checked in CI against the shipped
// declarations (NodeNext, exactOptionalPropertyTypes, noUncheckedIndexedAccess, skipLibCheck off).
import { createClient, defineTool, runTools, type ChatResponse, type ResponsePart, type StreamEvent } from 'wireforge';
import { adapter } from 'wireforge/providers/anthropic-messages';
import type { Codec, Profile } from 'wireforge/kit';

const client = createClient('anthropic-messages', { apiKey: 'sk-test-0000', model: 'claude-sonnet-4-5' });

const weather = defineTool({
  description: 'Weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } as const,
  execute: async ({ city }) => ({ city, tempC: 18 }),
});

export async function demo(): Promise<string> {
  const res: ChatResponse = await client.chat({
    tools: [{ type: 'provider', name: 'web_search', options: { max_uses: 2 } }],
    messages: [{ role: 'user', content: 'Tide times?' }],
  });
  const sources = res.content.flatMap((p: ResponsePart) => (p.type === 'source' && p.url !== undefined ? [p.url] : []));
  const stream = client.stream({ messages: [{ role: 'user', content: 'hi' }, res.message, { role: 'user', content: 'more' }] });
  let text = '';
  for await (const piece of stream.textStream) text += piece;
  const last: StreamEvent | undefined = undefined;
  void last;
  const run = await runTools(client, { messages: [{ role: 'user', content: 'Weather in Oslo?' }] }, { tools: { weather } });
  const profile: Profile = adapter.profile;
  const codec: Codec = adapter.codec;
  void codec;
  return `${text} ${sources.join(',')} ${run.stoppedBy} ${profile.id}`;
}
