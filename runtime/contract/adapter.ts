/**
 * The adapter the client, transport, stream and serve code work through: what `defineAdapter`
 * (runtime/adapter.ts) makes of a generated module's profile and codec.
 */
import type { Assembler, TurnRules } from './assembler.js';
import type { Codec } from './codec.js';
import type { Profile } from './profile.js';
import type { BuiltRequest, CallMode } from './request.js';
import type { EndpointView, StreamView } from './transport.js';
import type { ChatRequest } from './unified-model.js';

export interface ErrorFields {
  message: string | undefined;
  type: string | undefined;
  code: string | undefined;
  /** How long the body says to wait before retrying, in ms. */
  retryDelayMs?: number;
}

export interface ProviderAdapter extends EndpointView, StreamView {
  readonly id: string;
  readonly name: string;
  readonly profile: Profile;
  readonly codec: Codec;
  readonly rules: TurnRules;
  buildRequest(req: ChatRequest, mode: CallMode): BuiltRequest;
  readResponse(a: Assembler, body: never): void;
  readEvent(a: Assembler, data: never, event: string | undefined): void;
  readError(body: unknown): ErrorFields;
  /** Whether an HTTP error with these fields may be retried (status table, then the spec's exceptions). */
  isRetryable(status: number, fields: ErrorFields): boolean;
  readonly requestIdHeader: string | undefined;
}
