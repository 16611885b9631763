/**
 * A finished stream leaves nothing open: once the terminal event is read, the body is cancelled
 * and the connection released, even when the server keeps the response open after it (nothing
 * would keep the process alive). Over a real server on 127.0.0.1.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { adapters, createClientFor } from '../../generated/index.js';
import { sseResponse, startLoopbackServer, type LoopbackServer } from '../helpers/loopback-server.js';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const event = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
const TERMINATED: Array<[string, string, string]> = [
  [
    'anthropic-messages',
    'message_stop',
    [
      event('message_start', { type: 'message_start', message: { id: 'msg_1', model: 'claude-x', usage: { input_tokens: 3, output_tokens: 0 } } }),
      event('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
      event('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } }),
      event('content_block_stop', { type: 'content_block_stop', index: 0 }),
      event('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 1 } }),
      event('message_stop', { type: 'message_stop' }),
    ].join(''),
  ],
  [
    'openai-chat',
    '[DONE]',
    [
      `data: ${JSON.stringify({ id: 'c1', model: 'gpt-x', choices: [{ index: 0, delta: { content: 'Hi' }, finish_reason: null }] })}\n\n`,
      `data: ${JSON.stringify({ id: 'c1', model: 'gpt-x', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`,
      'data: [DONE]\n\n',
    ].join(''),
  ],
];

describe('a finished stream releases its connection', () => {
  it.each(TERMINATED)('%s: after %s the socket closes though the server keeps the response open', async (id, _terminal, body) => {
    server = await startLoopbackServer(sseResponse([body], { keepOpen: true }));
    const client = createClientFor(adapters[id as keyof typeof adapters], { apiKey: 'k-0123456789', baseUrl: server.url, model: 'm' });
    const final = await client.stream({ messages: [{ role: 'user', content: 'x' }] }).final();
    expect(final.text).toBe('Hi');
    const recorded = await server.waitForRequest(0);
    // The server never ends this response: only the client can close the socket, and it must do so now.
    await Promise.race([recorded.socketClosed, new Promise((_, reject) => setTimeout(() => reject(new Error('the socket is still open 5 s after the turn ended')), 5000))]);
    expect(recorded.isSocketClosed).toBe(true);
  });
});
