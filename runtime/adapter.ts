/**
 * The contract between generated adapters and the runtime. A generated module exports one
 * `ProviderAdapter`; the client, transport and stream code work only through it.
 */
import type { TurnAssembler, TurnRules } from './assemble/turn-assembler.js';
import type { ChatRequest, Warning } from './types.js';

export type CallMode = 'stream' | 'blocking';

export interface BuiltRequest {
  body: Record<string, unknown>;
  /** The model the request asks for (after client defaults). */
  model: string | undefined;
  /** Values for `{placeholders}` in the endpoint path. */
  pathParams: Record<string, string | undefined>;
  warnings: Warning[];
}

export interface EndpointInfo {
  baseUrl: string | undefined;
  /** The user must supply baseUrl (generic compatible servers). */
  baseUrlRequired: boolean;
  path: string;
  streamPath: string | undefined;
  streamQuery: Readonly<Record<string, string>>;
  authHeader: string;
  authScheme: string | undefined;
  apiKeyEnv: string | undefined;
  apiKeyOptional: boolean;
  headers: Readonly<Record<string, string>>;
}

export interface ErrorFields {
  message: string | undefined;
  type: string | undefined;
  code: string | undefined;
}

export interface ProviderAdapter {
  id: string;
  name: string;
  endpoint: EndpointInfo;
  stream: {
    framing: 'sse' | 'ndjson';
    /** A data payload that ends the stream, e.g. `[DONE]`. */
    doneSentinel: string | undefined;
    /** The connection closing after a finish reason is a normal end (no terminal event). */
    endsOnClose: boolean;
  };
  rules: TurnRules;
  buildRequest(req: ChatRequest, mode: CallMode): BuiltRequest;
  readResponse(a: TurnAssembler, body: never): void;
  readEvent(a: TurnAssembler, data: never, event: string | undefined): void;
  readError(body: unknown): ErrorFields;
  isRetryableStatus(status: number): boolean;
  requestIdHeader: string | undefined;
}
