/**
 * Unified results → AI SDK V4 results (docs/ai-sdk.md, "To the AI SDK"): one table from each
 * unified part to its V4 part, used by doGenerate for the whole turn and by doStream for the
 * parts that arrive whole (and for a block's end metadata), plus usage, finish reason and warnings.
 * Whatever a part carries beyond the V4 shape rides in `providerMetadata.wireforge`
 * (part-metadata.ts) and comes back on the next step. Unset V4 fields are left undefined, as the
 * runtime leaves unset wire fields: the AI SDK reads them as absent.
 */
import type { LanguageModelV4Content, LanguageModelV4FinishReason, LanguageModelV4Source, LanguageModelV4Usage, SharedV4ProviderMetadata, SharedV4Warning } from '@ai-sdk/provider';
import type { ChatResponse, Citation, FinishReason, ResponsePart, Usage, Warning } from '../runtime/contract/unified-model.js';
import { quote } from '../runtime/errors.js';
import { nonEmpty } from './non-empty.js';
import { KEY, metadataOf, type Origin } from './part-metadata.js';

/** A turn's V4 ids: "0", "1", … in the order parts are made. */
export type Ids = () => string;
export const counter = (): Ids => {
  let n = 0;
  return () => `${n++}`;
};

/**
 * A unified part's V4 part, and what its metadata leaves out: the fields the V4 part shows (none
 * given: no metadata), whether to add metadata only when something is left (a plain text part
 * stays plain), and the object they are read from (a call's, for a tool-call part).
 */
type Row<T> = (p: T, ids: Ids) => [v4: LanguageModelV4Content, shown?: string[], ifAny?: boolean, of?: object] | undefined;

/** A source (a part, or the source of a citation): a URL, or a document by its title. */
const sourceOf = (s: Citation, ids: Ids): LanguageModelV4Source => ({
  type: 'source',
  id: ids(),
  ...(s.url !== undefined ? { sourceType: 'url', url: s.url, title: s.title } : { sourceType: 'document', mediaType: 'text/plain', title: s.title ?? s.documentId ?? 'document' }),
});

export const citationsOf = (list: Citation[] | undefined, ids: Ids) => nonEmpty(list)?.map((c) => ({ source: sourceOf(c, ids), citedText: c.citedText }));

const PARTS: { [T in ResponsePart['type']]: Row<Extract<ResponsePart, { type: T }>> } = {
  text: (p, ids) => [{ type: 'text', text: p.text, citations: citationsOf(p.citations, ids) }, ['text', 'citations'], true],
  thinking: (p) => [{ type: 'reasoning', text: p.text }, ['text']],
  'tool-call': ({ call: c }) => [{ type: 'tool-call', toolCallId: c.id, toolName: c.name, input: c.arguments }, ['id', 'name', 'arguments'], true, c],
  'provider-tool-call': (p) => [{ type: 'tool-call', toolCallId: p.id, toolName: p.name, input: quote(p.input ?? {}), providerExecuted: true }, ['id', 'name', 'input']],
  'provider-tool-result': (p) => [{ type: 'tool-result', toolCallId: p.callId, toolName: p.name, result: (p.result ?? null) as never, isError: p.isError || undefined }, ['callId', 'name', 'result', 'isError']],
  // A URL source is all in its V4 part; a document keeps its id (and anything else) in metadata.
  source: (p, ids) => [sourceOf(p, ids), p.url === undefined ? ['title'] : undefined],
  // Data when the part has it, else its URL; the one shown is named by its type.
  file: ({ mediaType, data, url }) => {
    const d = data !== undefined ? ({ type: 'data', data } as const) : url !== undefined ? ({ type: 'url', url: new URL(url) } as const) : undefined;
    return d && [{ type: 'file', mediaType, data: d }, ['mediaType', d.type]];
  },
  'approval-request': (p) => [{ type: 'tool-approval-request', approvalId: p.id, toolCallId: p.id }, ['id']],
  opaque: (p) => [{ type: 'custom', kind: `${KEY}.${p.kind}` }, []],
};

export function contentOf(part: ResponsePart, origin: Origin, ids: Ids): LanguageModelV4Content | undefined {
  const [v4, shown, ifAny, of = part] = PARTS[part.type](part as never, ids) ?? [];
  if (v4 && shown) v4.providerMetadata = metadataOf(of, shown, origin, ifAny);
  return v4;
}

/** V4's finish names are the unified ones with a dash; a refusal (the model declining for safety) is the nearest, content-filter. */
const finishOf = (reason: FinishReason | null, raw: string | null): LanguageModelV4FinishReason => ({
  unified: reason === 'refusal' ? 'content-filter' : ((reason?.replace('_', '-') ?? 'other') as LanguageModelV4FinishReason['unified']),
  raw: raw ?? undefined,
});

/** Unified counts (input includes cache reads and writes, output includes reasoning) split as V4 splits them; `raw` the unified usage. */
function usageOf(u: Usage | null): LanguageModelV4Usage {
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

/** How a turn ended, as doGenerate's result and the stream's finish part say it: finish reason, usage, and the turn's own metadata. */
export const endOf = (r: Pick<ChatResponse, 'finishReason' | 'rawFinishReason' | 'usage' | 'paused'>, provider: string) => ({
  finishReason: finishOf(r.finishReason, r.rawFinishReason),
  usage: usageOf(r.usage),
  providerMetadata: { [KEY]: { provider, ...(r.paused && { paused: r.paused }) } },
});
