/**
 * wireforge's typed errors as the AI SDK's: an HTTP or in-stream error, a connection failure or a
 * timeout is an `APICallError` (status, isRetryable, responseBody, url; the typed error as `cause`)
 * so the AI SDK's own retry and error handling apply; a request field the spec refuses is an
 * `InvalidArgumentError`. An abort stays the abort it was.
 */
import { APICallError, InvalidArgumentError } from '@ai-sdk/provider';
import { ConnectionError, ProviderError, RequestError, TimeoutError, WireforgeError } from '../runtime/errors.js';

export interface Exchange {
  url: string;
  body: unknown;
  headers?: Record<string, string>;
}

export function aiSdkError(error: unknown, exchange: Exchange, signal: AbortSignal | undefined): unknown {
  if (signal?.aborted) return signal.reason ?? error;
  if (!(error instanceof WireforgeError)) return error;
  if (error instanceof RequestError) return new InvalidArgumentError({ argument: error.field, message: error.message, cause: error });
  const base = { message: error.message, url: exchange.url, requestBodyValues: exchange.body, cause: error, ...(exchange.headers ? { responseHeaders: exchange.headers } : {}) };
  if (error instanceof ProviderError) {
    return new APICallError({
      ...base,
      ...(error.status === undefined ? {} : { statusCode: error.status }),
      ...(error.body === undefined ? {} : { responseBody: typeof error.body === 'string' ? error.body : JSON.stringify(error.body) }),
      isRetryable: error.retryable,
      data: { type: error.type, code: error.code, requestId: error.requestId },
    });
  }
  // A connection that failed or timed out may succeed on another try; a broken stream body may not.
  return new APICallError({ ...base, isRetryable: error instanceof ConnectionError || error instanceof TimeoutError });
}
