/**
 * Edge cases of response parts found in review: where parts resent as they grow take their
 * place, signed text parts, a message item's phase, a turn whose fields were edited after it
 * came back, items that cannot go without the reasoning before them, and inconsistent keys.
 */
import { describe, expect, it } from 'vitest';
import { adapters, StreamError, type AssistantMessage, type ChatResponse, type Message } from '../../generated/index.js';
import { comparable, replayBlocking, replayStream } from '../helpers/replay.js';

const enc = (s: string) => new TextEncoder().encode(s);
const dataLines = (chunks: unknown[]) => enc(chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join(''));
const events = (list: Array<[string, unknown]>) => enc(list.map(([e, d]) => `event: ${e}\ndata: ${JSON.stringify(d)}\n\n`).join(''));
const types = (r: ChatResponse) => r.content.map((p) => p.type);

describe('parts resent as they grow take their place at the end, in a stream as in a body', () => {
  it('Gemini grounding metadata that comes before the text', async () => {
    const grounding = { groundingChunks: [{ web: { uri: 'https://example.org/a', title: 'A' } }], webSearchQueries: ['a'] };
    const body = { responseId: 'g1', modelVersion: 'gemini-2.5-flash', candidates: [{ content: { role: 'model', parts: [{ text: 'Hello world' }] }, finishReason: 'STOP', groundingMetadata: grounding }], usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 2, totalTokenCount: 5 } };
    const stream = dataLines([
      { responseId: 'g1', modelVersion: 'gemini-2.5-flash', candidates: [{ content: { role: 'model', parts: [] }, groundingMetadata: { webSearchQueries: ['a'] } }] },
      { responseId: 'g1', modelVersion: 'gemini-2.5-flash', candidates: [{ content: { role: 'model', parts: [{ text: 'Hello' }] }, groundingMetadata: grounding }] },
      { responseId: 'g1', modelVersion: 'gemini-2.5-flash', candidates: [{ content: { role: 'model', parts: [{ text: ' world' }] }, finishReason: 'STOP', groundingMetadata: grounding }], usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 2, totalTokenCount: 5 } },
    ]);
    const blocking = await replayBlocking(adapters.gemini, JSON.stringify(body));
    const { final, events: evs } = await replayStream(adapters.gemini, stream, 7);
    expect(types(blocking)).toEqual(['text', 'source', 'opaque']);
    expect(comparable(final)).toEqual(comparable(blocking));
    // Announced once, as they finally are.
    expect(evs.filter((e) => e.type === 'part')).toHaveLength(2);
  });

  it('an Anthropic container in message_start and in message_delta', async () => {
    const container = { id: 'container_r1', expires_at: '2026-12-01T15:00:00Z' };
    const body = { id: 'msg_r1', type: 'message', role: 'assistant', model: 'claude-x', content: [{ type: 'text', text: 'hi' }], container, stop_reason: 'end_turn', usage: { input_tokens: 1, output_tokens: 1 } };
    const stream = events([
      ['message_start', { type: 'message_start', message: { id: 'msg_r1', type: 'message', role: 'assistant', model: 'claude-x', content: [], container, usage: { input_tokens: 1, output_tokens: 0 } } }],
      ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'hi' } }],
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', container }, usage: { output_tokens: 1 } }],
      ['message_stop', { type: 'message_stop' }],
    ]);
    const blocking = await replayBlocking(adapters['anthropic-messages'], JSON.stringify(body));
    const { final } = await replayStream(adapters['anthropic-messages'], stream, 11);
    expect(types(blocking)).toEqual(['text', 'opaque']);
    expect(comparable(final)).toEqual(comparable(blocking));
  });
});

describe('text parts', () => {
  it('two signed Gemini text parts stay two parts, each with its own signature, and go back so', async () => {
    const body = { responseId: 'g2', modelVersion: 'gemini-3-pro-preview', candidates: [{ content: { role: 'model', parts: [{ text: 'A', thoughtSignature: 'S1' }, { text: 'B', thoughtSignature: 'S2' }] }, finishReason: 'STOP' }] };
    const r = await replayBlocking(adapters.gemini, JSON.stringify(body));
    expect(r.content).toEqual([
      { type: 'text', text: 'A', signature: 'S1' },
      { type: 'text', text: 'B', signature: 'S2' },
    ]);
    expect(r.text).toBe('AB');
    const built = adapters.gemini.buildRequest({ model: 'm', messages: [{ role: 'user', content: 'q' }, r.message, { role: 'user', content: 'more' }] }, 'blocking');
    expect((built.body.contents as Array<{ parts: unknown[] }>)[1]!.parts).toEqual([
      { text: 'A', thoughtSignature: 'S1' },
      { text: 'B', thoughtSignature: 'S2' },
    ]);
  });

  it("a Responses item's phase is on each of its text parts, and not on the next item's; its id on its first part", async () => {
    const body = {
      id: 'resp_p',
      object: 'response',
      status: 'completed',
      model: 'gpt-5',
      output: [
        { type: 'message', id: 'm1', role: 'assistant', phase: 'commentary', content: [{ type: 'output_text', text: 'One.', annotations: [] }, { type: 'output_text', text: 'Two.', annotations: [] }] },
        { type: 'function_call', id: 'fc1', call_id: 'c1', name: 'f', arguments: '{}' },
        { type: 'message', id: 'm2', role: 'assistant', content: [{ type: 'output_text', text: 'Three.', annotations: [] }] },
      ],
    };
    const r = await replayBlocking(adapters['openai-responses'], JSON.stringify(body));
    expect(r.content.filter((p) => p.type === 'text')).toEqual([
      { type: 'text', text: 'One.', phase: 'commentary', id: 'm1' },
      { type: 'text', text: 'Two.', phase: 'commentary' },
      { type: 'text', text: 'Three.', id: 'm2' },
    ]);
  });
});

describe('a turn sent back', () => {
  const turn = async (): Promise<AssistantMessage> => {
    const body = {
      id: 'msg_e1',
      type: 'message',
      role: 'assistant',
      model: 'claude-x',
      content: [
        { type: 'text', text: 'Looking.' },
        { type: 'server_tool_use', id: 'srvtoolu_e1', name: 'web_search', input: { query: 'q' } },
        { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_e1', content: [] },
        { type: 'tool_use', id: 'tu1', name: 'f', input: {} },
        { type: 'tool_use', id: 'tu2', name: 'g', input: {} },
      ],
      stop_reason: 'tool_use',
      usage: { input_tokens: 1, output_tokens: 1 },
    };
    return (await replayBlocking(adapters['anthropic-messages'], JSON.stringify(body))).message;
  };
  const assistantBlocks = (history: Message[]) => {
    const built = adapters['anthropic-messages'].buildRequest({ model: 'test-model', messages: history }, 'blocking');
    return { blocks: (built.body.messages as Array<{ content: Array<{ type: string; id?: string; text?: string }> }>)[1]!.content, warnings: built.warnings };
  };

  it('as returned: in wire order, every block', async () => {
    const m = await turn();
    const { blocks, warnings } = assistantBlocks([{ role: 'user', content: 'q' }, m]);
    expect(blocks.map((b) => b.type)).toEqual(['text', 'server_tool_use', 'web_search_tool_result', 'tool_use', 'tool_use']);
    expect(warnings).toEqual([]);
  });

  it('edited after it came back: written from its fields, with a warning for each part only the parts held', async () => {
    const m = await turn();
    const edited: AssistantMessage = { ...m, content: 'Edited.', toolCalls: [m.toolCalls![0]!] };
    const { blocks, warnings } = assistantBlocks([{ role: 'user', content: 'q' }, edited]);
    expect(blocks).toEqual([{ type: 'text', text: 'Edited.' }, { type: 'tool_use', id: 'tu1', name: 'f', input: {} }]);
    expect(warnings.map((w) => w.field)).toEqual(['messages[1].parts[1]', 'messages[1].parts[2]']);
  });

  it('Responses, store false: a hosted item after reasoning that cannot be sent is left out with it', () => {
    const m: AssistantMessage = {
      role: 'assistant',
      content: 'Done.',
      thinking: [{ text: '', id: 'rs_1' }],
      origin: { provider: 'openai-responses', model: 'gpt-5' },
      parts: [
        { type: 'thinking', text: '', id: 'rs_1' },
        { type: 'provider-tool-call', id: 'ws_1', name: 'web_search', input: {}, wire: { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'q' } } },
        { type: 'text', text: 'Done.' },
      ],
    };
    const built = adapters['openai-responses'].buildRequest({ model: 'gpt-5', store: false, messages: [{ role: 'user', content: 'q' }, m] }, 'blocking');
    const input = built.body.input as Array<{ type?: string; role?: string }>;
    expect(input.map((x) => x.type ?? x.role)).toEqual(['user', 'message']);
    expect(built.warnings.map((w) => w.field)).toEqual(['messages[1].thinking', 'messages[1].parts[1]']);
  });
});

describe('inconsistent keys', () => {
  it('a server-tool block and a tool call at the same index is a StreamError, not a silent merge', async () => {
    const stream = events([
      ['message_start', { type: 'message_start', message: { id: 'msg_k', type: 'message', role: 'assistant', model: 'claude-x', content: [], usage: { input_tokens: 1, output_tokens: 0 } } }],
      ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'tu1', name: 'f', input: {} } }],
      ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'server_tool_use', id: 'srv', name: 'web_search', input: {} } }],
      ['message_stop', { type: 'message_stop' }],
    ]);
    const error = await replayStream(adapters['anthropic-messages'], stream, 64).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StreamError);
    expect((error as StreamError).message).toContain('share index 0');
  });
});
