/**
 * One HTTP call with auth, headers, a first-byte timeout, cancellation and retries. Retries
 * happen only before a response is accepted: once a stream has delivered anything, never.
 */
import type { ProviderAdapter } from '../adapter.js';
import { ConnectionError, ProviderError, TimeoutError } from '../errors.js';
import { abortReason, linkSignal, sleep } from './abort.js';
import { readErrorResponse } from './read-error-response.js';
import type { Signer } from './authorize.js';
import type { Redact } from './redact.js';

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

export async function sendRequest(adapter: ProviderAdapter, o: SendOptions): Promise<Sent> {
  for (let attempt = 0; ; attempt++) {
    const link = linkSignal(o.signal);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      link.abort(new TimeoutError(adapter.id, 'first-byte', o.timeoutMs));
    }, o.timeoutMs);
    // Signed per attempt (a token may have been refreshed, a signature carries its time), within
    // the attempt's timeout and signal; a failing getToken() is its own error, not one to retry.
    let headers = o.headers;
    if (o.sign) {
      try {
        headers = { ...o.headers, ...(await o.sign(o.url, o.headers, o.body, link.signal)) };
      } catch (error) {
        clearTimeout(timer);
        link.dispose();
        if (o.signal?.aborted) throw abortReason(o.signal);
        if (timedOut) throw new TimeoutError(adapter.id, 'first-byte', o.timeoutMs);
        throw error;
      }
    }
    let response: Response;
    try {
      response = await o.fetch(o.url, { method: 'POST', headers, body: o.body, signal: link.signal });
    } catch (error) {
      clearTimeout(timer);
      link.dispose();
      if (o.signal?.aborted) throw abortReason(o.signal);
      if (timedOut) throw new TimeoutError(adapter.id, 'first-byte', o.timeoutMs);
      // A network failure before any response byte: safe to try again, unless the URL itself is
      // one no fetch can reach (judged here, on the failure path, not by each runtime's error codes).
      if (attempt < o.maxRetries && reachable(o.url)) {
        await sleep(backoff(attempt, undefined), o.signal);
        continue;
      }
      throw new ConnectionError(adapter.id, `no response: ${o.redact(describeFailure(error))} (${attempt + 1} attempt${attempt ? 's' : ''})`, attempt + 1, redactedCause(error, o.redact));
    }
    clearTimeout(timer);
    if (response.ok) return { response, abort: link.abort, signal: link.signal, dispose: link.dispose };
    const error: ProviderError = await readErrorResponse(adapter, response, o.redact);
    link.dispose();
    if (error.retryable && attempt < o.maxRetries) {
      await sleep(backoff(attempt, response.headers, error.retryAfterMs), o.signal);
      continue;
    }
    throw error;
  }
}

/** An absolute http(s) URL: a failure to reach it may pass; any other URL fails the same way again. */
function reachable(url: string): boolean {
  try {
    const protocol = new URL(url).protocol;
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/** Exponential backoff with jitter; the server's retry-after(-ms), or the wait its error body states, wins, capped. */
export function backoff(attempt: number, headers: Headers | undefined, bodyDelayMs?: number): number {
  const ms = headers?.get('retry-after-ms');
  if (ms && Number.isFinite(Number(ms))) return Math.min(Number(ms), MAX_WAIT_MS);
  const after = headers?.get('retry-after');
  if (after) {
    const seconds = Number(after);
    const wait = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(after) - Date.now();
    if (Number.isFinite(wait) && wait >= 0) return Math.min(wait, MAX_WAIT_MS);
  }
  if (bodyDelayMs !== undefined) return Math.min(bodyDelayMs, MAX_WAIT_MS);
  const base = Math.min(500 * 2 ** attempt, 8000);
  return base * (0.75 + Math.random() * 0.25);
}

/** What failed, from fetch's error and its cause (`fetch failed` alone says nothing): ECONNREFUSED, ENOTFOUND, an invalid URL. */
function describeFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error ? (error as { cause?: unknown }).cause : undefined;
  const detail = cause instanceof Error ? ((cause as { code?: unknown }).code ?? cause.message) : undefined;
  return detail !== undefined && !message.includes(String(detail)) ? `${message} (${String(detail)})` : message;
}

/** The transport's error as a copy with its messages redacted (a header error may quote the key), codes kept. */
function redactedCause(error: unknown, redact: Redact, depth = 0): Error {
  const e = error instanceof Error ? error : new Error(String(error));
  const copy = new Error(redact(e.message));
  copy.name = e.name;
  const code = (e as { code?: unknown }).code;
  if (code !== undefined) (copy as { code?: unknown }).code = code;
  const cause = (e as { cause?: unknown }).cause;
  if (cause !== undefined && depth < 3) (copy as { cause?: unknown }).cause = redactedCause(cause, redact, depth + 1);
  return copy;
}
