/** A fetch Request's body within a byte limit, counted as it streams in (Workers, Deno and Bun have no listener in front to count it). */

/**
 * The body as text, read chunk by chunk and counted as it comes: undefined once it passes the
 * limit (or when its declared length does), the rest not read.
 */
export async function readText(req: Request, limit: number): Promise<string | undefined> {
  if (Number(req.headers.get('content-length') ?? 0) > limit) return undefined;
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
