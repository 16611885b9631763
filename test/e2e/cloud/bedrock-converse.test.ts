/**
 * Bedrock Converse over loopback, every request signature-checked by the AWS SDK's signer
 * (helpers/bedrock-server.ts): a tool conversation streamed through streamTools and the same one
 * blocking through runTools, with reasoning and its signature carried into the second turn, the
 * tool results in a user turn, usage with cache counts, an in-stream exception, and Converse's
 * own error shape. Bodies are written from the Converse documentation's shapes; streams are
 * event-stream frames encoded by the AWS SDK's codec.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, defineTool, ProviderError, runTools, streamTools, type ToolLoopEvent } from '../../../generated/index.js';
import { AWS, bedrockServer } from '../../helpers/bedrock-server.js';
import { concat, encodeEvent, encodeException } from '../../helpers/event-stream-encoder.js';
import type { LoopbackServer, RecordedRequest, ScriptedResponse } from '../../helpers/loopback-server.js';

const MODEL = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const REASONING = { text: 'The user wants the weather in Lisbon; I will ask the tool.', signature: 'EqQBCkgIBxABGAIiQLoopbackSignature+1/Ab==' };
let server: LoopbackServer | undefined;
afterEach(async () => server?.close());

const usage = { inputTokens: 20, outputTokens: 12, totalTokens: 32, cacheReadInputTokens: 100, cacheWriteInputTokens: 8 };
type Msg = { role: string; content: Array<Record<string, any>> };
const hasResults = (r: RecordedRequest) => ((r.body as { messages: Msg[] }).messages ?? []).some((m) => m.content.some((b) => b.toolResult));

function blockingReply(r: RecordedRequest): ScriptedResponse {
  const content = hasResults(r)
    ? [{ text: 'Lisbon is sunny, 21 °C.' }]
    : [{ reasoningContent: { reasoningText: REASONING } }, { text: 'Let me check.' }, { toolUse: { toolUseId: 'tooluse_w1', name: 'weather', input: { city: 'Lisbon' } } }];
  const body = { output: { message: { role: 'assistant', content } }, stopReason: hasResults(r) ? 'end_turn' : 'tool_use', usage, metrics: { latencyMs: 420 } };
  return { status: 200, headers: { 'content-type': 'application/json', 'x-amzn-requestid': 'req-1' }, body: JSON.stringify(body) };
}

function streamReply(r: RecordedRequest): ScriptedResponse {
  const ev = (t: string, p: object) => encodeEvent(t, { ...p, p: 'abcdefgh' });
  const frames = hasResults(r)
    ? [
        ev('messageStart', { role: 'assistant' }),
        ev('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Lisbon is sunny, ' } }),
        ev('contentBlockDelta', { contentBlockIndex: 0, delta: { text: '21 °C.' } }),
        ev('contentBlockStop', { contentBlockIndex: 0 }),
        ev('messageStop', { stopReason: 'end_turn' }),
        ev('metadata', { usage, metrics: { latencyMs: 380 } }),
      ]
    : [
        ev('messageStart', { role: 'assistant' }),
        ev('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { text: REASONING.text.slice(0, 20) } } }),
        ev('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { text: REASONING.text.slice(20) } } }),
        ev('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { signature: REASONING.signature } } }),
        ev('contentBlockStop', { contentBlockIndex: 0 }),
        ev('contentBlockDelta', { contentBlockIndex: 1, delta: { text: 'Let me check.' } }),
        ev('contentBlockStop', { contentBlockIndex: 1 }),
        ev('contentBlockStart', { contentBlockIndex: 2, start: { toolUse: { toolUseId: 'tooluse_w1', name: 'weather' } } }),
        ev('contentBlockDelta', { contentBlockIndex: 2, delta: { toolUse: { input: '{"city":' } } }),
        ev('contentBlockDelta', { contentBlockIndex: 2, delta: { toolUse: { input: '"Lisbon"}' } } }),
        ev('contentBlockStop', { contentBlockIndex: 2 }),
        ev('messageStop', { stopReason: 'tool_use' }),
        ev('metadata', { usage, metrics: { latencyMs: 510 } }),
      ];
  const body = concat(frames);
  const pieces: Uint8Array[] = [];
  for (let i = 0; i < body.length; i += 23) pieces.push(body.subarray(i, i + 23));
  return { status: 200, headers: { 'content-type': 'application/vnd.amazon.eventstream' }, body: pieces };
}

const reply = (r: RecordedRequest) => (r.url.endsWith('/converse-stream') ? streamReply(r) : blockingReply(r));

const weather = defineTool({
  description: 'Current weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false } as const,
  execute: async ({ city }) => `${city}: sunny, 21 °C`,
});

/** What both loops must have sent: Converse shapes, reasoning first and signed, the result in a user turn. */
function checkRequests(requests: RecordedRequest[], path: string): void {
  expect(requests.map((r) => r.url)).toEqual([`/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/${path}`, `/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/${path}`]);
  const [first, second] = requests.map((r) => r.body as Record<string, any>);
  expect(first).toMatchObject({
    system: [{ text: 'Be brief.' }],
    messages: [{ role: 'user', content: [{ text: 'Weather in Lisbon?' }] }],
    inferenceConfig: { maxTokens: 1024 },
    additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 2048 } },
    toolConfig: { tools: [{ toolSpec: { name: 'weather', description: 'Current weather for a city', inputSchema: { json: { type: 'object', required: ['city'] } } } }] },
  });
  expect(second!.messages.slice(1)).toEqual([
    {
      role: 'assistant',
      content: [{ reasoningContent: { reasoningText: REASONING } }, { text: 'Let me check.' }, { toolUse: { toolUseId: 'tooluse_w1', name: 'weather', input: { city: 'Lisbon' } } }],
    },
    { role: 'user', content: [{ toolResult: { toolUseId: 'tooluse_w1', content: [{ text: 'Lisbon: sunny, 21 °C' }], status: 'success' } }] },
  ]);
}

const request = { system: 'Be brief.', messages: [{ role: 'user' as const, content: 'Weather in Lisbon?' }], maxTokens: 1024, reasoning: { budgetTokens: 2048 } };

describe('bedrock-converse', () => {
  it('a streamed tool conversation (streamTools): reasoning with its signature, a call from input fragments, the answer, cache-aware usage', async () => {
    const b = await bedrockServer(reply);
    server = b.server;
    const client = createClient('bedrock-converse', { model: MODEL, endpoint: { region: 'us-east-1' }, aws: AWS, fetch: b.fetch, maxRetries: 0 });
    const events: ToolLoopEvent[] = [];
    const loop = streamTools(client, request, { tools: { weather } });
    for await (const e of loop) events.push(e);
    const result = await loop.final();
    expect(b.urls[0]).toBe('https://bedrock-runtime.us-east-1.amazonaws.com/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse-stream');
    checkRequests(b.server.requests, 'converse-stream');
    expect(result.response.text).toBe('Lisbon is sunny, 21 °C.');
    expect(result.steps[0]!.response).toMatchObject({ thinking: REASONING.text, finishReason: 'tool_calls', toolCalls: [{ id: 'tooluse_w1', name: 'weather', arguments: '{"city":"Lisbon"}' }] });
    expect(result.steps[0]!.response.usage).toEqual(expect.objectContaining({ inputTokens: 128, outputTokens: 12, cachedInputTokens: 100, cacheWriteTokens: 8 }));
    expect(events.filter((e) => e.type === 'text-delta').map((e) => (e as { delta: string }).delta).join('')).toBe('Let me check.Lisbon is sunny, 21 °C.');
  });

  it('the same conversation blocking (runTools) gives the same turns', async () => {
    const b = await bedrockServer(reply);
    server = b.server;
    const client = createClient('bedrock-converse', { model: MODEL, endpoint: { region: 'us-east-1' }, aws: AWS, fetch: b.fetch, maxRetries: 0 });
    const result = await runTools(client, request, { tools: { weather } });
    checkRequests(b.server.requests, 'converse');
    expect(result.response).toMatchObject({ text: 'Lisbon is sunny, 21 °C.', finishReason: 'stop' });
    expect(result.steps[0]!.response).toMatchObject({ thinking: REASONING.text, text: 'Let me check.', toolCalls: [{ id: 'tooluse_w1', arguments: '{"city":"Lisbon"}' }] });
  });

  it("an exception frame is a ProviderError typed by its :exception-type; an HTTP error is Converse's { message } typed by x-amzn-ErrorType", async () => {
    const b = await bedrockServer((_r, i): ScriptedResponse =>
      i === 0
        ? { status: 200, headers: { 'content-type': 'application/vnd.amazon.eventstream' }, body: [concat([encodeEvent('messageStart', { role: 'assistant' }), encodeEvent('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Part' } }), encodeException('modelStreamErrorException', 'The model stream failed.')])] }
        : { status: 400, headers: { 'content-type': 'application/json', 'x-amzn-errortype': 'ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/', 'x-amzn-requestid': 'req-400' }, body: JSON.stringify({ message: 'A conversation must alternate between user and assistant roles.' }) },
    );
    server = b.server;
    const client = createClient('bedrock-converse', { model: MODEL, endpoint: { region: 'us-east-1' }, aws: AWS, fetch: b.fetch, maxRetries: 0 });
    const e1 = await client.stream({ messages: [{ role: 'user', content: 'hi' }] }).final().catch((x: unknown) => x);
    expect(e1).toBeInstanceOf(ProviderError);
    expect(e1).toMatchObject({ type: 'modelStreamErrorException', providerMessage: 'The model stream failed.', partial: { text: 'Part' } });
    const e2 = await client.chat({ messages: [{ role: 'user', content: 'hi' }] }).catch((x: unknown) => x);
    expect(e2).toMatchObject({ status: 400, type: 'ValidationException', requestId: 'req-400', providerMessage: 'A conversation must alternate between user and assistant roles.', retryable: false });
  });

  it('images go as bytes with their format; an image by URL is dropped with a warning', async () => {
    const b = await bedrockServer(blockingReply);
    server = b.server;
    const client = createClient('bedrock-converse', { model: MODEL, endpoint: { region: 'us-east-1' }, aws: AWS, fetch: b.fetch, maxRetries: 0 });
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
    const res = await client.chat({ messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image', data: png, mediaType: 'image/png' }, { type: 'image', url: 'https://example.com/a.png' }] }] });
    expect((b.server.requests[0]!.body as { messages: Msg[] }).messages[0]!.content).toEqual([{ text: 'What is this?' }, { image: { format: 'png', source: { bytes: png } } }]);
    expect(res.warnings.map((w) => w.field)).toContain('messages[0].content[2]');
  });
});
