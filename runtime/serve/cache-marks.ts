/**
 * Cache marks (the unified `cacheControl` on parts and tools) on their way to an upstream: kept
 * where its spec writes them, taken off and named in the warnings where it has no place for them
 * (docs/serving.md#what-passes-through).
 */
import type { ProviderAdapter } from '../contract/adapter.js';
import type { ChatRequest, Warning } from '../contract/unified-model.js';

export interface CacheMarkPlaces {
  parts: boolean;
  tools: boolean;
}

/**
 * Where the upstream spec writes cache marks (parts, tools), asked of its own request builder
 * once: a probe request carrying marks, and whether they are in the body it builds.
 */
export function carriesCacheMarks(upstream: ProviderAdapter): CacheMarkPlaces {
  const mark = (ttl: string) => ({ type: 'ephemeral' as const, ttl });
  try {
    const body = JSON.stringify(
      upstream.buildRequest(
        { model: 'probe', maxTokens: 1, messages: [{ role: 'user', content: [{ type: 'text', text: 'probe', cacheControl: mark('probe-part') }] }], tools: [{ name: 'probe', parameters: { type: 'object' }, cacheControl: mark('probe-tool') }] },
        'blocking',
      ).body,
    );
    return { parts: body.includes('probe-part'), tools: body.includes('probe-tool') };
  } catch {
    return { parts: false, tools: false };
  }
}

/** Cache marks the upstream has no place for: taken off, each named in the warnings. */
export function dropCacheMarks(r: ChatRequest, carries: CacheMarkPlaces, upstreamName: string, warnings: Warning[]): void {
  const drop = (field: string) => warnings.push({ type: 'dropped', field, message: `${upstreamName} has no place for a cache mark here; it was not sent` });
  if (!carries.parts) {
    r.messages.forEach((m, i) => {
      if ((m.role !== 'user' && m.role !== 'tool') || typeof m.content === 'string') return;
      m.content.forEach((p, j) => {
        if (p.cacheControl !== undefined) {
          delete p.cacheControl;
          drop(`messages[${i}].content[${j}].cacheControl`);
        }
      });
    });
  }
  if (!carries.tools) {
    r.tools?.forEach((t, i) => {
      if (t.type !== 'provider' && t.cacheControl !== undefined) {
        delete t.cacheControl;
        drop(`tools[${i}].cacheControl`);
      }
    });
  }
}
