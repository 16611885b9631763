/**
 * How requests are authenticated, as the spec's endpoint says: a key in a header (fixed for the
 * client), or, through the units a generated codec supplies, an access token from getToken()
 * (auth-token.ts) or an AWS SigV4 signature (auth-sigv4.ts), both made per attempt. Those units
 * also say what their specs take instead (a static key, a Bedrock API key) and what is missing.
 */
import type { ProviderAdapter } from '../contract/adapter.js';
import type { Auth, EndpointView, Redact } from '../contract/transport.js';
import { quote, RequestError } from '../errors.js';
import type { ClientOptions } from '../contract/unified-model.js';

/** The key the client was given or the environment holds; an empty one is none (a blank line in an env file). */
export const keyOf = (adapter: EndpointView, options: ClientOptions, env: Record<string, string | undefined> | undefined): string | undefined => {
  const ep = adapter.endpoint;
  const key = options.apiKey ?? (ep.apiKeyEnv ? env?.[ep.apiKeyEnv] : undefined);
  return key === '' ? undefined : key;
};

/**
 * Headers to add to one attempt, from its URL, headers and body; settled (rejected with the
 * signal's reason) as soon as the attempt's signal aborts, whatever it waits for.
 */
export const authorize = (
  adapter: ProviderAdapter,
  options: ClientOptions,
  /** The client's apiKey, else the spec's key variable. */
  apiKey: string | undefined,
  env: Record<string, string | undefined> | undefined,
  endpoint: Record<string, string>,
  redact: Redact,
): Auth => {
  const { auth } = adapter.endpoint;
  redact.add?.(apiKey);
  // defineAdapter has checked that the codec supplies the units these specs need.
  if (auth.sigv4) return adapter.codec.uses!.sigv4Auth!(adapter, options, apiKey, env, endpoint, redact);
  if (auth.from === 'token') return adapter.codec.uses!.tokenAuth!(adapter, options, apiKey, redact);
  if (options.getToken) throw new RequestError(adapter.id, 'getToken', `${adapter.id} does not authenticate with access tokens: pass apiKey`);
  if (apiKey === undefined) requireKey(adapter, options, passOption(adapter.id, 'apiKey'), 'apiKey', 'API key');
  return { apiKey };
};

/** How to give the client an option it lacks: `pass createClient("openai-chat", { baseUrl })`. */
export const passOption = (id: string, option: string): string => {
  return `pass createClient(${quote(id)}, { ${option} })`;
};

/** No key where the spec needs one (unless it may go without, or the caller sets the auth header): what to pass. */
export const requireKey = (adapter: EndpointView, options: ClientOptions, how: string, field: string, what: string): void => {
  const ep = adapter.endpoint;
  if (!ep.apiKeyOptional && !options.allowAuthOverride) throw new RequestError(adapter.id, field, `no ${what}: ${how}${ep.apiKeyEnv ? ` or set ${ep.apiKeyEnv}` : ''}`);
};
