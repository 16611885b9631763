/**
 * Token auth (a unit: specs with `auth.from: token`): an access token from the client's
 * getToken(), asked for before every attempt, so a refreshed token is used on a retry. Each token
 * joins the redactor before anything can quote it (the last few are kept there). Without
 * getToken, a static apiKey goes in the header as it would for a key spec.
 */
import type { TokenAuthUnit } from '../contract/codec.js';
import type { Auth, EndpointView, Redact } from '../contract/transport.js';
import { WireforgeError } from '../errors.js';
import type { ClientOptions } from '../contract/unified-model.js';
import { untilAborted } from './abort.js';
import { requireKey } from './authorize.js';

export function tokenAuth(adapter: EndpointView, options: ClientOptions, apiKey: string | undefined, redact: Redact): Auth {
  const { header, scheme } = adapter.endpoint.auth;
  const getToken = options.getToken;
  if (!getToken) {
    const id = JSON.stringify(adapter.id);
    if (apiKey === undefined) requireKey(adapter, options, `pass createClient(${id}, { getToken }) (an access token, asked for before each request) or a static apiKey`, 'getToken', 'access token');
    return { apiKey };
  }
  const fetchToken = async () => {
    let token: unknown;
    try {
      token = await getToken();
    } catch (error) {
      throw new WireforgeError(`${adapter.id}: getToken() failed: ${redact(error instanceof Error ? error.message : String(error))}`, { provider: adapter.id });
    }
    if (typeof token !== 'string' || token === '') throw new WireforgeError(`${adapter.id}: getToken() returned no token`, { provider: adapter.id });
    redact.add?.(token, true);
    return { [header]: scheme ? `${scheme} ${token}` : token };
  };
  return { apiKey: undefined, sign: (_url, _headers, _body, signal) => untilAborted(fetchToken(), signal) };
}

tokenAuth satisfies TokenAuthUnit;
