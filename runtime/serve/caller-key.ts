/** The key a caller sent: in the spec's auth header, or in a header form its serve section also accepts. */
import type { ServedSpec } from '../contract/serve-codec.js';

export function callerKey(spec: ServedSpec, header: (name: string) => string | null | undefined): string | undefined {
  for (const f of [spec.adapter.endpoint.auth, ...(spec.serve.accept?.auth ?? [])]) {
    const v = header(f.header.toLowerCase());
    if (v == null) continue;
    if (!f.scheme) return v;
    if (v.toLowerCase().startsWith(`${f.scheme.toLowerCase()} `)) return v.slice(f.scheme.length + 1);
  }
  return undefined;
}

/** Compares in time that depends on the length only, so a secret cannot be found a character at a time. */
export function sameSecret(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < b.length; i++) diff |= (a.charCodeAt(i) || 0) ^ b.charCodeAt(i);
  return diff === 0;
}
