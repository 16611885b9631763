/**
 * OpenAI Responses tools the caller runs (shell, apply_patch…), item ids and the items that must
 * follow reasoning, over the Responses mock on 127.0.0.1. The mock refuses what the API refuses
 * (its spec's request rules, docs/wire-facts.md#openai-responses-item-rules), so a turn 2 that
 * loses an id or leaves a call unanswered gets the API's 400 here too.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, defineTool, ProviderError, runTools, streamTools, type AssistantMessage, type ChatRequest, type ToolKinds } from '../../generated/index.js';
import { createMockServer, type MockServer } from '../../node/index.js';

const KEY = 'mock-key-responses-0001';
let mock: MockServer | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

type Json = Record<string, unknown>;
const client = (m: MockServer, id: 'openai-responses' | 'anthropic-messages' = 'openai-responses') => createClient(id, { apiKey: KEY, baseUrl: m.url, model: 'gpt-5.1', maxRetries: 0 });
const inputOf = (m: MockServer, n: number) => (m.requests[n]!.body as Json).input as Json[];
const USER = { role: 'user' as const, content: 'Tidy the repo.' };

describe('runTools: a shell command and a function call in one Responses turn', () => {
  const LISTING: ToolKinds['shell']['output'] = [{ stdout: 'README.md\nsrc\n', stderr: '', outcome: { type: 'exit', exit_code: 0 } }];

  it.each(['blocking', 'streaming'] as const)('%s: both run, both answers go back as their own output items, then the answer', async (mode) => {
    mock = await createMockServer({
      provider: 'openai-responses',
      apiKey: KEY,
      script: [
        {
          when: { toolResultFor: 'call_sh1' },
          reply: { text: 'Two entries; it is 4 °C in Oslo.' },
        },
        {
          reply: {
            thinking: 'I need the listing and the weather.',
            text: 'Checking both.',
            toolCalls: [
              { kind: 'shell', id: 'call_sh1', arguments: { commands: ['ls'], timeout_ms: 1000 } },
              { id: 'call_fn1', name: 'get_weather', arguments: { city: 'Oslo' } },
            ],
          },
        },
      ],
    });
    const seen: { shell?: unknown; weather?: unknown } = {};
    const tools = {
      shell: defineTool({
        kind: 'shell',
        execute: (input) => {
          seen.shell = input;
          return LISTING;
        },
      }),
      get_weather: defineTool({
        description: 'Weather now',
        parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false } as const,
        execute: (args) => {
          seen.weather = args;
          return { tempC: 4 };
        },
      }),
    };
    const request: ChatRequest = { messages: [USER] };
    const run = mode === 'blocking' ? await runTools(client(mock), request, { tools }) : await streamTools(client(mock), request, { tools }).final();

    expect(run.stoppedBy).toBe('answer');
    expect(run.response.text).toBe('Two entries; it is 4 °C in Oslo.');
    expect(seen).toEqual({ shell: { commands: ['ls'], timeout_ms: 1000 }, weather: { city: 'Oslo' } });
    // Turn 1 declared the function as a function and the shell as the provider's tool (after the functions).
    const tools1 = (mock.requests[0]!.body as Json).tools as Json[];
    expect(tools1).toEqual([expect.objectContaining({ type: 'function', name: 'get_weather' }), { type: 'shell' }]);
    // The turn: a shell call (with its kind) and a function call, finish tool_calls.
    const turn1 = run.steps[0]!.response;
    expect(turn1.finishReason).toBe('tool_calls');
    expect(turn1.toolCalls.map((c) => [c.name, c.kind])).toEqual([['shell', 'shell'], ['get_weather', undefined]]);

    // Turn 2: every item of turn 1 in order, each with its id, then the two outputs in their own forms.
    const input = inputOf(mock, 1);
    expect(input.map((x) => x.type ?? x.role)).toEqual(['user', 'reasoning', 'message', 'shell_call', 'function_call', 'shell_call_output', 'function_call_output']);
    for (const item of input.slice(1, 5)) expect(typeof item.id).toBe('string');
    expect(input[3]).toMatchObject({ type: 'shell_call', call_id: 'call_sh1', action: { commands: ['ls'], timeout_ms: 1000 } });
    expect(input[4]).toMatchObject({ type: 'function_call', call_id: 'call_fn1', name: 'get_weather', arguments: '{"city":"Oslo"}' });
    // The shell output is the list the tool returned, as JSON (not a string of it).
    expect(input[5]).toEqual({ type: 'shell_call_output', call_id: 'call_sh1', output: LISTING });
    expect(input[6]).toEqual({ type: 'function_call_output', call_id: 'call_fn1', output: '{"tempC":4}' });
  });

  it('a failed function result has no error flag on this wire: sent plain, with a warning; a failed shell output likewise', async () => {
    mock = await createMockServer({ provider: 'openai-responses', apiKey: KEY, script: [{ reply: { text: 'Noted.' } }] });
    const turn: AssistantMessage = {
      role: 'assistant',
      content: null,
      toolCalls: [
        { id: 'call_wfF', name: 'f', arguments: '{}' },
        { id: 'call_wfS', name: 'shell', kind: 'shell', arguments: '{"commands":["x"]}', wire: { type: 'shell_call', id: 'sh_wfS', status: 'completed', call_id: 'call_wfS', action: { commands: ['x'] } } },
      ],
    };
    const r = await client(mock).chat({
      messages: [USER, turn, { role: 'tool', toolCallId: 'call_wfF', content: 'boom', isError: true }, { role: 'tool', toolCallId: 'call_wfS', content: 'not found', isError: true }],
    });
    expect(r.warnings.map((w) => w.field)).toEqual(['messages[2].isError', 'messages[3].isError']);
    expect(inputOf(mock, 0).slice(3)).toEqual([
      { type: 'function_call_output', call_id: 'call_wfF', output: 'boom' },
      { type: 'shell_call_output', call_id: 'call_wfS', output: 'not found' },
    ]);
  });
});

describe('two turns against the Responses mock: what must go back, and the 400 when it does not', () => {
  const turn2 = (m: MockServer, history: ChatRequest['messages']) => client(m).chat({ messages: [USER, ...history] });
  const refused = async (p: Promise<unknown>) => {
    const e = await p.then(() => undefined, (x: unknown) => x);
    expect(e).toBeInstanceOf(ProviderError);
    const err = e as ProviderError;
    expect(err.status).toBe(400);
    expect(err.type).toBe('invalid_request_error');
    return err.providerMessage;
  };

  it('reasoning + message: the message goes back with its id; without it the reasoning has no following item', async () => {
    mock = await createMockServer({ provider: 'openai-responses', apiKey: KEY, script: [{ reply: { thinking: 'Short plan.', text: 'Done.' } }] });
    const first = await client(mock).chat({ messages: [USER] });
    const text = first.content.find((p) => p.type === 'text');
    expect(text).toMatchObject({ type: 'text', text: 'Done.', id: expect.stringMatching(/./) });
    await turn2(mock, [first.message, { role: 'user', content: 'Thanks.' }]);
    const input = inputOf(mock, 1);
    expect(input.map((x) => x.type ?? x.role)).toEqual(['user', 'reasoning', 'message', 'user']);
    expect(input[2]).toMatchObject({ type: 'message', id: (text as { id: string }).id });
    // The same turn rebuilt from its fields (no parts, so no ids): the API's refusal.
    const bare: AssistantMessage = { role: 'assistant', content: first.message.content, thinking: first.message.thinking, origin: first.message.origin };
    const said = await refused(turn2(mock, [bare, { role: 'user', content: 'Thanks.' }]));
    expect(said).toBe(`Item '${String(input[1]!.id)}' of type 'reasoning' was provided without its required following item.`);
  });

  it('reasoning + an empty message: the empty message goes back (it is the following item)', async () => {
    const empty = { type: 'message', id: 'msg_wfEmpty02', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: '', annotations: [] }] };
    mock = await createMockServer({ provider: 'openai-responses', apiKey: KEY, script: [{ reply: { thinking: 'Nothing to add.', parts: [empty] } }] });
    for (const stream of [false, true]) {
      const first = stream ? await client(mock).stream({ messages: [USER] }).final() : await client(mock).chat({ messages: [USER] });
      expect(first.text).toBeNull();
      expect(first.content.map((p) => p.type)).toEqual(['thinking', 'text']);
      expect(first.content[1]).toEqual({ type: 'text', text: '', id: 'msg_wfEmpty02' });
      const before = mock.requests.length;
      await turn2(mock, [first.message, { role: 'user', content: 'Go on.' }]);
      const input = inputOf(mock, before);
      expect(input[2]).toEqual({ type: 'message', id: 'msg_wfEmpty02', role: 'assistant', content: [{ type: 'output_text', text: '' }] });
      // Left out, the reasoning is alone.
      const noMessage: AssistantMessage = { ...first.message, parts: first.message.parts!.filter((p) => p.type !== 'text') };
      expect(await refused(turn2(mock, [noMessage, { role: 'user', content: 'Go on.' }]))).toContain("of type 'reasoning' was provided without its required following item");
    }
  });

  it('a shell call: answered, it goes back with its output; unanswered, the API refuses it', async () => {
    mock = await createMockServer({ provider: 'openai-responses', apiKey: KEY, script: [{ reply: { toolCalls: [{ kind: 'shell', id: 'call_wfPwd', arguments: { commands: ['pwd'] } }] } }] });
    const first = await client(mock).stream({ messages: [USER] }).final();
    expect(first.finishReason).toBe('tool_calls');
    expect(first.toolCalls).toEqual([{ id: 'call_wfPwd', name: 'shell', arguments: '{"commands":["pwd"]}', kind: 'shell' }]);
    const output: ToolKinds['shell']['output'] = [{ stdout: '/repo\n', stderr: '', outcome: { type: 'exit', exit_code: 0 } }];
    // Answered without saying the kind: the call of that id says it.
    await turn2(mock, [first.message, { role: 'tool', toolCallId: 'call_wfPwd', content: JSON.stringify(output) }]);
    expect(inputOf(mock, 1).slice(1)).toEqual([
      { type: 'shell_call', id: expect.stringMatching(/./), status: 'completed', call_id: 'call_wfPwd', action: { commands: ['pwd'] } },
      { type: 'shell_call_output', call_id: 'call_wfPwd', output },
    ]);
    expect(await refused(turn2(mock, [first.message, { role: 'user', content: 'Well?' }]))).toBe('No tool output found for shell call call_wfPwd.');
  });

  it('an apply_patch call: a failed result goes back as a failed output; unanswered, the API refuses it', async () => {
    const operation = { type: 'update_file', path: 'src/app.py', diff: '@@\n-a = 1\n+a = 2\n' };
    mock = await createMockServer({ provider: 'openai-responses', apiKey: KEY, script: [{ reply: { toolCalls: [{ kind: 'apply_patch', id: 'call_wfPatch', arguments: operation }] } }] });
    const first = await client(mock).chat({ messages: [USER] });
    expect(first.toolCalls[0]).toMatchObject({ name: 'apply_patch', kind: 'apply_patch', arguments: JSON.stringify(operation) });
    const failed = await turn2(mock, [first.message, { role: 'tool', toolCallId: 'call_wfPatch', content: 'context lines did not match', isError: true }]);
    expect(inputOf(mock, 1)[2]).toEqual({ type: 'apply_patch_call_output', call_id: 'call_wfPatch', status: 'failed', output: 'context lines did not match' });
    // The status carries the failure: nothing to warn about.
    expect(failed.warnings).toEqual([]);
    await turn2(mock, [first.message, { role: 'tool', toolCallId: 'call_wfPatch', content: 'applied', kind: 'apply_patch' }]);
    expect(inputOf(mock, 2)[2]).toEqual({ type: 'apply_patch_call_output', call_id: 'call_wfPatch', status: 'completed', output: 'applied' });
    expect(await refused(turn2(mock, [first.message, { role: 'user', content: 'Well?' }]))).toBe('No tool output found for apply patch call call_wfPatch.');
  });

  it('a hosted item goes back in its place and the mock reads it back as the turn\'s part', async () => {
    const search = { type: 'web_search_call', id: 'ws_wfBack01', status: 'completed', action: { type: 'search', query: 'ferry' } };
    mock = await createMockServer({ provider: 'openai-responses', apiKey: KEY, script: [{ reply: { text: 'At nine.', parts: [search] } }] });
    const first = await client(mock).chat({ messages: [USER] });
    await turn2(mock, [first.message, { role: 'user', content: 'And back?' }]);
    const input = inputOf(mock, 1);
    expect(input.map((x) => x.type ?? x.role)).toEqual(['user', 'web_search_call', 'message', 'user']);
    expect(input[1]).toEqual(search);
    // Read back: the turn's parts in order, the item as it came, the message with its id; from this wire.
    const back = mock.requests[1]!.request!.messages[1] as AssistantMessage;
    expect(back.parts?.map((p) => p.type)).toEqual(['opaque', 'text']);
    expect(back.parts?.[0]).toMatchObject({ kind: 'web_search_call', wire: search });
    expect(back.parts?.[1]).toEqual({ type: 'text', text: 'At nine.', id: String(input[2]!.id) });
    expect(back.origin).toEqual({ provider: 'openai-responses' });
  });

  it('to another provider, the items and their ids are left out with a warning; the call goes by its fields', async () => {
    mock = await createMockServer({ provider: 'openai-responses', apiKey: KEY, script: [{ reply: { text: 'Listing.', toolCalls: [{ kind: 'shell', id: 'call_wfLs', arguments: { commands: ['ls'] } }] } }] });
    const first = await client(mock).chat({ messages: [USER] });
    const other = await createMockServer({ provider: 'anthropic-messages', apiKey: KEY, script: [{ reply: { text: 'Fine.' } }] });
    try {
      const r = await client(other, 'anthropic-messages').chat({ model: 'claude-x', maxTokens: 100, messages: [USER, first.message, { role: 'tool', toolCallId: 'call_wfLs', content: 'README.md' }] });
      expect(r.warnings.map((w) => w.field).sort()).toEqual(['messages[1].parts[0].id', 'messages[1].toolCalls']);
      const sent = (other.requests[0]!.body as Json).messages as Json[];
      expect(sent[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Listing.' }, { type: 'tool_use', id: 'call_wfLs', name: 'shell', input: { commands: ['ls'] } }] });
    } finally {
      await other.close();
    }
  });
});

describe('a client-run call streams as a call', () => {
  it('tool-call-start comes when the item opens, before the item is done; tool-call when it is', async () => {
    const { createServer } = await import('node:http');
    const item = { id: 'sh_wfLive01', type: 'shell_call', call_id: 'call_wfLive01', action: { commands: ['uptime'] } };
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const sse = (e: Json) => `event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`;
    const server = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(sse({ type: 'response.created', sequence_number: 0, response: { id: 'resp_wfLive01', object: 'response', status: 'in_progress', model: 'gpt-5.1', output: [], usage: null } }));
      res.write(sse({ type: 'response.output_item.added', sequence_number: 1, output_index: 0, item: { ...item, status: 'in_progress' } }));
      // The rest only once the client has shown the call as started.
      void held.then(() => {
        res.write(sse({ type: 'response.output_item.done', sequence_number: 2, output_index: 0, item: { ...item, status: 'completed' } }));
        res.end(sse({ type: 'response.completed', sequence_number: 3, response: { id: 'resp_wfLive01', object: 'response', status: 'completed', model: 'gpt-5.1', output: [{ ...item, status: 'completed' }], usage: { input_tokens: 5, output_tokens: 5, total_tokens: 10 } } }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as { port: number }).port;
      const c = createClient('openai-responses', { apiKey: KEY, baseUrl: `http://127.0.0.1:${port}`, model: 'gpt-5.1', maxRetries: 0, idleTimeoutMs: 2000 });
      const seen: string[] = [];
      for await (const e of c.stream({ messages: [USER] })) {
        seen.push(e.type);
        if (e.type === 'tool-call-start') {
          expect(e).toMatchObject({ id: 'call_wfLive01', name: 'shell', kind: 'shell' });
          release();
        }
        if (e.type === 'tool-call') expect(e.call).toEqual({ id: 'call_wfLive01', name: 'shell', kind: 'shell', arguments: '{"commands":["uptime"]}' });
      }
      expect(seen.filter((t) => t.startsWith('tool-call'))).toEqual(['tool-call-start', 'tool-call']);
    } finally {
      release();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});

describe('through the gateway (Responses caller, Responses upstream)', () => {
  it.each(['blocking', 'streaming'] as const)('%s: a shell call reaches the caller as a shell call, and its answer reaches the upstream as a shell_call_output', async (mode) => {
    const { startGateway } = await import('../../node/index.js');
    mock = await createMockServer({
      provider: 'openai-responses',
      apiKey: KEY,
      script: [
        { when: { toolResultFor: 'call_wfGw01' }, reply: { text: 'Listed.' } },
        { reply: { toolCalls: [{ kind: 'shell', id: 'call_wfGw01', arguments: { commands: ['ls'] } }] } },
      ],
    });
    const gateway = await startGateway({ listen: 'openai-responses', upstream: 'openai-responses', client: { apiKey: KEY, baseUrl: mock.url, maxRetries: 0 } });
    try {
      const c = createClient('openai-responses', { apiKey: 'caller-key', baseUrl: gateway.url, model: 'gpt-5.1', maxRetries: 0 });
      const starts: unknown[] = [];
      const ask = async (messages: ChatRequest['messages']) => {
        if (mode === 'blocking') return c.chat({ messages });
        const s = c.stream({ messages });
        for await (const e of s) if (e.type === 'tool-call-start') starts.push(e);
        return s.final();
      };
      const first = await ask([USER]);
      expect(first.toolCalls).toEqual([{ id: 'call_wfGw01', name: 'shell', kind: 'shell', arguments: '{"commands":["ls"]}' }]);
      expect(first.finishReason).toBe('tool_calls');
      if (mode === 'streaming') expect(starts).toEqual([expect.objectContaining({ id: 'call_wfGw01', name: 'shell', kind: 'shell' })]);
      const output: ToolKinds['shell']['output'] = [{ stdout: 'a\n', stderr: '', outcome: { type: 'exit', exit_code: 0 } }];
      const second = await ask([USER, first.message, { role: 'tool', toolCallId: 'call_wfGw01', content: JSON.stringify(output) }]);
      expect(second.text).toBe('Listed.');
      // Upstream saw the shell call and its output in their own forms (the mock's rules held).
      const upstreamInput = inputOf(mock, 1);
      expect(upstreamInput.map((x) => x.type ?? x.role)).toEqual(['user', 'shell_call', 'shell_call_output']);
      expect(upstreamInput[2]).toEqual({ type: 'shell_call_output', call_id: 'call_wfGw01', output });
    } finally {
      await gateway.close();
    }
  });
});
