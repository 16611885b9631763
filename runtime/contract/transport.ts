/**
 * What the client, transport and framing units agree on: the narrow views of an adapter the
 * small units read, the auth a client makes, and the redactor every error text passes through.
 */
import type { EndpointInfo, StreamProfile } from './profile.js';

/** What endpoint and auth units read of an adapter. */
export interface EndpointView {
  readonly id: string;
  readonly endpoint: EndpointInfo;
}

/** What stream decoders read of an adapter. */
export interface StreamView {
  readonly id: string;
  readonly stream: StreamProfile;
}

export type Signer = (url: string, headers: Record<string, string>, body: string, signal: AbortSignal) => Promise<Record<string, string>>;

export interface Auth {
  /** The key for the spec's auth header (fixed per client). */
  apiKey: string | undefined;
  sign?: Signer;
}

/** Scrubs the client's secrets from a value (error texts and bodies). */
export type Redact = (<T>(value: T) => T) & {
  /** Scrub this value too from now on; a `transient` one (a token fetched per request) only while it is among the last few. */
  add?: (secret: string | undefined, transient?: boolean) => void;
};
