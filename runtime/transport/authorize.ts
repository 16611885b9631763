/**
 * How requests are authenticated, as the spec's endpoint says: a key in a header (fixed for the
 * client), or, through the units a generated codec supplies, an access token from getToken()
 * (auth-token.ts) or an AWS SigV4 signature (auth-sigv4.ts), both made per attempt. A SigV4 spec
 * that also names a key variable takes a key when one is given (Bedrock API keys).
 */
import type { ProviderAdapter } from '../adapter.js';
import { missingUse } from '../codec.js';
import { RequestError } from '../errors.js';
import type { ClientOptions } from '../types.js';
import type { Redact } from './redact.js';

/** The key the client was given or the environment holds; an empty one is none (a blank line in an env file). */
export function keyOf(adapter: ProviderAdapter, options: ClientOptions, env: Record<string, string | undefined> | undefined): string | undefined {
  const ep = adapter.endpoint;
  const key = options.apiKey ?? (ep.apiKeyEnv ? env?.[ep.apiKeyEnv] : undefined);
  return key === '' ? undefined : key;
}

/** Headers to add to one attempt, from its URL, headers and body. */
export type Signer = (url: string, headers: Record<string, string>, body: string) => Promise<Record<string, string>>;

export interface Auth {
  /** The key for the spec's auth header (fixed per client). */
  apiKey: string | undefined;
  sign?: Signer;
}

export function authorize(
  adapter: ProviderAdapter,
  options: ClientOptions,
  /** The client's apiKey, else the spec's key variable. */
  apiKey: string | undefined,
  env: Record<string, string | undefined> | undefined,
  endpoint: Record<string, string>,
  redact: Redact,
): Auth {
  const ep = adapter.endpoint;
  const uses = adapter.codec.uses;
  redact.add?.(apiKey);
  if (options.getToken && ep.authFrom !== 'token') {
    throw new RequestError(adapter.id, 'getToken', `${adapter.id} does not authenticate with access tokens${ep.sigv4 ? ' (it signs requests with AWS SigV4: pass aws)' : ': pass apiKey'}`);
  }
  if (ep.sigv4 && apiKey === undefined) {
    return { apiKey, sign: (uses?.sigv4Auth ?? missingUse(adapter.id, 'sigv4Auth', 'signs requests with AWS SigV4'))(adapter, options, env, endpoint, redact) };
  }
  if (ep.authFrom === 'token' && options.getToken) {
    return { apiKey: undefined, sign: (uses?.tokenAuth ?? missingUse(adapter.id, 'tokenAuth', 'sends access tokens'))(adapter, options.getToken, redact) };
  }
  if (apiKey === undefined && !ep.apiKeyOptional && !options.allowAuthOverride) {
    const id = JSON.stringify(adapter.id);
    const token = ep.authFrom === 'token';
    const how = token ? `pass createClient(${id}, { getToken }) (an access token, asked for before each request) or a static apiKey` : `pass createClient(${id}, { apiKey })`;
    throw new RequestError(adapter.id, token ? 'getToken' : 'apiKey', `no ${token ? 'access token' : 'API key'}: ${how}${ep.apiKeyEnv ? ` or set ${ep.apiKeyEnv}` : ''}`);
  }
  return { apiKey };
}
