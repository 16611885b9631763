/**
 * An overlay's serve export: its base's with what the overlay changes (a member or a stream step
 * set to undefined is taken away). Generated code calls it as a pure call, so a bundle that never
 * serves leaves the base's serve data out too.
 */
import type { ServeCodec } from './serve-codec.js';

export function serveOver(base: ServeCodec, own: { readonly [K in keyof ServeCodec]?: ServeCodec[K] | undefined }): ServeCodec {
  return { ...base, ...own, stream: own.stream ? { ...base.stream, ...own.stream } : base.stream };
}
