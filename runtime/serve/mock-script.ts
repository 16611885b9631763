/** A mock's script: steps matched by request content, each a reply, a fault, or both. docs/serving.md#mock-server. */
import type { MockTurn } from './turn-events.js';

/** Something to go wrong, instead of or during a turn. */
export interface MockFault {
  /** Answer with this HTTP status and the provider's error body. */
  status?: number;
  message?: string;
  /** The provider's error type (default: the spec's type for the status). */
  type?: string;
  code?: string;
  /** Seconds, sent as `retry-after`. */
  retryAfter?: number;
  /** Streamed: after this many events, an error event in the provider's shape, then the end. */
  errorAfter?: number;
  /** Streamed: after this many events, half of the next one, then the connection closes. */
  truncateAfter?: number;
  /** Before the response starts. */
  latencyMs?: number;
  /** Streamed: after the first event, silence for this long. */
  stallMs?: number;
}

/** When a script step answers: every condition given must hold. */
export interface MockMatch {
  /** The last user message's text contains this, or matches it. */
  lastUserText?: string | RegExp;
  /** The request carries a tool result for this call id. */
  toolResultFor?: string;
  model?: string;
  stream?: boolean;
}

export interface MockStep {
  when?: MockMatch;
  reply?: MockTurn;
  fault?: MockFault;
  /** How many requests this step answers (default: any number). */
  times?: number;
}
