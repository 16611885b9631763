/** A non-2xx response → ProviderError: the provider's message, type and code, the body, never the key. */
import type { ProviderAdapter } from '../adapter.js';
import { excerptOf, providerErrorFor, type ProviderError } from '../errors.js';
import type { Redact } from './redact.js';

export async function readErrorResponse(adapter: ProviderAdapter, response: Response, redact: Redact): Promise<ProviderError> {
  let text = '';
  try {
    text = await response.text();
  } catch {
    // the body could not be read; the status still says what happened
  }
  let body: unknown = text;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    // HTML error pages and plain text stay as text
  }
  const fields = typeof body === 'object' && body !== null ? adapter.readError(body) : { message: undefined, type: undefined, code: undefined };
  const fallback = text.trim() === '' ? response.statusText || 'no error body' : `non-JSON error body: ${excerptOf(text.trim(), 200)}`;
  const shouldRetry = response.headers.get('x-should-retry');
  const retryable = shouldRetry === 'true' ? true : shouldRetry === 'false' ? false : adapter.isRetryable(response.status, fields);
  return providerErrorFor({
    provider: adapter.id,
    status: response.status,
    message: redact(fields.message ?? fallback),
    type: fields.type ?? headerType(response, adapter.profile.errors.typeHeader),
    code: fields.code,
    body: redact(body),
    retryable,
    requestId: adapter.requestIdHeader ? (response.headers.get(adapter.requestIdHeader) ?? undefined) : undefined,
    retryAfterMs: fields.retryDelayMs,
  });
}

/** The error type a header names (AWS `x-amzn-ErrorType: ValidationException:http://…`): the text before any `:`. */
function headerType(response: Response, header: string | undefined): string | undefined {
  const v = header ? response.headers.get(header) : null;
  return v ? v.split(':')[0]!.trim() || undefined : undefined;
}
