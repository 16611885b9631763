/**
 * What a unified part carries beyond what the AI SDK models (signatures, redacted reasoning, item
 * ids, the wire block of a provider-executed tool), kept under `providerMetadata.wireforge` so the
 * next step sends it back unchanged, and read back from `providerOptions.wireforge`. The origin
 * (spec id and model) goes with it, so a part moved to another spec is cleaned by that spec's
 * continuity rules (docs/continuity.md), never sent as if it were its own.
 */
import type { JSONObject, SharedV4ProviderMetadata, SharedV4ProviderOptions } from '@ai-sdk/provider';

/** The providerMetadata / providerOptions key the bridge owns. */
export const KEY = 'wireforge';

export interface Origin {
  provider: string;
  model?: string | undefined;
}

/** Keys that never come back from the caller's side (a prompt is user input). */
const UNSAFE = new Set(['__proto__', 'constructor', 'prototype']);

/** `providerMetadata.wireforge`: the part's fields except those the AI SDK part already has, plus its origin. */
export function metadataOf(part: object, shown: readonly string[], origin: Origin): SharedV4ProviderMetadata {
  const out: JSONObject = { provider: origin.provider };
  if (origin.model !== undefined) out.model = origin.model;
  for (const [k, v] of Object.entries(part)) if (v !== undefined && !shown.includes(k)) out[k] = v as JSONObject[string];
  return { [KEY]: out };
}

/** The fields under `providerOptions.wireforge`, without the origin and without unsafe keys. */
export function fieldsOf(options: SharedV4ProviderOptions | undefined): { fields: Record<string, unknown>; origin: Origin | undefined } {
  const own = options?.[KEY];
  if (own === undefined || own === null || typeof own !== 'object' || Array.isArray(own)) return { fields: {}, origin: undefined };
  const fields: Record<string, unknown> = {};
  let origin: Origin | undefined;
  for (const [k, v] of Object.entries(own)) {
    if (UNSAFE.has(k) || v === undefined) continue;
    if (k === 'provider') {
      if (typeof v === 'string') origin = { provider: v, ...(origin?.model === undefined ? {} : { model: origin.model }) };
    } else if (k === 'model') {
      if (typeof v === 'string') origin = { provider: origin?.provider ?? '', model: v };
    } else fields[k] = v;
  }
  return { fields, origin: origin?.provider ? origin : undefined };
}
