/**
 * A fetch for a client that talks to a real provider URL: it records the URL the client built,
 * then sends the same request (path and query kept, the origin replaced) to a loopback server,
 * with the host it was meant for in `x-original-host` (fetch cannot set Host; a proxy would).
 */
import type { LoopbackServer } from './loopback-server.js';

export function forwardingFetch(server: LoopbackServer): { urls: string[]; fetch: typeof fetch } {
  const urls: string[] = [];
  const f: typeof fetch = (url, init) => {
    urls.push(String(url));
    const u = new URL(String(url));
    return fetch(`${server.url}${u.pathname}${u.search}`, { ...init, headers: { ...(init?.headers as Record<string, string>), 'x-original-host': u.host } });
  };
  return { urls, fetch: f };
}
