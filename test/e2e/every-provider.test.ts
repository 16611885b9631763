/**
 * createClient(id) works for every spec id: a blocking and a streamed turn over real HTTP on
 * 127.0.0.1, using the fixtures of the spec (or of the spec it extends), give equal results,
 * with the spec's path, auth header and key.
 */
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adapters, createClient, type ProviderAdapter, type ProviderId } from '../../generated/index.js';
import { startLoopbackServer, type LoopbackServer } from '../helpers/loopback-server.js';
import { chunked, comparable } from '../helpers/replay.js';
import { streamBodyFor } from '../helpers/frame-stream.js';
import { specChain, specIds } from '../helpers/spec-chain.js';

const registry = adapters as Record<string, ProviderAdapter>;
const KEY = 'sk-every-provider-0123456789';

/** The first fixture folder among the spec and its bases, and a text case in it. */
function fixtureFor(specId: string): { dir: URL; name: string; ext: string } | undefined {
  for (const id of specChain(specId)) {
    const dir = new URL(`../fixtures/${id}/`, import.meta.url);
    const ext = registry[specId]!.profile.stream.framing === 'ndjson' ? 'ndjson' : 'sse';
    for (const name of ['text', 'reasoning', 'tool-call']) if (existsSync(new URL(`${name}.${ext}`, dir))) return { dir, name, ext };
  }
  return undefined;
}

let server: LoopbackServer;
beforeAll(async () => {
  server = await startLoopbackServer((req) => {
    const [id, mode] = req.url.split('/').slice(1, 3) as [string, string];
    const f = fixtureFor(id)!;
    const body = readFileSync(new URL(`${f.name}.${mode === 'stream' ? f.ext : 'json'}`, f.dir), 'utf8');
    if (mode === 'stream') {
      // An event-stream deployment of the wire gets the same events in its own frames.
      const framed = streamBodyFor(registry[id]!, body);
      return { status: 200, headers: { 'content-type': framed.contentType }, body: chunked(framed.body, 61) };
    }
    return { status: 200, headers: { 'content-type': 'application/json' }, body: body.match(/[\s\S]{1,61}/g)! };
  });
});
afterAll(() => server.close());

// Specs with a fixture of their own or of a base; another protocol has its conformance cases.
describe.each(specIds().filter((id) => fixtureFor(id) !== undefined))('%s', (id) => {
  it('is in the registry', () => expect(Object.keys(adapters)).toContain(id));

  it('createClient(id): chat() and stream() over loopback give equal results', async () => {
    // The first path segment tells the server which spec and which kind of call.
    const fetchVia = (mode: string): typeof fetch => (url, init) => {
      const u = new URL(String(url));
      return fetch(`${server.url}/${id}/${mode}${u.pathname}${u.search}`, init);
    };
    const opts = { apiKey: KEY, model: 'm-1', baseUrl: 'http://127.0.0.1:1/v9', maxRetries: 0 };
    const request = { messages: [{ role: 'user' as const, content: 'hi' }] };
    const blocking = await createClient(id as ProviderId, { ...opts, fetch: fetchVia('blocking') }).chat(request);
    const stream = createClient(id as ProviderId, { ...opts, fetch: fetchVia('stream') }).stream(request);
    const final = await stream.final();
    expect(comparable(final)).toEqual(comparable(blocking));
    const ep = registry[id]!.profile.endpoint;
    expect(final.text ?? final.toolCalls[0]?.name).toBeTruthy();

    const [b, s] = server.requests.filter((r) => r.url.startsWith(`/${id}/`)).slice(-2);
    const path = ep.path.replace('{model}', 'm-1');
    // Query parameters every request carries (Azure's api-version), with their defaults filled in.
    const [bPath, bQuery] = b!.url.split('?');
    expect(bPath).toBe(`/${id}/blocking/v9${path}`);
    const query = new URLSearchParams(bQuery ?? '');
    for (const [k, v] of Object.entries(ep.query ?? {})) {
      const option = /^\{(\w+)\}$/.exec(v)?.[1];
      expect(query.get(k), k).toBe(option ? ep.options?.[option]?.default : v);
    }
    expect(s!.url.startsWith(`/${id}/stream/v9${(ep.streamPath ?? ep.path).replace('{model}', 'm-1')}`)).toBe(true);
    const { header, scheme } = ep.auth;
    expect(b!.headers[header.toLowerCase()]).toBe(scheme ? `${scheme} ${KEY}` : KEY);
  });
});
