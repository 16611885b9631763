/** Tool arguments with __proto__ / constructor / prototype keys cannot pollute prototypes. */
import { describe, expect, it } from 'vitest';
import { adapters } from '../../generated/index.js';
import { createClientFor, runTools, type ProviderAdapter } from '../../generated/index.js';

const openai = adapters['openai-chat'] as ProviderAdapter;
const ARGS = '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted2":true}},"city":"Paris"}';

function scripted(): typeof globalThis.fetch {
  let n = 0;
  return (async () => {
    n++;
    const message =
      n === 1
        ? { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: ARGS } }] }
        : { role: 'assistant', content: 'done' };
    return new Response(JSON.stringify({ id: `c${n}`, choices: [{ message, finish_reason: n === 1 ? 'tool_calls' : 'stop' }] }), {
      headers: { 'content-type': 'application/json' },
    });
  }) as typeof globalThis.fetch;
}

describe('hostile tool arguments', () => {
  it('reach the tool as data and leave Object.prototype alone', async () => {
    let seen: Record<string, unknown> | undefined;
    const result = await runTools(
      createClientFor(openai, { apiKey: 'k-0000000000', fetch: scripted() }),
      { model: 'm', messages: [{ role: 'user', content: 'x' }] },
      {
        tools: {
          weather: {
            parameters: { type: 'object', properties: { city: { type: 'string' } } },
            execute: (args) => {
              seen = args as Record<string, unknown>;
              return 'ok';
            },
          },
        },
      },
    );
    expect(result.response.text).toBe('done');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted2).toBeUndefined();
    expect(Object.prototype.hasOwnProperty.call(seen, '__proto__')).toBe(true);
    expect(seen?.city).toBe('Paris');
    // The call goes back into the history byte for byte.
    expect(result.messages[1]).toMatchObject({ role: 'assistant', toolCalls: [{ arguments: ARGS }] });
  });
});
