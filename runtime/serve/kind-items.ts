/**
 * Scripted calls of a client-run tool kind (`{ kind: 'shell', arguments: {…} }` in a mock turn)
 * become the wire item the spec's kind table reads as such a call, read backwards: the item type
 * whose tool-call rule has that kind, the call's id, name and input at the fields the rule reads.
 */
import type { ProviderAdapter } from '../contract/adapter.js';
import type { ToolCall } from '../contract/unified-model.js';
import { setPath } from '../request/set-path.js';
import type { ServedTurn } from './served-turn.js';

export function kindItems(adapter: ProviderAdapter, turn: ServedTurn): ServedTurn {
  const calls = turn.message.toolCalls;
  if (!calls?.some((c) => c.kind !== undefined && c.wire === undefined)) return turn;
  // Not the gateway's `<response id>_call<index>` for items it makes up: the mock's ids are its own.
  const toolCalls = calls.map((c, i) => (c.kind !== undefined && c.wire === undefined ? withItem(adapter, c, `item_${turn.id}_${i}`) : c));
  return { ...turn, message: { ...turn.message, toolCalls } };
}

/** The wire item of a call of a client-run kind, as this spec's kind table reads one; undefined when it has no such kind. */
export function kindItem(adapter: ProviderAdapter, call: ToolCall, itemId: string): unknown {
  return call.kind === undefined ? undefined : withItem(adapter, call, itemId).wire;
}

/** This spec's kind table reads calls of this kind. */
export function hasKind(adapter: ProviderAdapter, kind: string): boolean {
  return Object.values(adapter.profile.parts?.kinds ?? {}).some((rule) => {
    const k = rule.parts[0]?.part === 'tool-call' ? rule.parts[0].fields.kind : undefined;
    return k !== undefined && 'value' in k && k.value === kind;
  });
}

function withItem(adapter: ProviderAdapter, call: ToolCall, itemId: string): ToolCall {
  const kinds = adapter.profile.parts?.kinds ?? {};
  for (const [type, rule] of Object.entries(kinds)) {
    const r = rule.parts[0];
    const kind = r?.fields.kind;
    if (r?.part !== 'tool-call' || kind === undefined || !('value' in kind) || kind.value !== call.kind) continue;
    const item: Record<string, unknown> = { type, id: itemId, status: 'completed' };
    const put = (field: string, value: unknown) => {
      const f = r.fields[field];
      if (f !== undefined && Array.isArray(f) && f.length) setPath(item, f[0] as readonly (string | number)[], value);
    };
    put('id', call.id);
    put('name', call.name);
    let input: unknown = call.arguments;
    try {
      input = JSON.parse(call.arguments);
    } catch {
      // kept as the text given
    }
    put('arguments', input);
    return { ...call, wire: item };
  }
  return call;
}
