/**
 * Tools described with a Standard Schema library (zod 4 here): the model gets the library's JSON
 * Schema, the library checks the arguments (its own messages, with paths), execute gets the
 * library's typed output, and a schema without a JSON Schema side is refused naming the tool.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { adapters, createClientFor, defineTool, RequestError, runTools, ToolArgumentsError } from '../../generated/index.js';

const bodies: unknown[] = [];
function scripted(turns: unknown[]): typeof fetch {
  let i = 0;
  return (async (_url: string, init: { body: string }) => {
    bodies.push(JSON.parse(init.body));
    const message = turns[Math.min(i, turns.length - 1)];
    i++;
    return new Response(JSON.stringify({ id: `r${i}`, model: 'm', choices: [{ index: 0, message, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }), { headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
}
const callTurn = (args: string) => ({ role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'weather', arguments: args } }] });
const ASK = { model: 'm', messages: [{ role: 'user' as const, content: 'Weather?' }] };

const weather = defineTool({
  description: 'Weather for a city',
  parameters: z.object({ city: z.string(), days: z.number().int().min(1).default(1) }),
  execute: async (args) => {
    expectTypeOf(args).toEqualTypeOf<{ city: string; days: number }>();
    return `${args.days} day(s) of sun in ${args.city}`;
  },
});

describe('Standard Schema tools (zod 4)', () => {
  it("the wire carries the library's JSON Schema; execute gets the library's output (defaults applied)", async () => {
    bodies.length = 0;
    const client = createClientFor(adapters['openai-chat'], { apiKey: 'k-0000000000', fetch: scripted([callTurn('{"city":"Oslo"}'), { role: 'assistant', content: 'Done.' }]) });
    const r = await runTools(client, ASK, { tools: { weather } });
    expect(r.steps[0]!.executions[0]).toMatchObject({ isError: false, content: '1 day(s) of sun in Oslo' });
    const tool = (bodies[0] as { tools: Array<{ function: { parameters: Record<string, unknown> } }> }).tools[0]!.function.parameters;
    expect(tool).toMatchObject({ type: 'object', properties: { city: { type: 'string' } } });
    expect(tool).not.toHaveProperty('$schema');
  });

  it("invalid arguments: the library's issues, with paths, as a ToolArgumentsError", async () => {
    const client = createClientFor(adapters['openai-chat'], { apiKey: 'k-0000000000', fetch: scripted([callTurn('{"city":7,"days":0}')]) });
    const error = (await runTools(client, ASK, { tools: { weather } }).catch((e: unknown) => e)) as ToolArgumentsError;
    expect(error).toBeInstanceOf(ToolArgumentsError);
    expect(error.errors.map((e) => e.path)).toEqual(['/city', '/days']);
    expect(error.errors[0]!.message).toMatch(/expected string/);
  });

  it('a schema that is a function carrying ~standard (as arktype types are) is a Standard Schema', async () => {
    const callable = Object.assign(() => undefined, {
      '~standard': {
        version: 1 as const,
        vendor: 'callable',
        validate: (v: unknown) => ({ value: v as { city: string } }),
        jsonSchema: { input: () => ({ type: 'object', properties: { city: { type: 'string' } } }) },
      },
    });
    const tool = defineTool({ parameters: callable, execute: (a) => `ok ${a.city}` });
    const client = createClientFor(adapters['openai-chat'], { apiKey: 'k-0000000000', fetch: scripted([callTurn('{"city":"Rome"}'), { role: 'assistant', content: 'Done.' }]) });
    const r = await runTools(client, ASK, { tools: { weather: tool } });
    expect(r.steps[0]!.executions[0]).toMatchObject({ isError: false, content: 'ok Rome' });
  });

  it('a Standard Schema without a JSON Schema side is refused, naming the tool', async () => {
    const opaque = { '~standard': { version: 1 as const, vendor: 'acme', validate: (v: unknown) => ({ value: v }) } };
    const tool = defineTool({ parameters: opaque, execute: () => 'x' });
    const client = createClientFor(adapters['openai-chat'], { apiKey: 'k-0000000000', fetch: scripted([{ role: 'assistant', content: 'x' }]) });
    const error = (await runTools(client, ASK, { tools: { tool } }).catch((e: unknown) => e)) as RequestError;
    expect(error).toBeInstanceOf(RequestError);
    expect(error.field).toBe('tools.tool.parameters');
    expect(error.message).toContain('acme');
  });
});
