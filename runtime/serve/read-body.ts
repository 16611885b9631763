/** A fetch Request's body within a byte limit, counted as it streams in (Workers, Deno and Bun have no listener in front to count it). */
import type { ServedRequest } from './served-request.js';

/**
 * The body as text, read chunk by chunk and counted as it comes: undefined once it passes the
 * limit (or when its declared length does), the rest not read. A declared length within the limit
 * bounds the body (HTTP's framing ends it there): read whole, as the platform reads it.
 */
export async function readText(req: ServedRequest, limit: number): Promise<string | undefined> {
  const declared = req.headers.get('content-length');
  if (Number(declared ?? 0) > limit) return undefined;
  if (declared !== null && /^\d+$/.test(declared)) return req.text();
  if (!req.body) return '';
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.length;
  }
  return new TextDecoder().decode(all);
}
