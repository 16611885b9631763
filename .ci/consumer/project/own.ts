// A user's project: one spec made with `wireforge new acme --extends openai-chat`, one written from
// scratch (specs/tern.yaml), both generated with `wireforge gen`. The index's createClient takes the
// built-in ids and the project's own.
import { createClient, RequestError, type ChatRequest, type ProviderId } from './generated/index.js';

export const ids: ProviderId[] = ['acme', 'tern', 'openai-chat', 'anthropic-messages'];
// @ts-expect-error an id neither built in nor the project's is not a ProviderId
export const notAnId: ProviderId = 'nope';

const request: ChatRequest = { system: 'Be brief.', messages: [{ role: 'user', content: 'Say hello.' }], temperature: 0.2 };

export interface Outcome {
  acme: string;
  tern: string;
  ternFinish: string | null;
  ternOutputTokens: number | undefined;
  refused: string;
}

export async function run(urls: { chat: string; tern: string }): Promise<Outcome> {
  const acme = createClient('acme', { apiKey: 'acme-test-key', baseUrl: urls.chat, model: 'acme-1' });
  let acmeText = '';
  for await (const piece of acme.stream(request).textStream) acmeText += piece;

  const tern = createClient('tern', { apiKey: 'tern-test-key', baseUrl: urls.tern, model: 'tern-1' });
  const stream = tern.stream(request);
  let ternText = '';
  for await (const event of stream) if (event.type === 'text-delta') ternText += event.delta;
  const final = await stream.final();

  let refused = '';
  try {
    // From plain JavaScript a role can be anything: the boundary names the path.
    await tern.chat({ messages: [{ role: 'usr', content: 'hi' }] } as unknown as ChatRequest);
  } catch (e) {
    if (e instanceof RequestError) refused = e.message;
  }
  return { acme: acmeText, tern: ternText, ternFinish: final.finishReason, ternOutputTokens: final.usage?.outputTokens, refused };
}
