/**
 * Everything generated adapters import, in one place: the surface the generator targets.
 * Handwritten behaviour lives behind these names; generated code only calls them.
 */
import { RequestError } from './errors.js';
import type { ToolChoice } from './types.js';
import type { Warnings } from './request/warnings.js';

export { TurnAssembler, type TurnRules } from './assemble/turn-assembler.js';
export { MessageContext, mergeConsecutive, type BlockTemplates, type PartTemplates } from './request/message-context.js';
export { prepareConversation } from './request/prepare-conversation.js';
export type { Continuity } from './request/apply-continuity.js';
export { finalizeBody } from './request/finalize-body.js';
export { compact, ifSet } from './request/compact.js';
export { Warnings } from './request/warnings.js';
export type { BuiltRequest, CallMode, EndpointInfo, ErrorFields, ProviderAdapter } from './adapter.js';
export type { ChatRequest, FinishReason, Message, ToolSpec, Usage } from './types.js';
export { RequestError };

/** An array, or nothing to iterate (wire data may omit or mistype it). */
export function list(v: unknown): readonly any[] {
  return Array.isArray(v) ? v : [];
}

/** The first string (or number, as text) among candidate values. */
export function firstString(...values: unknown[]): string | undefined {
  for (const v of values) {
    if (typeof v === 'string') return v;
    if (typeof v === 'number') return String(v);
  }
  return undefined;
}

/** A number from the wire, or 0 when absent. */
export function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

/** A number when the wire has one, else undefined. */
export function optNum(...values: unknown[]): number | undefined {
  let sum: number | undefined;
  for (const v of values) if (typeof v === 'number' && Number.isFinite(v)) sum = (sum ?? 0) + v;
  return sum;
}

/** Unified value → wire value through a spec table; a value the table lacks is reported. */
export function lookup(value: unknown, table: Record<string, unknown>, w: Warnings, field: string): unknown {
  if (value === undefined) return undefined;
  const k = String(value);
  if (Object.prototype.hasOwnProperty.call(table, k)) return table[k] === '$nothing' ? undefined : table[k];
  return w.drop(field, `${JSON.stringify(value)} has no equivalent for this provider`);
}

export function toolChoiceKind(choice: ToolChoice | undefined): 'auto' | 'none' | 'required' | 'named' | undefined {
  if (choice === undefined) return undefined;
  if (typeof choice === 'object') return 'named';
  if (choice === 'auto' || choice === 'none' || choice === 'required') return choice;
  throw new RequestError('request', 'toolChoice', `unknown tool choice ${JSON.stringify(choice)}`);
}

/** Finish-reason lookup shared by every adapter: table, fallback, then declared upgrades. */
export function mapFinish(
  raw: string,
  table: Readonly<Record<string, string>>,
  other: string,
  upgrades: ReadonlyArray<{ from: string; when: 'toolCalls' | 'refusal'; to: string }>,
  facts: { toolCalls: boolean; refusal: boolean },
): string {
  let v = Object.prototype.hasOwnProperty.call(table, raw) ? table[raw]! : other;
  for (const u of upgrades) if (v === u.from && facts[u.when]) v = u.to;
  return v;
}

/** Status codes a spec lists as retryable: single codes and ranges. */
export function statusIn(status: number, codes: readonly number[], ranges: ReadonlyArray<readonly [number, number]>): boolean {
  return codes.includes(status) || ranges.some(([lo, hi]) => status >= lo && status <= hi);
}

/** Empty for a `$when` template condition: undefined, null, '' or []. */
export function isEmpty(v: unknown): boolean {
  return v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
}

/** An array without the items that vanished. */
export function present<T>(items: Array<T | undefined>): T[] {
  const out: T[] = [];
  for (const i of items) if (i !== undefined) out.push(i);
  return out;
}

/**
 * Wire messages in order, where one message may have become several top-level items (a role
 * written as a bare `$blocks`, as Responses `input` items) and some none. A loop, not flatMap:
 * this runs on every request and flatMap costs about a microsecond here.
 */
export function spreadItems(mapped: unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const m of mapped) {
    if (Array.isArray(m)) for (const item of m) out.push(item);
    else if (m !== undefined) out.push(m);
  }
  return out;
}
