/**
 * A unified finish reason → the wire's, the finish table read backwards: the first wire value
 * that maps to it, else the value an upgrade starts from (`tool_calls` is OpenAI Responses'
 * `completed` with calls in the turn).
 */
import type { FinishTable } from '../contract/profile.js';
import type { FinishReason } from '../contract/unified-model.js';

export function wireFinish(table: FinishTable, reason: FinishReason | null | undefined): string | undefined {
  if (reason == null) return undefined;
  for (const k in table.map) if (table.map[k] === reason) return k;
  const upgrade = table.upgrades.find((u) => u.to === reason);
  if (upgrade) return wireFinish(table, upgrade.from);
  return reason === table.other ? undefined : wireFinish(table, table.other);
}
