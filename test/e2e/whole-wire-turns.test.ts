/**
 * Two-turn conversations over loopback with what real traffic carries beyond text and function
 * calls: a web-search turn (Responses, Anthropic), a compaction turn, a code-execution turn
 * (Anthropic with its container, Gemini), a paused server-tool turn continued by runTools. Each
 * loopback provider checks the second request the way the provider does and answers 400 in its
 * own error shape when something it needs is missing, so a test only passes when the history
 * goes back as the provider requires. The wire bodies are written here from the providers'
 * documented formats (docs/wire-facts.md).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, runTools, StreamError, type ChatRequest, type Message, type ProviderError } from '../../generated/index.js';
import { backoff } from '../../runtime/transport/send-request.js';
import { jsonResponse, sseResponse, startLoopbackServer, type LoopbackServer, type ScriptedResponse } from '../helpers/loopback-server.js';

type Json = Record<string, unknown>;
const KEY = 'sk-test-000000000000';
const servers: LoopbackServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A provider that checks each request after the first and answers `reply(i)` or a 400. */
async function provider(check: (body: Json, i: number) => string | undefined, reply: (i: number) => ScriptedResponse, error: (message: string) => unknown) {
  const server = await startLoopbackServer((req, i) => {
    const problem = check(req.body as Json, i);
    return problem === undefined ? reply(i) : jsonResponse(400, error(problem));
  });
  servers.push(server);
  return server;
}

const anthropicError = (message: string) => ({ type: 'error', error: { type: 'invalid_request_error', message } });
const openaiError = (message: string) => ({ error: { message, type: 'invalid_request_error', param: 'input', code: null } });
const geminiError = (message: string) => ({ error: { code: 400, message, status: 'INVALID_ARGUMENT' } });

function sse(events: Array<[string, unknown]>): string {
  return events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join('');
}

const asList = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : []);

// ---------------------------------------------------------------------------------------------
// Anthropic

const SEARCH_RESULT = {
  type: 'web_search_tool_result',
  tool_use_id: 'srvtoolu_wf01',
  content: [
    { type: 'web_search_result', url: 'https://example.org/tides', title: 'Tide tables', encrypted_content: 'EnCwf01', page_age: '2 days ago' },
    { type: 'web_search_result', url: 'https://example.org/moon', title: 'Moon phases', encrypted_content: 'EnCwf02' },
  ],
};
const CITATION = { type: 'web_search_result_location', url: 'https://example.org/tides', title: 'Tide tables', encrypted_index: 'EiWf01', cited_text: 'High tide is at 06:12.' };

/** Turn 1 streamed: a search call whose input streams as JSON, its result whole, cited text. */
function anthropicSearchStream(): string {
  return sse([
    ['message_start', { type: 'message_start', message: { id: 'msg_wf_s1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], stop_reason: null, usage: { input_tokens: 120, output_tokens: 1 } } }],
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: "I'll look that up." } }],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    ['content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'server_tool_use', id: 'srvtoolu_wf01', name: 'web_search', input: {} } }],
    ['content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"query": "tide ' } }],
    ['content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: 'times today"}' } }],
    ['content_block_stop', { type: 'content_block_stop', index: 1 }],
    ['content_block_start', { type: 'content_block_start', index: 2, content_block: SEARCH_RESULT }],
    ['content_block_stop', { type: 'content_block_stop', index: 2 }],
    ['content_block_start', { type: 'content_block_start', index: 3, content_block: { type: 'text', text: '', citations: [] } }],
    ['content_block_delta', { type: 'content_block_delta', index: 3, delta: { type: 'citations_delta', citation: CITATION } }],
    ['content_block_delta', { type: 'content_block_delta', index: 3, delta: { type: 'text_delta', text: 'High tide is at 06:12.' } }],
    ['content_block_stop', { type: 'content_block_stop', index: 3 }],
    ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 40, server_tool_use: { web_search_requests: 1 } } }],
    ['message_stop', { type: 'message_stop' }],
  ]);
}

const anthropicAnswer = (id: string, text: string) => jsonResponse(200, { id, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text }], stop_reason: 'end_turn', usage: { input_tokens: 200, output_tokens: 9 } });

/** What Anthropic checks of an assistant turn it gets back: every server-tool call followed by its result. */
function anthropicServerToolsComplete(body: Json): string | undefined {
  for (const m of asList(body.messages)) {
    if (m.role !== 'assistant' || !Array.isArray(m.content)) continue;
    const blocks = m.content as Json[];
    for (const [i, b] of blocks.entries()) {
      if (b.type !== 'server_tool_use') continue;
      if (typeof b.input !== 'object' || b.input === null) return `messages: server_tool_use ${String(b.id)} input must be an object`;
      const next = blocks[i + 1];
      if (!next || next.tool_use_id !== b.id) return `messages: \`server_tool_use\` ids were found without \`web_search_tool_result\` blocks immediately after: ${String(b.id)}`;
    }
  }
  return undefined;
}

describe('Anthropic: a web-search turn, then a follow-up', () => {
  it('every part of the streamed turn is in content and in events, and the next request carries the server-tool blocks back verbatim', async () => {
    const server = await provider(
      (b, i) => (i === 0 ? undefined : anthropicServerToolsComplete(b)),
      (i) => (i === 0 ? sseResponse(anthropicSearchStream()) : anthropicAnswer('msg_wf_s2', 'Low tide follows at 12:30.')),
      anthropicError,
    );
    const client = createClient('anthropic-messages', { apiKey: KEY, baseUrl: server.url, maxRetries: 0 });
    const request: ChatRequest = { model: 'claude-sonnet-4-5', tools: [{ type: 'provider', name: 'web_search', options: { max_uses: 3 } }], messages: [{ role: 'user', content: 'When is high tide today?' }] };
    const stream = client.stream(request);
    const events = [];
    for await (const e of stream) events.push(e);
    const turn1 = await stream.final();

    expect((server.requests[0]!.body as Json).tools).toEqual([{ type: 'web_search_20250305', name: 'web_search', max_uses: 3 }]);
    expect(turn1.content.map((p) => p.type)).toEqual(['text', 'provider-tool-call', 'provider-tool-result', 'source', 'source', 'text']);
    expect(turn1.content[1]).toMatchObject({ type: 'provider-tool-call', id: 'srvtoolu_wf01', name: 'web_search', input: { query: 'tide times today' } });
    expect(turn1.content[2]).toMatchObject({ type: 'provider-tool-result', callId: 'srvtoolu_wf01', name: 'web_search', result: SEARCH_RESULT.content });
    expect(turn1.content[5]).toEqual({ type: 'text', text: 'High tide is at 06:12.', citations: [{ url: CITATION.url, title: CITATION.title, citedText: CITATION.cited_text }] });
    // Text either side of the search is two paragraphs, not one run-on sentence.
    expect(turn1.text).toBe("I'll look that up.\n\nHigh tide is at 06:12.");
    expect(events.filter((e) => e.type === 'part').map((e) => (e as { part: { type: string } }).part.type)).toEqual(['provider-tool-call', 'provider-tool-result', 'source', 'source']);
    expect(turn1.finishReason).toBe('stop');

    const turn2 = await client.chat({ ...request, messages: [...request.messages, turn1.message, { role: 'user', content: 'And low tide?' }] });
    expect(turn2.text).toBe('Low tide follows at 12:30.');
    const assistant = asList((server.requests[1]!.body as Json).messages)[1]!;
    expect(assistant.content).toEqual([
      { type: 'text', text: "I'll look that up." },
      { type: 'server_tool_use', id: 'srvtoolu_wf01', name: 'web_search', input: { query: 'tide times today' } },
      SEARCH_RESULT,
      { type: 'text', text: 'High tide is at 06:12.' },
    ]);
  });

  it('the same turn moved to other providers gives valid requests, with a warning for each part only Anthropic understands', async () => {
    const server = await provider(() => undefined, () => sseResponse(anthropicSearchStream()), anthropicError);
    const turn1 = await createClient('anthropic-messages', { apiKey: KEY, baseUrl: server.url, maxRetries: 0 }).stream({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'When is high tide?' }] }).final();
    const history: Message[] = [{ role: 'user', content: 'When is high tide?' }, turn1.message, { role: 'user', content: 'And low tide?' }];
    const { adapters } = await import('../../generated/index.js');
    for (const id of ['openai-responses', 'gemini', 'openai-chat', 'mistral'] as const) {
      const built = adapters[id].buildRequest({ model: 'm', messages: history }, 'blocking');
      const body = JSON.stringify(built.body);
      expect(body, id).not.toContain('srvtoolu_wf01');
      expect(body, id).not.toContain('EnCwf01');
      expect(body, id).toContain('High tide is at 06:12.');
      expect(built.warnings.filter((w) => w.field.startsWith('messages[1].parts[')).map((w) => w.field), id).toEqual(['messages[1].parts[1]', 'messages[1].parts[2]']);
    }
  });
});

describe('Anthropic: compaction', () => {
  const COMPACTION = { type: 'compaction', content: 'Summary: the user is planning a coastal walk and asked about tides.', encrypted_content: 'EcWfCmp01' };
  it('the compaction block goes back in its place, and usage sums every iteration', async () => {
    const server = await provider(
      (b, i) => {
        if (i === 0) return undefined;
        const assistant = asList(b.messages).find((m) => m.role === 'assistant');
        const first = asList(assistant?.content)[0];
        return JSON.stringify(first) === JSON.stringify(COMPACTION) ? undefined : 'messages: the compaction block of the previous turn is missing; the conversation before it cannot be restored';
      },
      (i) =>
        i === 0
          ? jsonResponse(200, {
              id: 'msg_wf_c1',
              type: 'message',
              role: 'assistant',
              model: 'claude-sonnet-4-5',
              content: [COMPACTION, { type: 'text', text: 'Bring a windproof jacket.' }],
              stop_reason: 'end_turn',
              usage: {
                input_tokens: 700,
                output_tokens: 30,
                cache_creation_input_tokens: 0,
                cache_read_input_tokens: 0,
                iterations: [
                  { type: 'compaction', input_tokens: 60000, output_tokens: 400, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
                  { type: 'message', input_tokens: 700, output_tokens: 30, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
                ],
              },
            })
          : anthropicAnswer('msg_wf_c2', 'Yes, gloves too.'),
      anthropicError,
    );
    const client = createClient('anthropic-messages', { apiKey: KEY, baseUrl: server.url, maxRetries: 0 });
    const turn1 = await client.chat({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'What should I wear?' }] });
    expect(turn1.usage).toEqual({ inputTokens: 60700, outputTokens: 430, totalTokens: 61130, cachedInputTokens: 0, cacheWriteTokens: 0 });
    expect(turn1.content[0]).toEqual({ type: 'opaque', kind: 'compaction', value: COMPACTION.content, wire: COMPACTION });
    const turn2 = await client.chat({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'What should I wear?' }, turn1.message, { role: 'user', content: 'Gloves?' }] });
    expect(turn2.text).toBe('Yes, gloves too.');
  });
});

describe('Anthropic: code execution in a container', () => {
  it('the container id goes back as the next request\u2019s container, and the code blocks in their place', async () => {
    const call = { type: 'server_tool_use', id: 'srvtoolu_wf02', name: 'bash_code_execution', input: { command: 'python3 -c "print(6*7)"' } };
    const result = { type: 'bash_code_execution_tool_result', tool_use_id: 'srvtoolu_wf02', content: { type: 'bash_code_execution_result', stdout: '42\n', stderr: '', return_code: 0, content: [] } };
    const server = await provider(
      (b, i) => (i === 0 ? undefined : b.container === 'container_wf01' ? anthropicServerToolsComplete(b) : 'container: the files of the previous turn live in container_wf01; send it to reuse them'),
      (i) =>
        i === 0
          ? jsonResponse(200, { id: 'msg_wf_x1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [call, result, { type: 'text', text: 'It prints 42.' }], container: { id: 'container_wf01', expires_at: '2026-12-01T14:00:00Z' }, stop_reason: 'end_turn', usage: { input_tokens: 300, output_tokens: 50 } })
          : anthropicAnswer('msg_wf_x2', 'The file is still there.'),
      anthropicError,
    );
    const client = createClient('anthropic-messages', { apiKey: KEY, baseUrl: server.url, maxRetries: 0 });
    const request: ChatRequest = { model: 'claude-sonnet-4-5', tools: [{ type: 'provider', name: 'code_execution' }], messages: [{ role: 'user', content: 'What is 6*7 in Python?' }] };
    const turn1 = await client.chat(request);
    expect(turn1.content.map((p) => p.type)).toEqual(['provider-tool-call', 'provider-tool-result', 'text', 'opaque']);
    expect(turn1.content[3]).toEqual({ type: 'opaque', kind: 'container', value: { id: 'container_wf01', expires_at: '2026-12-01T14:00:00Z' } });
    const turn2 = await client.chat({ ...request, messages: [...request.messages, turn1.message, { role: 'user', content: 'Is the file still there?' }] });
    expect(turn2.text).toBe('The file is still there.');
    const sent = server.requests[1]!.body as Json;
    expect(asList(sent.messages)[1]!.content).toEqual([call, result, { type: 'text', text: 'It prints 42.' }]);
  });
});

describe('Anthropic: a paused server-tool turn', () => {
  it('runTools sends the paused turn back and returns the answer that follows, not the pause', async () => {
    const call = { type: 'server_tool_use', id: 'srvtoolu_wf03', name: 'web_search', input: { query: 'ferry timetable' } };
    const result = { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_wf03', content: [{ type: 'web_search_result', url: 'https://example.org/ferry', title: 'Ferry', encrypted_content: 'EnCwf03' }] };
    // The server goes on when it gets its paused turn back, and pauses a fresh conversation.
    const server = await startLoopbackServer((req) => {
      const b = req.body as Json;
      if (!JSON.stringify(b).includes('srvtoolu_wf03')) {
        return jsonResponse(200, { id: 'msg_wf_p1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [call, result], stop_reason: 'pause_turn', usage: { input_tokens: 90, output_tokens: 20 } });
      }
      const problem = anthropicServerToolsComplete(b);
      return problem === undefined ? anthropicAnswer('msg_wf_p2', 'The next ferry leaves at 09:40.') : jsonResponse(400, anthropicError(problem));
    });
    servers.push(server);
    const client = createClient('anthropic-messages', { apiKey: KEY, baseUrl: server.url, maxRetries: 0 });
    const first = await client.chat({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'Next ferry?' }] });
    expect(first.paused).toBe(true);
    expect(first.finishReason).toBe('other');
    const run = await runTools(client, { model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'Next ferry?' }] }, { tools: {} });
    expect(run.stoppedBy).toBe('answer');
    expect(run.response.text).toBe('The next ferry leaves at 09:40.');
    expect(run.steps).toHaveLength(2);
  });
});

describe('Required fields of a blocking body', () => {
  it.each([
    ['anthropic-messages', 'content', { id: 'msg_x', type: 'message', role: 'assistant', model: 'm', stop_reason: 'end_turn' }],
    ['openai-responses', 'output', { id: 'resp_x', object: 'response', status: 'completed', model: 'm' }],
  ] as const)('%s: a body without `%s` is a StreamError naming the field, not an empty answer', async (id, field, body) => {
    const server = await startLoopbackServer(() => jsonResponse(200, body));
    servers.push(server);
    const error = await createClient(id, { apiKey: KEY, baseUrl: server.url, maxRetries: 0 })
      .chat({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StreamError);
    expect((error as StreamError).message).toContain(`\`${field}\``);
  });
});

// ---------------------------------------------------------------------------------------------
// OpenAI Responses

describe('Responses: a web-search turn, then a follow-up', () => {
  const reasoning = { type: 'reasoning', id: 'rs_wf01', summary: [], encrypted_content: 'gAAwfEnc01' };
  const search = { type: 'web_search_call', id: 'ws_wf01', status: 'completed', action: { type: 'search', query: 'ferry timetable', sources: [{ type: 'url', url: 'https://example.org/ferry' }] } };
  const message = {
    type: 'message',
    id: 'msg_wf01',
    role: 'assistant',
    status: 'completed',
    phase: 'final_answer',
    content: [{ type: 'output_text', text: 'The ferry leaves at 09:40.', annotations: [{ type: 'url_citation', start_index: 0, end_index: 25, url: 'https://example.org/ferry', title: 'Ferry' }] }],
  };
  const body = (id: string, output: unknown[]) => ({ id, object: 'response', status: 'completed', model: 'gpt-5', output, usage: { input_tokens: 50, output_tokens: 20, total_tokens: 70 } });

  /** What Responses checks: a reasoning item must be followed by the item it produced. */
  function reasoningFollowed(b: Json): string | undefined {
    const input = asList(b.input);
    for (const [i, item] of input.entries()) {
      if (item.type !== 'reasoning') continue;
      const next = input[i + 1];
      if (!next || next.role === 'user' || next.type === 'reasoning') return `Item '${String(item.id)}' of type 'reasoning' was provided without its required following item.`;
      if (next.type === 'web_search_call' && JSON.stringify(next) !== JSON.stringify(search)) return `Item '${String(next.id)}' is not the item the response returned.`;
    }
    return undefined;
  }

  it.each([undefined, false])('store %s: the next input carries reasoning, the search call and the message, in order', async (store) => {
    const server = await provider(
      (b, i) => (i === 0 ? undefined : reasoningFollowed(b)),
      (i) => jsonResponse(200, i === 0 ? body('resp_wf01', [reasoning, search, message]) : body('resp_wf02', [{ ...message, id: 'msg_wf02', content: [{ type: 'output_text', text: 'And returns at 17:10.', annotations: [] }] }])),
      openaiError,
    );
    const client = createClient('openai-responses', { apiKey: KEY, baseUrl: server.url, maxRetries: 0 });
    const request: ChatRequest = { model: 'gpt-5', store, tools: [{ type: 'provider', name: 'web_search' }], messages: [{ role: 'user', content: 'When is the ferry?' }] };
    const turn1 = await client.chat(request);
    expect((server.requests[0]!.body as Json).tools).toEqual([{ type: 'web_search' }]);
    expect(turn1.content.map((p) => p.type)).toEqual(['thinking', 'provider-tool-call', 'provider-tool-result', 'source', 'text']);
    // The search's sources are its result; it completed, so it is no error.
    expect(turn1.content[2]).toEqual({ type: 'provider-tool-result', callId: 'ws_wf01', name: 'web_search', result: search.action.sources });
    expect(turn1.content[4]).toEqual({ type: 'text', text: 'The ferry leaves at 09:40.', citations: [{ url: 'https://example.org/ferry', title: 'Ferry' }], phase: 'final_answer', id: 'msg_wf01' });
    const turn2 = await client.chat({ ...request, messages: [...request.messages, turn1.message, { role: 'user', content: 'And back?' }] });
    expect(turn2.text).toBe('And returns at 17:10.');
    const input = asList((server.requests[1]!.body as Json).input);
    expect(input.map((x) => x.type ?? x.role)).toEqual(['user', 'reasoning', 'web_search_call', 'message', 'user']);
    expect(input[2]).toEqual(search);
    // The message's phase goes back with it (newer models rely on it).
    expect(input[3]).toMatchObject({ type: 'message', id: 'msg_wf01', role: 'assistant', phase: 'final_answer' });
  });
});

// ---------------------------------------------------------------------------------------------
// Gemini

describe('Gemini: a code-execution turn, then a follow-up', () => {
  const code = { executableCode: { language: 'PYTHON', code: 'print(sum(range(101)))' } };
  const result = { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '5050\n' } };
  const answer = { text: 'The sum is 5050.', thoughtSignature: 'CiQwfGemTextSig01' };
  it('the code parts go back in their place, the text part with its signature, and tool-use prompt tokens count as input', async () => {
    const server = await provider(
      (b, i) => {
        if (i === 0) return undefined;
        const model = asList(b.contents).find((c) => c.role === 'model');
        const parts = asList(model?.parts);
        if (!parts.some((p) => JSON.stringify(p) === JSON.stringify(code)) || !parts.some((p) => JSON.stringify(p) === JSON.stringify(result))) return 'contents[1].parts: the executableCode and codeExecutionResult parts of the previous turn are required';
        if (!parts.some((p) => p.thoughtSignature === answer.thoughtSignature)) return 'contents[1].parts: a text part is missing its thought_signature';
        return undefined;
      },
      (i) =>
        jsonResponse(200, {
          responseId: `wfGem0${i}`,
          modelVersion: 'gemini-3-pro-preview',
          candidates: [{ content: { role: 'model', parts: i === 0 ? [{ text: 'Let me compute it.' }, code, result, answer] : [{ text: 'Yes: 5050.' }] }, finishReason: 'STOP' }],
          usageMetadata: { promptTokenCount: 21, toolUsePromptTokenCount: 160, candidatesTokenCount: 30, totalTokenCount: 211 },
        }),
      geminiError,
    );
    const client = createClient('gemini', { apiKey: KEY, baseUrl: server.url, maxRetries: 0 });
    const request: ChatRequest = { model: 'gemini-3-pro-preview', tools: [{ type: 'provider', name: 'code_execution' }], messages: [{ role: 'user', content: 'Sum 1..100 with code.' }] };
    const turn1 = await client.chat(request);
    expect((server.requests[0]!.body as Json).tools).toEqual([{ codeExecution: {} }]);
    expect(turn1.usage?.inputTokens).toBe(181);
    expect(turn1.content.map((p) => p.type)).toEqual(['text', 'provider-tool-call', 'provider-tool-result', 'text']);
    expect(turn1.text).toBe('Let me compute it.\n\nThe sum is 5050.');
    const turn2 = await client.chat({ ...request, messages: [...request.messages, turn1.message, { role: 'user', content: 'Sure?' }] });
    expect(turn2.text).toBe('Yes: 5050.');
  });

  it("a 429's RetryInfo delay is what the retry waits (capped), read from the error body", async () => {
    const server = await startLoopbackServer(() =>
      jsonResponse(429, { error: { code: 429, message: 'Resource exhausted', status: 'RESOURCE_EXHAUSTED', details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'RATE_LIMIT_EXCEEDED' }, { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '34s' }] } }),
    );
    servers.push(server);
    const error = (await createClient('gemini', { apiKey: KEY, baseUrl: server.url, maxRetries: 0 })
      .chat({ model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e)) as ProviderError;
    expect(error.retryAfterMs).toBe(34_000);
    expect(backoff(0, new Headers(), error.retryAfterMs)).toBe(34_000);
    // A retry-after header still wins over the body.
    expect(backoff(0, new Headers({ 'retry-after': '2' }), error.retryAfterMs)).toBe(2_000);
  });
});

describe('Responses: an MCP approval request, answered', () => {
  it('the approval request is a part; the answer goes back as an mcp_approval_response item after it', async () => {
    const ask = { type: 'mcp_approval_request', id: 'mcpr_wf01', server_label: 'tracker', name: 'close_issue', arguments: '{"id":"WF-9"}' };
    const server = await provider(
      (b, i) => {
        if (i === 0) return undefined;
        const input = asList(b.input);
        const at = input.findIndex((x) => x.type === 'mcp_approval_request');
        const answer = input[at + 1];
        return at >= 0 && answer?.type === 'mcp_approval_response' && answer.approval_request_id === 'mcpr_wf01' && answer.approve === true ? undefined : 'input: an mcp_approval_response for mcpr_wf01 must follow its request';
      },
      (i) => jsonResponse(200, { id: `resp_wfa${i}`, object: 'response', status: 'completed', model: 'gpt-5', output: i === 0 ? [ask] : [{ type: 'message', id: 'msg_wfa', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Closed WF-9.', annotations: [] }] }] }),
      openaiError,
    );
    const client = createClient('openai-responses', { apiKey: KEY, baseUrl: server.url, maxRetries: 0 });
    const request: ChatRequest = { model: 'gpt-5', tools: [{ type: 'provider', name: 'mcp', options: { server_label: 'tracker', server_url: 'https://example.org/mcp' } }], messages: [{ role: 'user', content: 'Close WF-9.' }] };
    const turn1 = await client.chat(request);
    const part = turn1.content[0]!;
    expect(part).toMatchObject({ type: 'approval-request', id: 'mcpr_wf01', name: 'close_issue', input: '{"id":"WF-9"}' });
    const turn2 = await client.chat({ ...request, messages: [...request.messages, turn1.message, { role: 'approval', requestId: 'mcpr_wf01', approve: true }] });
    expect(turn2.text).toBe('Closed WF-9.');
    expect((server.requests[0]!.body as Json).tools).toEqual([{ type: 'mcp', server_label: 'tracker', server_url: 'https://example.org/mcp' }]);
  });

  it('a spec without approval responses drops the message with a warning', async () => {
    const { adapters } = await import('../../generated/index.js');
    const built = adapters['anthropic-messages'].buildRequest({ model: 'm', messages: [{ role: 'user', content: 'hi' }, { role: 'approval', requestId: 'x', approve: false }] }, 'blocking');
    expect(built.warnings).toMatchObject([{ type: 'dropped', field: 'messages[1]' }]);
    expect(JSON.stringify(built.body)).not.toContain('approv');
  });
});

// ---------------------------------------------------------------------------------------------
// Provider tools on the request side

describe('Provider-run tools in the unified request', () => {
  const ask = (tools: ChatRequest['tools']): ChatRequest => ({ model: 'm', tools, messages: [{ role: 'user', content: 'hi' }] });
  const fn = { name: 'get_weather', parameters: { type: 'object', properties: {} } };
  it('Gemini puts them beside the function declarations', async () => {
    const { adapters } = await import('../../generated/index.js');
    const built = adapters.gemini.buildRequest(ask([fn, { type: 'provider', name: 'web_search' }]), 'blocking');
    expect(built.body.tools).toEqual([{ functionDeclarations: [{ name: 'get_weather', parametersJsonSchema: fn.parameters }] }, { googleSearch: {} }]);
  });
  it('a provider without that tool drops it with a warning that names what it has; options cannot reach a prototype', async () => {
    const { adapters } = await import('../../generated/index.js');
    const chat = adapters['openai-chat'].buildRequest(ask([{ type: 'provider', name: 'web_search' }]), 'blocking');
    expect(chat.body.tools).toBeUndefined();
    expect(chat.warnings.map((w) => w.field)).toEqual(['tools[0]']);
    const anthropic = adapters['anthropic-messages'].buildRequest(ask([{ type: 'provider', name: 'image_generation' }, { type: 'provider', name: 'web_search', options: JSON.parse('{"__proto__": {"polluted": true}, "max_uses": 2}') }]), 'blocking');
    expect(anthropic.warnings[0]).toMatchObject({ field: 'tools[0]' });
    expect(anthropic.warnings[0]!.message).toContain('web_search');
    const tools = anthropic.body.tools as Json[];
    expect(tools).toEqual([{ type: 'web_search_20250305', name: 'web_search', max_uses: 2 }]);
    // `__proto__` from the options did not become the tool object's prototype.
    expect(Object.getPrototypeOf(tools[0])).toBe(Object.prototype);
    expect(Object.keys(tools[0]!)).toEqual(['type', 'name', 'max_uses']);
  });
});
