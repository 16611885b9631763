/** A non-2xx response → ProviderError: the provider's message, type and code, the body, never the key. */
import type { ErrorFields, ProviderAdapter } from '../contract/adapter.js';
import { excerptOf, providerErrorFor, type ProviderError } from '../errors.js';
import type { Redact } from '../contract/transport.js';

export const readErrorResponse = async (adapter: ProviderAdapter, response: Response, redact: Redact): Promise<ProviderError> => {
  const { status, headers } = response;
  const errors = adapter.profile.errors;
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
  const fields = typeof body === 'object' && body !== null ? adapter.readError(body) : ({} as ErrorFields);
  const trimmed = text.trim();
  // A body that parsed is JSON whatever its shape: say where the message was looked for.
  const what = body === text ? 'non-JSON error body' : `no message at ${errors.message.map((p) => p.join('.')).join(' or ')}`;
  const fallback = trimmed === '' ? response.statusText || 'no error body' : `${what}: ${excerptOf(trimmed, 200)}`;
  const shouldRetry = headers.get('x-should-retry');
  const retryable = shouldRetry === 'true' ? true : shouldRetry === 'false' ? false : adapter.isRetryable(status, fields);
  return providerErrorFor({
    provider: adapter.id,
    status,
    // Every text the provider sent back is scrubbed: a key it echoes may sit in any of them.
    ...redact({
      message: fields.message ?? fallback,
      type: fields.type ?? headerType(headers, errors.typeHeader),
      code: fields.code,
      body,
      requestId: adapter.requestIdHeader ? (headers.get(adapter.requestIdHeader) ?? undefined) : undefined,
    }),
    retryable,
    retryAfterMs: fields.retryDelayMs,
    headers,
  });
};

/** The error type a header names (AWS `x-amzn-ErrorType: ValidationException:http://…`): the text before any `:`. */
const headerType = (headers: Headers, header: string | undefined): string | undefined => {
  return header ? headers.get(header)?.split(':')[0]!.trim() || undefined : undefined;
};
