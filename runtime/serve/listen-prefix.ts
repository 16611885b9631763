/**
 * Which listen entry a path belongs to, as the gateway for teams routes it: the longest prefix the
 * path is under (`/v1` must not take what `/v1/anthropic` serves), else the first entry. One rule
 * for the router and for the answers made outside it (the node listener's 413).
 */
export function byListenPrefix<L extends { prefix: string }>(entries: readonly L[]): (path: string) => L {
  const longestFirst = [...entries].sort((a, b) => b.prefix.length - a.prefix.length);
  return (path) => longestFirst.find((x) => path === x.prefix || path.startsWith(`${x.prefix}/`)) ?? entries[0]!;
}
