/**
 * One HTTP call with auth, headers, a first-byte timeout, cancellation and retries. Retries
 * happen only before a response is accepted: once a stream has delivered anything, never.
 */
import type { ProviderAdapter } from '../contract/adapter.js';
import { ConnectionError, ProviderError, TimeoutError } from '../errors.js';
import { abortReason, linkSignal, sleep } from './abort.js';
import { readErrorResponse } from './read-error-response.js';
import type { Redact, Signer } from '../contract/transport.js';

export interface SendOptions {
  url: string;
  headers: Record<string, string>;
  body: string;
  fetch: typeof globalThis.fetch;
  timeoutMs: number;
  maxRetries: number;
  signal: AbortSignal | undefined;
  redact: Redact;
  /** Authentication computed per attempt (an access token, a SigV4 signature). */
  sign?: Signer | undefined;
}

export interface Sent {
  response: Response;
  /** Aborts the request's body (stream cancellation, idle timeout). */
  abort(reason: unknown): void;
  signal: AbortSignal;
  dispose(): void;
}

const MAX_WAIT_MS = 60_000;

export const sendRequest = async (adapter: ProviderAdapter, o: SendOptions): Promise<Sent> => {
  const { url, headers, body, signal, timeoutMs, maxRetries, redact, sign } = o;
  for (let attempt = 0; ; attempt++) {
    const link = linkSignal(signal);
    // Set when the first-byte timeout aborts the attempt; thrown instead of what the abort causes.
    let timedOut: TimeoutError | undefined;
    const timer = setTimeout(() => link.abort((timedOut = new TimeoutError(adapter.id, 'first-byte', timeoutMs))), timeoutMs);
    let signed = false;
    let response: Response;
    try {
      // Signed per attempt (a token may have been refreshed, a signature carries its time), within
      // the attempt's timeout and signal; a failing getToken() is its own error, not one to retry.
      const signedHeaders = sign ? { ...headers, ...(await sign(url, headers, body, link.signal)) } : headers;
      signed = true;
      response = await o.fetch(url, { method: 'POST', headers: signedHeaders, body, signal: link.signal });
    } catch (error) {
      clearTimeout(timer);
      link.dispose();
      if (signal?.aborted) throw abortReason(signal);
      if (timedOut) throw timedOut;
      if (!signed) throw error; // the signer's own failure (getToken() threw)
      // A network failure before any response byte: safe to try again, unless the URL itself is
      // one no fetch can reach (judged here, on the failure path, not by each runtime's error codes).
      if (attempt < maxRetries && reachable(url)) {
        await sleep(backoff(attempt, undefined), signal);
        continue;
      }
      throw new ConnectionError(adapter.id, `no response: ${redact(describeFailure(error))} (${attempt + 1} attempt${attempt ? 's' : ''})`, attempt + 1, redactedCause(error, redact));
    }
    clearTimeout(timer);
    if (response.ok) return { response, ...link };
    const error: ProviderError = await readErrorResponse(adapter, response, redact);
    link.dispose();
    if (error.retryable && attempt < maxRetries) {
      await sleep(backoff(attempt, response.headers, error.retryAfterMs), signal);
      continue;
    }
    throw error;
  }
};

/** An absolute http(s) URL: a failure to reach it may pass; any other URL fails the same way again. */
const reachable = (url: string): boolean => {
  try {
    return /^https?:$/.test(new URL(url).protocol);
  } catch {
    return false;
  }
};

/** Exponential backoff with jitter; the server's retry-after(-ms), or the wait its error body states, wins, capped. */
export const backoff = (attempt: number, headers: Headers | undefined, bodyDelayMs?: number): number => {
  // The jitter stays under the cap (8 s at most).
  return Math.min(serverWait(headers) ?? bodyDelayMs ?? Math.min(500 * 2 ** attempt, 8000) * (0.75 + Math.random() * 0.25), MAX_WAIT_MS);
};

/** The wait retry-after-ms or retry-after (seconds or an HTTP date) asks for, if one is usable. */
export const serverWait = (headers: Headers | undefined): number | undefined => {
  const ms = headers?.get('retry-after-ms');
  if (ms && Number.isFinite(Number(ms))) return Number(ms);
  const after = headers?.get('retry-after');
  if (after) {
    const seconds = Number(after);
    const wait = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(after) - Date.now();
    if (Number.isFinite(wait) && wait >= 0) return wait;
  }
  return undefined;
};

/** What failed, from fetch's error and its cause (`fetch failed` alone says nothing): ECONNREFUSED, ENOTFOUND, an invalid URL. */
const describeFailure = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error);
  const { message, cause } = error as { message: string; cause?: unknown };
  if (!(cause instanceof Error)) return message;
  const detail = String((cause as { code?: unknown }).code ?? cause.message);
  return message.includes(detail) ? message : `${message} (${detail})`;
};

/** The transport's error as a copy with its messages redacted (a header error may quote the key), codes kept. */
const redactedCause = (error: unknown, redact: Redact, depth = 0): Error => {
  const e = error instanceof Error ? error : new Error(String(error));
  const copy = new Error(redact(e.message));
  copy.name = e.name;
  const code = (e as { code?: unknown }).code;
  if (code !== undefined) (copy as { code?: unknown }).code = code;
  const cause = (e as { cause?: unknown }).cause;
  if (cause !== undefined && depth < 3) (copy as { cause?: unknown }).cause = redactedCause(cause, redact, depth + 1);
  return copy;
};
