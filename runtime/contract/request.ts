/**
 * What the request side's parts agree on: the warnings a request collects, what continuity
 * rules return, what a param step is, and the request an adapter builds.
 */
import type { ChatRequest, Message, Warning } from './unified-model.js';

export type CallMode = 'stream' | 'blocking';

/** Collects what a request could not carry, for ChatResponse.warnings (request/warnings.ts). */
export interface RequestWarnings {
  readonly list: Warning[];
  readonly provider: string;
  /** The wire's name, as warnings say it. */
  readonly wire: string;
  /** Record a field that is set but not sent; returns undefined so callers can `return w.drop(…)`. */
  drop(field: string, message: string): undefined;
  /** `drop` with the message `<wire> has no <what>`. */
  lacks(field: string, what: string): undefined;
  overridden(field: string, message: string): void;
  reject(field: string, message: string): never;
}

export interface ContinuityResult {
  messages: Message[];
  /** Fields the applicable rules add to the body; absent: none. */
  body?: Record<string, unknown>;
  /** The request, less any field a rule says cannot go with this conversation. */
  request: ChatRequest;
  /** Body fields carried from the latest turn of this provider, placed as the body has them (filled in like defaults); absent: none. */
  carried?: Record<string, unknown>;
}

/** What a set param value becomes on the wire; undefined sends nothing. */
export type ParamStep = (v: unknown, req: ChatRequest, w: RequestWarnings) => unknown;

export interface BuiltRequest {
  body: Record<string, unknown>;
  /** The model the request asks for (after client defaults). */
  model: string | undefined;
  /** Values for `{placeholders}` in the endpoint path. */
  pathParams: Record<string, string | undefined>;
  warnings: Warning[];
}
