/**
 * The stream writer writes the turn in the wire's request form (`$message`, a request build) and
 * the whole response body only for the steps that read them: Chat Completions' stream reads
 * neither (its chunks carry deltas and the finish reason), Anthropic's message_start carries the
 * message as it begins. What the finished turn's form cannot carry is still in `warnings`.
 */
import { describe, expect, it } from 'vitest';
import { StreamWriter } from '../../runtime/serve/stream-writer.js';
import { adapters } from '../../generated/index.js';
import { serves } from '../../generated/serve.js';
import type { ServeEvent } from '../../runtime/contract/serve-codec.js';
import type { ProviderAdapter } from '../../runtime/contract/adapter.js';

const TURN: ServeEvent[] = [
  { type: 'start' },
  { type: 'thinking-delta', delta: 'Let me think.' },
  { type: 'thinking-signature', signature: 'sig-1' },
  { type: 'text-delta', delta: 'Hello' },
  { type: 'finish', finishReason: 'stop' },
] as ServeEvent[];

/** The adapter with its request builder counted. */
function counted(id: 'openai-chat' | 'anthropic-messages'): { adapter: ProviderAdapter; builds: () => number } {
  const real = adapters[id] as unknown as ProviderAdapter;
  let n = 0;
  const adapter = { ...real, buildRequest: ((...args: Parameters<ProviderAdapter['buildRequest']>) => (n++, real.buildRequest(...args))) as ProviderAdapter['buildRequest'] };
  return { adapter, builds: () => n };
}

describe('the stream writer and the turn slots', () => {
  it("Chat Completions: no request build for a streamed turn; the finished turn's warnings still there when asked for", () => {
    const { adapter, builds } = counted('openai-chat');
    const w = new StreamWriter(adapter, serves['openai-chat'], { id: 'chatcmpl-1', model: 'gpt-x', created: 1 });
    const events = TURN.flatMap((e) => w.write(e)).concat(w.end());
    // The deltas and the finish chunk as Chat Completions streams them.
    const chunks = events.map((e) => e.data as { choices: Array<{ delta: Record<string, unknown>; finish_reason: string | null }> });
    expect(chunks.map((c) => c.choices[0]?.delta.content).filter((c) => c !== undefined)).toEqual(['', 'Hello']);
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('stop');
    expect(builds()).toBe(0);
    // Chat Completions' assistant message has no place for reasoning.
    expect(w.warnings.map((x) => x.field)).toEqual(['messages[1].thinking']);
    expect(builds()).toBeGreaterThan(0);
    const after = builds();
    expect(w.warnings.map((x) => x.field)).toEqual(['messages[1].thinking']);
    expect(builds()).toBe(after);
  });

  it("Anthropic: message_start carries the message as it begins, message_delta the stop reason", () => {
    const { adapter, builds } = counted('anthropic-messages');
    const w = new StreamWriter(adapter, serves['anthropic-messages'], { id: 'msg_1', model: 'claude-x', created: 1 });
    const events = TURN.flatMap((e) => w.write(e)).concat(w.end());
    const start = events[0]!;
    expect(start.event).toBe('message_start');
    expect(start.data).toMatchObject({ type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-x', content: [], stop_reason: null } });
    expect(builds()).toBeGreaterThan(0);
    expect(events.find((e) => e.event === 'message_delta')!.data).toMatchObject({ type: 'message_delta', delta: { stop_reason: 'end_turn' } });
    expect(events.at(-1)!.event).toBe('message_stop');
    expect(w.warnings).toEqual([]);
  });
});
