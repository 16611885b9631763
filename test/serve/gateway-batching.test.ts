/**
 * The gateway's stream body (the fetch handler, as a Worker or the node listener reads it; the
 * upstream over 127.0.0.1): the events one upstream chunk brings are one body chunk (one write),
 * none held back for the upstream's next chunk; an upstream that fails mid-stream still gets every
 * event that arrived to the caller, then the error event.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adapters } from '../../generated/index.js';
import { servedSpec } from '../../node/mock-server.js';
import { createGateway } from '../../runtime/serve/gateway.js';
import { sseResponse, startLoopbackServer, type LoopbackServer } from '../helpers/loopback-server.js';

// Chat Completions stream chunks (docs/wire-facts.md): a role delta, content deltas, a finish chunk, [DONE].
const chunk = (delta: object, finish: string | null = null) => `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'up-model', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const FIRST = chunk({ role: 'assistant', content: '' }) + chunk({ content: 'one ' }) + chunk({ content: 'two ' }) + chunk({ content: 'three ' });
const SECOND = chunk({ content: 'four ' }) + chunk({ content: 'five' }) + chunk({}, 'stop') + 'data: [DONE]\n\n';

let upstream: LoopbackServer;
let gateway: (request: Request) => Promise<Response>;
beforeAll(async () => {
  upstream = await startLoopbackServer((req) =>
    req.rawBody.includes('fail') ? sseResponse([FIRST, { delayMs: 30 }], { destroyAfter: true }) : sseResponse([FIRST, { delayMs: 200 }, SECOND]),
  );
  gateway = createGateway({ listen: servedSpec('anthropic-messages'), upstream: adapters['openai-chat'], client: { apiKey: 'up', baseUrl: upstream.url, maxRetries: 0 } });
});
afterAll(async () => {
  await upstream.close();
});

/** The response body's chunks, as text, for an Anthropic Messages stream request. */
async function reads(text: string): Promise<string[]> {
  const res = await gateway(
    new Request('http://gateway.test/v1/messages', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'caller', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'm', max_tokens: 64, stream: true, messages: [{ role: 'user', content: text }] }),
    }),
  );
  expect(res.status).toBe(200);
  const out: string[] = [];
  const decoder = new TextDecoder();
  const reader = res.body!.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) out.push(decoder.decode(r.value, { stream: true }));
  return out;
}

/** The text deltas (Anthropic `content_block_delta` with `text_delta`) in a piece of the body. */
const deltas = (sse: string) => [...sse.matchAll(/"type":"text_delta","text":"([^"]*)"/g)].map((m) => m[1]);

describe('gateway stream writes', () => {
  it('sends the events of one upstream chunk as one body chunk, without waiting for the next', async () => {
    const got = await reads('hi');
    // The first body chunk holds the start and all three deltas of the first upstream chunk, and
    // nothing of the second (written 200 ms later): batched, not held back.
    expect(got[0]).toContain('event: message_start');
    expect(deltas(got[0]!)).toEqual(['one ', 'two ', 'three ']);
    expect(deltas(got.join(''))).toEqual(['one ', 'two ', 'three ', 'four ', 'five']);
    expect(got.join('')).toContain('event: message_stop');
  });

  it('an upstream that fails mid-stream: every event that arrived, then the error event', async () => {
    const body = (await reads('fail')).join('');
    expect(deltas(body)).toEqual(['one ', 'two ', 'three ']);
    const error = body.indexOf('event: error');
    expect(error).toBeGreaterThan(body.lastIndexOf('three '));
    expect(body).not.toContain('event: message_stop');
  });
});
