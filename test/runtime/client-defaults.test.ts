/** Model-level defaults from createClient merge with request values; the request wins where it sets a value. */
import { describe, expect, it, vi } from 'vitest';
import { adapter as openai } from '../../generated/openai-chat.js';
import { createClientFor } from '../../generated/index.js';
import { fetchReturning } from '../helpers/replay.js';

const OK = JSON.stringify({ id: 'c', model: 'm', choices: [{ message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }] });

function capture() {
  const bodies: Array<Record<string, unknown>> = [];
  const inner = fetchReturning([new TextEncoder().encode(OK)], 'application/json');
  const fetch = (async (url: string, init: RequestInit) => {
    bodies.push(JSON.parse(String(init.body)) as Record<string, unknown>);
    return inner(url, init);
  }) as typeof globalThis.fetch;
  return { bodies, fetch };
}

describe('createClient defaults', () => {
  it('client model and defaults apply; request values win; providerOptions merge key by key', async () => {
    const { bodies, fetch } = capture();
    const client = createClientFor(openai, {
      apiKey: 'k-000000000',
      model: 'gpt-4o-mini',
      fetch,
      defaults: { temperature: 0.2, maxTokens: 100, providerOptions: { seed: 7, service_tier: 'flex' } },
    });
    await client.chat({ messages: [{ role: 'user', content: 'a' }] });
    await client.chat({ model: 'gpt-4o', temperature: 0.9, messages: [{ role: 'user', content: 'b' }], providerOptions: { seed: 8 } });
    expect(bodies[0]).toMatchObject({ model: 'gpt-4o-mini', temperature: 0.2, max_completion_tokens: 100, seed: 7, service_tier: 'flex' });
    expect(bodies[1]).toMatchObject({ model: 'gpt-4o', temperature: 0.9, max_completion_tokens: 100, seed: 8, service_tier: 'flex' });
  });

  it('an unset request value does not erase a default', async () => {
    const { bodies, fetch } = capture();
    const client = createClientFor(openai, { apiKey: 'k-000000000', fetch, defaults: { model: 'm1', topP: 0.5 } });
    await client.chat({ topP: undefined, messages: [{ role: 'user', content: 'a' }] });
    expect(bodies[0]).toMatchObject({ model: 'm1', top_p: 0.5 });
  });

  it('a missing key is a clear error naming the env var', () => {
    vi.stubEnv('OPENAI_API_KEY', undefined);
    try {
      expect(() => createClientFor(openai, {})).toThrow(/OPENAI_API_KEY/);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
