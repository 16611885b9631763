/**
 * An error in the wire's own shape: the spec's serve.error template, else the message, type and
 * code written at the first path the errors section reads each from.
 */
import type { ProviderAdapter } from '../contract/adapter.js';
import { setPath } from '../request/set-path.js';
import type { ServeCodec, ServeSlots } from '../contract/serve-codec.js';

export interface ServedError {
  status: number;
  message: string;
  type?: string | undefined;
  code?: string | undefined;
}

export function errorBody(adapter: ProviderAdapter, serve: ServeCodec, e: ServedError): unknown {
  if (serve.error) return serve.error({ status: e.status, message: e.message, type: e.type, code: e.code } as ServeSlots);
  const out: Record<string, unknown> = {};
  const errors = adapter.profile.errors;
  if (errors.message[0]) setPath(out, errors.message[0], e.message);
  if (errors.type[0]) setPath(out, errors.type[0], e.type);
  if (errors.code[0]) setPath(out, errors.code[0], e.code);
  return out;
}

/** An error as the wire answers it: the body, its type by default from the spec's table for the status, the type header. */
export function errorResponse(adapter: ProviderAdapter, serve: ServeCodec, e: ServedError, headers: Record<string, string> = {}): Response {
  const error = { ...e, type: e.type ?? errorTypeFor(serve, e.status) };
  return new Response(JSON.stringify(errorBody(adapter, serve, error)), { status: e.status, headers: { 'content-type': 'application/json', ...errorHeaders(adapter, error.type), ...headers } });
}

/** The wire's error type for a status: the spec's entry for it, else for its class (`5xx`). */
export function errorTypeFor(serve: ServeCodec, status: number): string | undefined {
  const table = serve.errorTypes;
  return table?.[String(status)] ?? table?.[`${Math.floor(status / 100)}xx`];
}

/** The headers an error response carries besides its body: the type, for wires that send it in one (AWS). */
export function errorHeaders(adapter: ProviderAdapter, type: string | undefined): Record<string, string> {
  const header = adapter.profile.errors.typeHeader;
  return header !== undefined && type !== undefined ? { [header]: type } : {};
}
