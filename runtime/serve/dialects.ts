/**
 * Dialects: a spec that extends a listen protocol (OpenRouter's and DeepSeek's Chat Completions,
 * which carry reasoning and its signatures) reads a caller's request and writes its answer in
 * place of the listen spec. Chosen once per request, before the body is decoded: by the route
 * (`dialect:`), or by the request's `wireforge: { dialect }` where the listen entry allows it.
 * The dialect is data: its generated serve codec, found by spec id. docs/serving.md#dialects.
 */
import type { ServedSpec } from '../contract/serve-codec.js';

/** The top-level body field that holds wireforge's own request fields; taken out before the body is read. */
export const OWN_FIELD = 'wireforge';

/**
 * The dialect a body asks for in `wireforge.dialect`, its `wireforge` field taken out: the
 * allowed dialect's spec, the listen spec itself (asked for by its own id: the plain protocol,
 * whatever the route says), undefined when it asks for none, or why it cannot have it.
 */
export function askedDialect(body: Record<string, unknown>, listen: ServedSpec, allowed: ReadonlyMap<string, ServedSpec>): ServedSpec | undefined | { refused: string } {
  const own = body[OWN_FIELD];
  delete body[OWN_FIELD];
  const values = () => [listen.adapter.id, ...allowed.keys()].map((v) => JSON.stringify(v)).join(', ');
  if (typeof own !== 'object' || own === null || Array.isArray(own)) return { refused: `${OWN_FIELD} must be an object such as { "dialect": "<spec id>" }, not ${JSON.stringify(own)} (${OWN_FIELD}.dialect takes ${values()} here)` };
  for (const k of Object.keys(own)) if (k !== 'dialect') return { refused: `${OWN_FIELD}.${k} is not a field the gateway reads (it reads ${OWN_FIELD}.dialect)` };
  const asked = (own as { dialect?: unknown }).dialect;
  if (asked === undefined) return undefined;
  if (asked === listen.adapter.id) return listen;
  const found = typeof asked === 'string' && allowed.has(asked) ? allowed.get(asked) : undefined;
  if (found) return found;
  return { refused: `${OWN_FIELD}.dialect ${JSON.stringify(asked)} is not allowed here: ${allowed.size ? `it takes ${values()}` : `this listen protocol allows no dialect (it takes only ${values()}); the gateway config lists them in the listen entry's dialects`}` };
}
