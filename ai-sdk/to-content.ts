/**
 * Unified results → AI SDK V4 results (docs/ai-sdk.md, "To the AI SDK"): content parts, usage,
 * finish reason and warnings. Whatever a part carries beyond the V4 shape rides in
 * `providerMetadata.wireforge` (part-metadata.ts) and comes back on the next step.
 */
import type {
  LanguageModelV4Citation,
  LanguageModelV4Content,
  LanguageModelV4FinishReason,
  LanguageModelV4Usage,
  SharedV4Warning,
} from '@ai-sdk/provider';
import type { Citation, FinishReason, ResponsePart, Usage, Warning } from '../runtime/contract/unified-model.js';
import { metadataOf, type Origin } from './part-metadata.js';

const FINISH: Record<FinishReason, LanguageModelV4FinishReason['unified']> = {
  stop: 'stop',
  length: 'length',
  tool_calls: 'tool-calls',
  content_filter: 'content-filter',
  // A refusal is the model declining for safety: the nearest V4 reason; the raw one stays in `raw`.
  refusal: 'content-filter',
  error: 'error',
  other: 'other',
};

export function finishOf(reason: FinishReason | null, raw: string | null): LanguageModelV4FinishReason {
  return { unified: reason === null ? 'other' : FINISH[reason], raw: raw ?? undefined };
}

/** Unified counts (input includes cache reads and writes, output includes reasoning) split as V4 splits them. */
export function usageOf(u: Usage | null): LanguageModelV4Usage {
  if (u === null) {
    return { inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: undefined, text: undefined, reasoning: undefined } };
  }
  const cached = u.cachedInputTokens;
  const written = u.cacheWriteTokens;
  const reasoning = u.reasoningTokens;
  return {
    inputTokens: { total: u.inputTokens, noCache: u.inputTokens - (cached ?? 0) - (written ?? 0), cacheRead: cached, cacheWrite: written },
    outputTokens: { total: u.outputTokens, text: reasoning === undefined ? undefined : u.outputTokens - reasoning, reasoning },
    // Plain data (other models' counts, Anthropic advisor steps, included).
    raw: { ...u } as unknown as LanguageModelV4Usage['raw'],
  };
}

/** wireforge's fidelity warnings: a dropped field is unsupported, an overridden one a compatibility note. */
export function warningsOf(warnings: readonly Warning[]): SharedV4Warning[] {
  return warnings.map((w) => ({ type: w.type === 'dropped' ? 'unsupported' : 'compatibility', feature: w.field, details: w.message }));
}

export function citationsOf(list: Citation[] | undefined, ids: () => string): LanguageModelV4Citation[] | undefined {
  if (!list?.length) return undefined;
  return list.map((c) => {
    const source: LanguageModelV4Citation['source'] = c.url !== undefined
      ? { type: 'source', sourceType: 'url', id: ids(), url: c.url, ...(c.title === undefined ? {} : { title: c.title }) }
      : { type: 'source', sourceType: 'document', id: ids(), mediaType: 'text/plain', title: c.title ?? c.documentId ?? 'document' };
    return { source, ...(c.citedText === undefined ? {} : { citedText: c.citedText }) };
  });
}

/** Text and thinking are made by the caller (they stream in pieces); every other part is whole here. */
export function contentOf(part: ResponsePart, origin: Origin, ids: () => string): LanguageModelV4Content | undefined {
  switch (part.type) {
    case 'text': {
      const citations = citationsOf(part.citations, ids);
      return { type: 'text', text: part.text, ...(citations ? { citations } : {}), ...extra(part, ['type', 'text', 'citations'], origin) };
    }
    case 'thinking':
      return { type: 'reasoning', text: part.text, providerMetadata: metadataOf(part, ['type', 'text'], origin) };
    case 'tool-call':
      return { type: 'tool-call', toolCallId: part.call.id, toolName: part.call.name, input: part.call.arguments, ...extra(part.call, ['id', 'name', 'arguments'], origin) };
    case 'provider-tool-call':
      return { type: 'tool-call', toolCallId: part.id, toolName: part.name, input: JSON.stringify(part.input ?? {}), providerExecuted: true, providerMetadata: metadataOf(part, ['type', 'id', 'name', 'input'], origin) };
    case 'provider-tool-result':
      return { type: 'tool-result', toolCallId: part.callId, toolName: part.name, result: (part.result ?? null) as never, ...(part.isError ? { isError: true } : {}), providerMetadata: metadataOf(part, ['type', 'callId', 'name', 'result', 'isError'], origin) };
    case 'source':
      return part.url !== undefined
        ? { type: 'source', sourceType: 'url', id: ids(), url: part.url, ...(part.title === undefined ? {} : { title: part.title }) }
        : { type: 'source', sourceType: 'document', id: ids(), mediaType: 'text/plain', title: part.title ?? part.documentId ?? 'document', providerMetadata: metadataOf(part, ['type', 'title'], origin) };
    case 'file':
      if (part.data !== undefined) return { type: 'file', mediaType: part.mediaType, data: { type: 'data', data: part.data }, providerMetadata: metadataOf(part, ['type', 'mediaType', 'data'], origin) };
      if (part.url !== undefined) return { type: 'file', mediaType: part.mediaType, data: { type: 'url', url: new URL(part.url) }, providerMetadata: metadataOf(part, ['type', 'mediaType', 'url'], origin) };
      return undefined;
    case 'approval-request':
      return { type: 'tool-approval-request', approvalId: part.id, toolCallId: part.id, providerMetadata: metadataOf(part, ['type', 'id'], origin) };
    case 'opaque':
      return { type: 'custom', kind: `wireforge.${part.kind}`, providerMetadata: metadataOf(part, ['type'], origin) };
  }
}

/** providerMetadata only when the part carries something beyond its V4 fields (a plain text part stays plain). */
function extra(part: object, shown: readonly string[], origin: Origin): { providerMetadata?: ReturnType<typeof metadataOf> } {
  for (const [k, v] of Object.entries(part)) if (v !== undefined && !shown.includes(k)) return { providerMetadata: metadataOf(part, shown, origin) };
  return {};
}
