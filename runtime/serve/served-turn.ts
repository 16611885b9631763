/**
 * A turn to serve, in unified terms, and what the serve templates' turn slots hold: the turn as
 * this spec's assistant role writes it into a request (`$message`: the wire's own form of an
 * assistant turn, which is what its responses carry), the wire finish reason and usage.
 */
import type { ProviderAdapter } from '../contract/adapter.js';
import { WireforgeError } from '../errors.js';
import { readPath } from '../wire/read-path.js';
import type { AssistantMessage, FinishReason, Usage, Warning } from '../contract/unified-model.js';
import type { ServeCodec, ServeSlots } from '../contract/serve-codec.js';
import { wireFinish } from './wire-finish.js';
import { wireUsage } from './wire-usage.js';
import { FORBIDDEN_KEYS } from '../request/safe-merge.js';

export interface ServedTurn {
  id: string;
  model: string;
  /** Unix seconds. */
  created: number;
  message: AssistantMessage;
  finishReason: FinishReason | null;
  usage: Usage | null;
  /** The client's request body as it arrived, for the templates that echo it (`$request`). */
  request?: unknown;
  /** The items' ids by position, as a stream named them (its writer's turn): an item written without one gets its own. */
  itemIds?: readonly string[];
}

/** What the turn slots hold, and what the spec could not carry of the turn. */
export interface TurnSlots {
  slots: Pick<ServeSlots, 'id' | 'model' | 'created' | 'createdAt' | 'message' | 'finish' | 'finishFields' | 'usage' | 'request'>;
  warnings: Warning[];
}

// The user turn the assistant turn is written after (some wires want a conversation to start with one).
const OPENING = { role: 'user', content: '.' } as const;

export function turnSlots(adapter: ProviderAdapter, serve: ServeCodec, turn: ServedTurn): TurnSlots {
  const { message, warnings } = turnMessage(adapter, serve, turn);
  return { slots: { ...turnFields(adapter, serve, turn), message }, warnings };
}

/** The turn slots but `message`: what a stream's finish step usually reads (no request build). */
export function turnFields(adapter: ProviderAdapter, serve: ServeCodec, turn: ServedTurn): Omit<TurnSlots['slots'], 'message'> {
  const fields = turn.finishReason ? (serve.finish[turn.finishReason] ?? serve.finish['*'] ?? {}) : {};
  return {
    id: turn.id,
    model: turn.model,
    created: turn.created,
    createdAt: new Date(turn.created * 1000).toISOString(),
    finish: wireFinish(adapter.profile.finish, turn.finishReason),
    finishFields: fields,
    usage: turn.usage ? wireUsage(adapter.profile.usage, turn.usage) : undefined,
    request: turn.request,
  };
}

/** `$message`: the turn as this spec's assistant role writes it into a request, and what that could not carry. */
export function turnMessage(adapter: ProviderAdapter, serve: ServeCodec, turn: ServedTurn): { message: unknown; warnings: Warning[] } {
  const to = adapter.profile.request.messages.to;
  const opening = readPath(adapter.buildRequest({ messages: [OPENING] }, 'blocking').body, to) as unknown[];
  const built = adapter.buildRequest({ messages: [OPENING, withItemIds(turn)] }, 'blocking');
  const items = (readPath(built.body, to) as unknown[]).slice(opening.length);
  const written = adapter.profile.request.messages.spread ? named(items, serve.itemId, turn.id, turn.itemIds) : items[0];
  return { message: serve.fill ? filled(written, serve.fill) : written, warnings: built.warnings };
}

/**
 * Items of a spread turn get the id the stream writer gives them when they have none: the one it
 * streamed the item with (`ids`), else `<response id>_<block index>`.
 */
function named(items: unknown[], key: string | undefined, id: string, ids: readonly string[] | undefined): unknown[] {
  if (key === undefined) return items;
  // An id the template left unset (a message written without its item id) is none.
  return items.map((item, i) => {
    if (typeof item !== 'object' || item === null) return item;
    const o = item as Record<string, unknown>;
    if (o[key] != null) return item;
    const made = ids?.[i] ?? `${id}_${i}`;
    return key in o ? { ...o, [key]: made } : { [key]: made, ...o };
  });
}

/**
 * The fields a response writes that the request form leaves out (`serve.fill`), added by each
 * object's `type` where absent; a copy, so the fill's lists are the body's own.
 */
function filled(v: unknown, fill: NonNullable<ServeCodec['fill']>): unknown {
  if (Array.isArray(v)) return v.map((x) => filled(x, fill));
  if (typeof v !== 'object' || v === null) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) if (!FORBIDDEN_KEYS.has(k)) out[k] = filled(x, fill);
  const type = out.type;
  const more = typeof type === 'string' && Object.hasOwn(fill, type) ? fill[type] : undefined;
  if (more) for (const [k, x] of Object.entries(more)) if (!(k in out) && !FORBIDDEN_KEYS.has(k)) out[k] = typeof x === 'object' && x !== null ? JSON.parse(JSON.stringify(x)) : x;
  return out;
}

/**
 * Reasoning blocks without an id get the one the stream writer gives their wire item (the turn's
 * `itemIds`, else the response id and the block's index; reasoning comes first), so both paths
 * name them alike.
 */
function withItemIds(turn: ServedTurn): AssistantMessage {
  const m = turn.message;
  if (!m.thinking?.some((t) => t.id === undefined)) return m;
  return { ...m, thinking: m.thinking.map((t, i) => (t.id === undefined ? { ...t, id: turn.itemIds?.[i] ?? `${turn.id}_${i}` } : t)) };
}

/** The blocking body for a turn. */
export function responseBody(adapter: ProviderAdapter, serve: ServeCodec, turn: ServedTurn): { body: unknown; warnings: Warning[] } {
  if (!serve.response) throw new WireforgeError(`spec "${adapter.id}" has no serve.response: it cannot answer a blocking request (docs/serving.md)`, { provider: adapter.id });
  const { slots, warnings } = turnSlots(adapter, serve, turn);
  return { body: serve.response(slots as ServeSlots), warnings };
}
