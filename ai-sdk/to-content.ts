/**
 * Unified results → AI SDK V4 results (docs/ai-sdk.md, "To the AI SDK"): one table from each
 * unified part to its V4 part, used by doGenerate for the whole turn and by doStream for the
 * parts that arrive whole (and for a block's end metadata), plus usage, finish reason and warnings.
 * Whatever a part carries beyond the V4 shape rides in `providerMetadata.wireforge`
 * (part-metadata.ts) and comes back on the next step. Unset V4 fields are left undefined, as the
 * runtime leaves unset wire fields: the AI SDK reads them as absent.
 */
import type { LanguageModelV4Content, LanguageModelV4FinishReason, LanguageModelV4Source, LanguageModelV4Usage, SharedV4ProviderMetadata, SharedV4Warning } from '@ai-sdk/provider';
import type { Citation, FinishReason, ResponsePart, Usage, Warning } from '../runtime/contract/unified-model.js';
import { KEY, metadataOf, type Origin } from './part-metadata.js';

/** A turn's V4 ids: "0", "1", … in the order parts are made. */
export type Ids = () => string;
export const counter = (): Ids => {
  let n = 0;
  return () => `${n++}`;
};

/** The part's metadata; `shown`: the fields its V4 part already has. */
type Meta = (shown: string[], ifAny?: boolean, of?: object) => SharedV4ProviderMetadata | undefined;
type Row<T> = (p: T, meta: Meta, ids: Ids) => LanguageModelV4Content | undefined;

/** A source (a part, or the source of a citation): a URL, or a document by its title. */
const sourceOf = (s: Citation, ids: Ids, meta?: SharedV4ProviderMetadata): LanguageModelV4Source =>
  s.url !== undefined
    ? { type: 'source', sourceType: 'url', id: ids(), url: s.url, title: s.title }
    : { type: 'source', sourceType: 'document', id: ids(), mediaType: 'text/plain', title: s.title ?? s.documentId ?? 'document', providerMetadata: meta };

export const citationsOf = (list: Citation[] | undefined, ids: Ids) => (list?.length ? list.map((c) => ({ source: sourceOf(c, ids), citedText: c.citedText })) : undefined);

const PARTS: { [T in ResponsePart['type']]: Row<Extract<ResponsePart, { type: T }>> } = {
  text: (p, m, ids) => ({ type: 'text', text: p.text, citations: citationsOf(p.citations, ids), providerMetadata: m(['text', 'citations'], true) }),
  thinking: (p, m) => ({ type: 'reasoning', text: p.text, providerMetadata: m(['text']) }),
  'tool-call': ({ call: c }, m) => ({ type: 'tool-call', toolCallId: c.id, toolName: c.name, input: c.arguments, providerMetadata: m(['id', 'name', 'arguments'], true, c) }),
  'provider-tool-call': (p, m) => ({ type: 'tool-call', toolCallId: p.id, toolName: p.name, input: JSON.stringify(p.input ?? {}), providerExecuted: true, providerMetadata: m(['id', 'name', 'input']) }),
  'provider-tool-result': (p, m) => ({ type: 'tool-result', toolCallId: p.callId, toolName: p.name, result: (p.result ?? null) as never, isError: p.isError || undefined, providerMetadata: m(['callId', 'name', 'result', 'isError']) }),
  source: (p, m, ids) => sourceOf(p, ids, m(['title'])),
  file: (p, m) =>
    p.data !== undefined ? { type: 'file', mediaType: p.mediaType, data: { type: 'data', data: p.data }, providerMetadata: m(['mediaType', 'data']) }
    : p.url !== undefined ? { type: 'file', mediaType: p.mediaType, data: { type: 'url', url: new URL(p.url) }, providerMetadata: m(['mediaType', 'url']) }
    : undefined,
  'approval-request': (p, m) => ({ type: 'tool-approval-request', approvalId: p.id, toolCallId: p.id, providerMetadata: m(['id']) }),
  opaque: (p, m) => ({ type: 'custom', kind: `${KEY}.${p.kind}`, providerMetadata: m([]) }),
};

export const contentOf = (part: ResponsePart, origin: Origin, ids: Ids): LanguageModelV4Content | undefined =>
  PARTS[part.type](part as never, (shown, ifAny, of = part) => metadataOf(of, shown, origin, ifAny), ids);

/** V4's finish names are the unified ones with a dash; a refusal (the model declining for safety) is the nearest, content-filter. */
export const finishOf = (reason: FinishReason | null, raw: string | null): LanguageModelV4FinishReason => ({
  unified: reason === 'refusal' ? 'content-filter' : ((reason?.replace('_', '-') ?? 'other') as LanguageModelV4FinishReason['unified']),
  raw: raw ?? undefined,
});

/** Unified counts (input includes cache reads and writes, output includes reasoning) split as V4 splits them; `raw` the unified usage. */
export function usageOf(u: Usage | null): LanguageModelV4Usage {
  const { inputTokens: input, outputTokens: output, cachedInputTokens: read, cacheWriteTokens: written, reasoningTokens: reasoning } = u ?? ({} as Partial<Usage>);
  return {
    inputTokens: { total: input, noCache: input === undefined ? input : input - (read ?? 0) - (written ?? 0), cacheRead: read, cacheWrite: written },
    outputTokens: { total: output, text: reasoning === undefined ? reasoning : output! - reasoning, reasoning },
    raw: (u ? { ...u } : undefined) as LanguageModelV4Usage['raw'],
  };
}

/** wireforge's fidelity warnings: a dropped field is unsupported, an overridden one a compatibility note. */
export const warningsOf = (warnings: readonly Warning[]): SharedV4Warning[] =>
  warnings.map((w) => ({ type: w.type === 'dropped' ? 'unsupported' : 'compatibility', feature: w.field, details: w.message }));

/** The turn's own metadata (doGenerate's result, the stream's finish). */
export const turnMetadata = (origin: Origin, paused?: true): SharedV4ProviderMetadata => ({ [KEY]: { provider: origin.provider, ...(paused && { paused }) } });
