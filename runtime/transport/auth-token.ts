/**
 * Token auth (a unit: specs with `auth.from: token`): an access token from the client's
 * getToken(), asked for before every attempt, so a refreshed token is used on a retry. Each token
 * joins the redactor before anything can quote it (the last few are kept there).
 */
import type { ProviderAdapter } from '../adapter.js';
import { WireforgeError } from '../errors.js';
import type { Signer } from './authorize.js';
import type { Redact } from './redact.js';

export function tokenAuth(adapter: ProviderAdapter, getToken: () => string | Promise<string>, redact: Redact): Signer {
  const ep = adapter.endpoint;
  return async () => {
    let token: unknown;
    try {
      token = await getToken();
    } catch (error) {
      throw new WireforgeError(`${adapter.id}: getToken() failed: ${redact(error instanceof Error ? error.message : String(error))}`, { provider: adapter.id });
    }
    if (typeof token !== 'string' || token === '') throw new WireforgeError(`${adapter.id}: getToken() returned no token`, { provider: adapter.id });
    redact.add?.(token, true);
    return { [ep.authHeader]: ep.authScheme ? `${ep.authScheme} ${token}` : token };
  };
}
