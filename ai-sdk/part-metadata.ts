/**
 * What a unified part carries beyond what the AI SDK models (signatures, redacted reasoning, item
 * ids, the wire block of a provider-executed tool), kept under `providerMetadata.wireforge` so the
 * next step sends it back unchanged, and read back from `providerOptions.wireforge`. The origin
 * (spec id and model) goes with it, so a part moved to another spec is cleaned by that spec's
 * continuity rules (docs/continuity.md), never sent as if it were its own.
 */
import type { JSONObject, SharedV4ProviderMetadata, SharedV4ProviderOptions } from '@ai-sdk/provider';
import { isPlainObject, sanitize } from '../runtime/request/safe-merge.js';
import { entries, isString } from '../runtime/wire/read-path.js';

/** The providerMetadata / providerOptions key the bridge owns. */
export const KEY = 'wireforge';

export interface Origin {
  provider: string;
  model?: string | undefined;
}

/**
 * `providerMetadata.wireforge`: the part's fields but `type` and those the V4 part already shows,
 * with its origin; `ifAny`: none at all when the part has nothing more (a plain text part stays plain).
 */
export function metadataOf(part: object, shown: readonly string[], origin: Origin, ifAny?: boolean): SharedV4ProviderMetadata | undefined {
  const out: JSONObject = { ...origin };
  let any = !ifAny;
  for (const [k, v] of entries(part)) {
    if (v !== undefined && k !== 'type' && !shown.includes(k)) (out[k] = v), (any = true);
  }
  return any ? { [KEY]: out } : undefined;
}

/**
 * The fields under `providerOptions.wireforge` and the origin they name. A prompt is user input:
 * it is copied without the keys that could reach a prototype, at any depth, as the runtime copies
 * every user object.
 */
export function fieldsOf(options: SharedV4ProviderOptions | undefined): [fields: Record<string, unknown>, origin: Origin | undefined] {
  const own = sanitize(options?.[KEY]);
  const { provider, model, ...fields } = isPlainObject(own) ? own : {};
  return [fields, isString(provider) && provider ? { provider, model: isString(model) ? model : undefined } : undefined];
}
