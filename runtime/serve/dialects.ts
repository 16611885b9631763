/**
 * Dialects: a spec that extends a listen protocol (OpenRouter's and DeepSeek's Chat Completions,
 * which carry reasoning and its signatures) reads a caller's request and writes its answer in
 * place of the listen spec. Chosen once per request, before the body is decoded: by the route
 * (`dialect:`), or by the request's `wireforge: { dialect }` where the listen entry allows it.
 * The dialect is data: its generated serve codec, found by spec id. docs/serving.md#dialects.
 */
import type { ServedSpec } from '../contract/serve-codec.js';
import type { AssistantMessage, ChatRequest, StreamEvent, ThinkingPart } from '../contract/unified-model.js';

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

/*
 * Whose reasoning a caller sends back. A signing dialect's signatures (and encrypted reasoning)
 * go to the caller marked with the spec that made them, `<spec id>:<as the upstream gave it>`
 * (neither a spec id nor base64 holds a `:`), and come back unmarked: the assistant turn's origin
 * is that spec, so only an upstream of that spec gets them (continuity drops them elsewhere), on
 * whichever route or target the next turn goes. A turn with no mark, marks of two specs or one
 * not known is the dialect's own: no other upstream gets its reasoning.
 */
const MARKED = /^([a-z0-9][a-z0-9-]*):/;

/** A reasoning block as the caller gets it: its signature and encrypted data marked with `specId`. */
function markPart<T extends ThinkingPart>(t: T, specId: string): T {
  if (t.signature === undefined && t.redacted === undefined) return t;
  return { ...t, ...(t.signature !== undefined ? { signature: `${specId}:${t.signature}` } : {}), ...(t.redacted !== undefined ? { redacted: `${specId}:${t.redacted}` } : {}) };
}

/** The answer's message with its reasoning marked as `specId`'s. */
export function markReasoning(m: AssistantMessage, specId: string): AssistantMessage {
  return {
    ...m,
    ...(m.thinking ? { thinking: m.thinking.map((t) => markPart(t, specId)) } : {}),
    ...(m.parts ? { parts: m.parts.map((p) => (p.type === 'thinking' ? markPart(p, specId) : p)) } : {}),
  };
}

/** A streamed event with its signature marked as `specId`'s (the others as they are). */
export function markEvent(e: StreamEvent, specId: string): StreamEvent {
  return e.type === 'thinking-signature' ? { ...e, signature: `${specId}:${e.signature}` } : e;
}

/**
 * The caller's assistant turns, read in a signing dialect: their reasoning unmarked and each turn's
 * origin the spec its marks name (a spec `known`), else the dialect's own (`dialectId`).
 */
export function unmarkReasoning(r: ChatRequest, dialectId: string, known: (id: string) => boolean): void {
  for (const m of r.messages) {
    if (m.role !== 'assistant' || m.origin) continue;
    const from = new Set<string>();
    const unmark = <T extends ThinkingPart>(t: T): T => {
      const take = (v: string | undefined) => {
        const id = v === undefined ? undefined : MARKED.exec(v)?.[1];
        if (id === undefined || !known(id)) return v;
        from.add(id);
        return v!.slice(id.length + 1);
      };
      if (t.signature === undefined && t.redacted === undefined) return t;
      const [signature, redacted] = [take(t.signature), take(t.redacted)];
      return { ...t, ...(signature !== undefined ? { signature } : {}), ...(redacted !== undefined ? { redacted } : {}) };
    };
    if (m.thinking) m.thinking = m.thinking.map(unmark);
    if (m.parts) m.parts = m.parts.map((p) => (p.type === 'thinking' ? unmark(p) : p));
    m.origin = { provider: from.size === 1 ? [...from][0]! : dialectId };
  }
}
