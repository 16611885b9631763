/**
 * `createMockServer`: a mock provider on 127.0.0.1 for tests (vitest in a user's project, the
 * demo): any spec, built-in by id or a project's own generated module, served at its own path
 * and auth from a script. docs/serving.md#mock-server.
 */
import { adapters } from '../generated/index.js';
import { serves } from '../generated/serve.js';
import type { ServedSpec } from '../runtime/contract/serve-codec.js';
import { createMockHandler, type MockOptions, type RecordedCall } from '../runtime/serve/mock-handler.js';
import { WireforgeError } from '../runtime/errors.js';
import { listen } from './listen.js';
import { errorResponse } from '../runtime/serve/error-body.js';
import { withCors } from '../runtime/serve/cors.js';

export interface MockServerOptions extends MockOptions {
  /** A built-in spec id, or a spec's generated module (`import * as acme from './generated/acme.js'`). */
  provider: string | ServedSpec;
  port?: number;
}

export interface MockServer {
  /** The base URL to give a client (its spec's path is appended as usual). */
  url: string;
  /** Every request, as it arrived and as the spec reads it. */
  requests: RecordedCall[];
  close(): Promise<void>;
}

export async function createMockServer(options: MockServerOptions): Promise<MockServer> {
  const spec = servedSpec(options.provider);
  const handler = createMockHandler(spec, options);
  // A body over the limit is answered outside the handler: in the provider's shape, with CORS as the rest.
  const tooLarge = withCors(async () => errorResponse(spec.adapter, spec.serve, { status: 413, message: 'the request body is too large' }), options.cors, [spec.adapter.requestIdHeader]);
  const server = await listen(handler.fetch, { tooLarge, ...(options.port === undefined ? {} : { port: options.port }) });
  return { url: server.url, requests: handler.calls, close: server.close };
}

export function servedSpec(provider: string | ServedSpec): ServedSpec {
  if (typeof provider !== 'string') return provider;
  const adapter = (adapters as Record<string, ServedSpec['adapter'] | undefined>)[provider];
  const serve = (serves as Record<string, ServedSpec['serve'] | undefined>)[provider];
  if (!adapter || !serve) throw new WireforgeError(`no built-in spec "${provider}" (known: ${Object.keys(adapters).join(', ')})`);
  return { adapter, serve };
}
