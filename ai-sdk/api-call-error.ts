/**
 * wireforge's typed errors as the AI SDK's: an HTTP or in-stream error, a connection failure or a
 * timeout is an `APICallError` (status, isRetryable, responseBody, url; the typed error as `cause`)
 * so the AI SDK's own retry and error handling apply; a request field the spec refuses is an
 * `InvalidArgumentError`. An abort stays the abort it was.
 */
import { APICallError, InvalidArgumentError, UnsupportedFunctionalityError } from '@ai-sdk/provider';
import { ConnectionError, ProviderError, quote, RequestError, TimeoutError, WireforgeError } from '../runtime/errors.js';
import { isString } from '../runtime/wire/read-path.js';

/** The prompt error to-request throws, from here: the bridge's AI SDK error classes come in by one import. */
export { UnsupportedFunctionalityError };

/** What one call sent (its URL and body) and the headers it got back. */
export interface Exchange {
  request: { url: string; body: unknown };
  headers?: Record<string, string>;
}

export function aiSdkError(error: unknown, { request, headers }: Exchange, signal: AbortSignal | undefined): unknown {
  if (signal?.aborted) return signal.reason ?? error;
  if (!(error instanceof WireforgeError)) return error;
  if (error instanceof RequestError) return new InvalidArgumentError({ argument: error.field, message: error.message, cause: error });
  const p = error instanceof ProviderError ? error : undefined;
  const body = p?.body;
  return new APICallError({
    message: error.message,
    url: request.url,
    requestBodyValues: request.body,
    responseHeaders: headers,
    cause: error,
    statusCode: p?.status,
    responseBody: body === undefined || isString(body) ? body : quote(body),
    // A connection that failed or timed out may succeed on another try; a broken stream body may not.
    isRetryable: p ? p.retryable : error instanceof ConnectionError || error instanceof TimeoutError,
    data: p && { type: p.type, code: p.code, requestId: p.requestId },
  });
}
