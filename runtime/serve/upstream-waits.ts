/**
 * What an upstream said about waiting and its limits, as headers for the gateway's caller: the
 * caller's SDK retries, so it needs the provider's wait (docs/serving.md#retries-and-timeouts).
 */
import type { ProviderError } from '../errors.js';

/**
 * What the upstream said about waiting and limits, for the caller's SDK to act on: `retry-after`
 * (seconds or a date), `retry-after-ms`, `x-should-retry`, and the rate-limit counts
 * (`x-ratelimit-*`, `anthropic-ratelimit-*`) under their own names. A wait stated only in the
 * error body (Gemini's RetryInfo) becomes `retry-after` and `retry-after-ms`.
 */
export function rateLimitHeaders(e: ProviderError): Record<string, string> {
  const out: Record<string, string> = {};
  e.headers?.forEach((v, k) => {
    if (PASSED_ON.test(k)) out[k] = v;
  });
  if (out['retry-after'] === undefined && out['retry-after-ms'] === undefined && e.retryAfterMs !== undefined) {
    out['retry-after'] = String(Math.ceil(e.retryAfterMs / 1000));
    out['retry-after-ms'] = String(Math.round(e.retryAfterMs));
  }
  return out;
}

/** The waits and counts passed on, as a browser caller may read them (CORS names each header). */
export const EXPOSED_LIMITS = ['retry-after-ms', 'x-should-retry', ...['requests', 'tokens'].flatMap((k) => ['limit', 'remaining', 'reset'].flatMap((w) => [`x-ratelimit-${w}-${k}`, `anthropic-ratelimit-${k}-${w}`]))];

const PASSED_ON = /^(retry-after(-ms)?|x-should-retry|x-ratelimit-[a-z0-9-]+|anthropic-ratelimit-[a-z0-9-]+)$/;
