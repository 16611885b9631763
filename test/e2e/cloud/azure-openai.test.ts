/**
 * Azure OpenAI over loopback: the deployments URL built from the resource option, the model as
 * the deployment and the api-version query; the v1 API's path without one; the key in `api-key`
 * only; the prompt-filter chunk Azure streams first (blank id and model, no choices); a filtered
 * prompt's 400 in Azure's error shape. The client's URL is recorded, then the request is sent to
 * the loopback server unchanged but for its origin.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BadRequestError, createClient, RequestError } from '../../../generated/index.js';
import { forwardingFetch } from '../../helpers/forwarding-fetch.js';
import { jsonResponse, sseResponse, startLoopbackServer, type LoopbackServer, type Responder } from '../../helpers/loopback-server.js';

const KEY = 'azure-test-key-0123456789abcdef';
let server: LoopbackServer | undefined;
afterEach(async () => server?.close());

/** A fetch that records the URL the client built and sends the request to the loopback server. */
async function loopback(responders: Responder | Responder[]): Promise<{ urls: string[]; fetch: typeof fetch; server: LoopbackServer }> {
  server = await startLoopbackServer(responders);
  return { ...forwardingFetch(server), server };
}

const chunk = (o: unknown) => `data: ${JSON.stringify(o)}\n\n`;
const filterResults = { hate: { filtered: false, severity: 'safe' }, self_harm: { filtered: false, severity: 'safe' }, sexual: { filtered: false, severity: 'safe' }, violence: { filtered: false, severity: 'safe' } };

describe('azure-openai', () => {
  it('the deployments URL: resource in the host, the model as the deployment, api-version; the key in api-key only', async () => {
    const body = { id: 'chatcmpl-az1', model: 'gpt-4o-2024-11-20', choices: [{ index: 0, message: { role: 'assistant', content: 'Olá.' }, finish_reason: 'stop', content_filter_results: filterResults }], prompt_filter_results: [{ prompt_index: 0, content_filter_results: filterResults }], usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 } };
    const lb = await loopback(jsonResponse(200, body));
    const client = createClient('azure-openai', { apiKey: KEY, model: 'my-gpt4o', endpoint: { resource: 'contoso' }, fetch: lb.fetch, maxRetries: 0 });
    const res = await client.chat({ messages: [{ role: 'user', content: 'Diga olá.' }] });
    expect(res.text).toBe('Olá.');
    expect(lb.urls).toEqual(['https://contoso.openai.azure.com/openai/deployments/my-gpt4o/chat/completions?api-version=2024-10-21']);
    const h = lb.server.requests[0]!.headers;
    expect(h['api-key']).toBe(KEY);
    expect(h.authorization).toBeUndefined();
  });

  it('api-version and resource from their options or environment variables; a missing resource names both ways', async () => {
    const lb = await loopback(jsonResponse(200, { id: 'c', model: 'm', choices: [{ index: 0, message: { content: 'ok' }, finish_reason: 'stop' }] }));
    const before = { ...process.env };
    try {
      process.env.AZURE_OPENAI_RESOURCE = 'fabrikam';
      process.env.AZURE_OPENAI_API_VERSION = '2025-04-01-preview';
      await createClient('azure-openai', { apiKey: KEY, model: 'dep', fetch: lb.fetch }).chat({ messages: [{ role: 'user', content: 'hi' }] });
      await createClient('azure-openai', { apiKey: KEY, model: 'dep', fetch: lb.fetch, endpoint: { apiVersion: '2024-06-01' } }).chat({ messages: [{ role: 'user', content: 'hi' }] });
      delete process.env.AZURE_OPENAI_RESOURCE;
      const error = (() => {
        try {
          createClient('azure-openai', { apiKey: KEY, model: 'dep' });
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(RequestError);
      expect((error as RequestError).field).toBe('endpoint.resource');
      expect((error as Error).message).toContain('AZURE_OPENAI_RESOURCE');
      expect(() => createClient('azure-openai', { apiKey: KEY, endpoint: { resource: 'x', region: 'y' } })).toThrow(/has no endpoint option "region"; it has resource, apiVersion/);
      // A baseUrl of the caller's own (a proxy) needs no resource.
      expect(() => createClient('azure-openai', { apiKey: KEY, baseUrl: 'http://127.0.0.1:9/openai' })).not.toThrow();
    } finally {
      process.env = before;
    }
    expect(lb.urls).toEqual([
      'https://fabrikam.openai.azure.com/openai/deployments/dep/chat/completions?api-version=2025-04-01-preview',
      'https://fabrikam.openai.azure.com/openai/deployments/dep/chat/completions?api-version=2024-06-01',
    ]);
  });

  it('a stream that starts with the prompt-filter chunk (blank id and model, no choices) and ends filtered', async () => {
    const stream = [
      chunk({ id: '', object: '', created: 0, model: '', choices: [], prompt_filter_results: [{ prompt_index: 0, content_filter_results: filterResults }] }),
      chunk({ id: 'chatcmpl-az2', object: 'chat.completion.chunk', model: 'gpt-4o-2024-11-20', choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null, content_filter_results: {} }] }),
      chunk({ id: 'chatcmpl-az2', object: 'chat.completion.chunk', model: 'gpt-4o-2024-11-20', choices: [{ index: 0, delta: { content: 'Once upon' }, finish_reason: null, content_filter_results: filterResults }] }),
      chunk({ id: 'chatcmpl-az2', object: 'chat.completion.chunk', model: 'gpt-4o-2024-11-20', choices: [{ index: 0, delta: {}, finish_reason: 'content_filter', content_filter_results: { ...filterResults, violence: { filtered: true, severity: 'medium' } } }] }),
      chunk({ id: 'chatcmpl-az2', object: 'chat.completion.chunk', model: 'gpt-4o-2024-11-20', choices: [], usage: { prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 } }),
      'data: [DONE]\n\n',
    ];
    const lb = await loopback(sseResponse(stream));
    const s = createClient('azure-openai', { apiKey: KEY, model: 'dep', endpoint: { resource: 'contoso' }, fetch: lb.fetch }).stream({ messages: [{ role: 'user', content: 'A story.' }] });
    const events = [];
    for await (const e of s) events.push(e);
    const final = await s.final();
    expect(events[0]).toMatchObject({ type: 'start', id: 'chatcmpl-az2', model: 'gpt-4o-2024-11-20' });
    expect(final).toMatchObject({ id: 'chatcmpl-az2', model: 'gpt-4o-2024-11-20', text: 'Once upon', finishReason: 'content_filter', usage: { inputTokens: 9, outputTokens: 3 } });
  });

  it("a filtered prompt: Azure's 400 with code content_filter is a BadRequestError with that code and the gateway's request id", async () => {
    const body = { error: { message: "The response was filtered due to the prompt triggering Azure OpenAI's content management policy.", type: null, param: 'prompt', code: 'content_filter', status: 400, innererror: { code: 'ResponsibleAIPolicyViolation', content_filter_result: { ...filterResults, violence: { filtered: true, severity: 'high' } } } } };
    const lb = await loopback(jsonResponse(400, body, { 'apim-request-id': 'a1b2c3d4-apim' }));
    const error = await createClient('azure-openai', { apiKey: KEY, model: 'dep', endpoint: { resource: 'contoso' }, fetch: lb.fetch })
      .chat({ messages: [{ role: 'user', content: '…' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ status: 400, code: 'content_filter', requestId: 'a1b2c3d4-apim', retryable: false });
    expect((error as BadRequestError).providerMessage).toContain('content management policy');
  });
});

describe('azure-openai-v1', () => {
  it('the v1 path with the deployment as the body model, no api-version', async () => {
    const lb = await loopback(jsonResponse(200, { id: 'c', model: 'm', choices: [{ index: 0, message: { content: 'ok' }, finish_reason: 'stop' }] }));
    await createClient('azure-openai-v1', { apiKey: KEY, model: 'my-deployment', endpoint: { resource: 'contoso' }, fetch: lb.fetch }).chat({ messages: [{ role: 'user', content: 'hi' }] });
    expect(lb.urls).toEqual(['https://contoso.openai.azure.com/openai/v1/chat/completions']);
    expect((lb.server.requests[0]!.body as { model?: string }).model).toBe('my-deployment');
    expect(lb.server.requests[0]!.headers['api-key']).toBe(KEY);
  });
});
