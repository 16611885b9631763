/**
 * CORS for a served fetch handler (the mock, the gateway), so a browser app can be tested against
 * them: a preflight is answered with what the request asks to send, and every answer, errors
 * included, names the allowed origin and the headers a client reads. docs/serving.md#cors.
 */

/** `true` (or `'*'`): any origin; a list: those origins only. */
export type CorsOption = boolean | string | readonly string[];

import type { ServedRequest } from './served-request.js';
import { withSource } from './body-source.js';

type Handler<R extends ServedRequest> = (request: R) => Promise<Response>;

/** Request headers a provider's client sends besides the ones a preflight names. */
const ALLOW_HEADERS = ['authorization', 'content-type', 'x-api-key', 'api-key', 'x-goog-api-key', 'anthropic-version', 'anthropic-beta', 'x-stainless-retry-count', 'x-stainless-timeout'];

/**
 * The handler answering with CORS headers when `cors` is set (unchanged otherwise). `expose`:
 * response headers a client reads (request ids, retry-after, warnings, an error type header).
 */
export function withCors<R extends ServedRequest>(handler: Handler<R>, cors: CorsOption | undefined, expose: ReadonlyArray<string | undefined>): Handler<R> {
  if (cors === undefined || cors === false) return handler;
  const any = cors === true || cors === '*';
  const origins = new Set(typeof cors === 'string' ? [cors] : Array.isArray(cors) ? cors : []);
  const exposed = [...new Set(['retry-after', 'request-id', 'x-request-id', ...expose.filter((h): h is string => h !== undefined).map((h) => h.toLowerCase())])].join(', ');
  const originFor = (req: R): Record<string, string> => {
    if (any) return { 'access-control-allow-origin': '*' };
    const origin = req.headers.get('origin');
    // A listed origin is named back; the answer differs by origin, so caches must key on it.
    return origin !== null && origins.has(origin) ? { 'access-control-allow-origin': origin, vary: 'origin' } : { vary: 'origin' };
  };
  return async (req) => {
    if (req.method === 'OPTIONS' && req.headers.has('access-control-request-method')) {
      const asked = (req.headers.get('access-control-request-headers') ?? '').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean);
      return new Response(null, {
        status: 204,
        headers: {
          ...originFor(req),
          'access-control-allow-methods': 'POST, OPTIONS',
          'access-control-allow-headers': [...new Set([...ALLOW_HEADERS, ...asked])].join(', '),
          'access-control-max-age': '600',
        },
      });
    }
    const res = await handler(req);
    const headers = new Headers(res.headers);
    for (const [k, v] of Object.entries(originFor(req))) headers.set(k, v);
    headers.set('access-control-expose-headers', exposed);
    return withSource(res, new Response(res.body, { status: res.status, statusText: res.statusText, headers }));
  };
}
