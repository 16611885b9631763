/**
 * How requests are authenticated, as the spec's endpoint says: a key in a header (fixed for the
 * client), an access token from the client's getToken() (asked for before every attempt), or an
 * AWS SigV4 signature (computed per attempt: the date is part of it). A SigV4 spec that also
 * names a key variable takes a key when one is given (Bedrock API keys). Every secret joins the
 * redactor before anything can quote it.
 */
import type { ProviderAdapter } from '../adapter.js';
import { missingUse } from '../codec.js';
import { RequestError, WireforgeError } from '../errors.js';
import type { ClientOptions } from '../types.js';
import type { Redact } from './redact.js';

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
  env: Record<string, string | undefined> | undefined,
  endpoint: Record<string, string>,
  redact: Redact,
): Auth {
  const ep = adapter.endpoint;
  const id = JSON.stringify(adapter.id);
  const apiKey = options.apiKey ?? (ep.apiKeyEnv ? env?.[ep.apiKeyEnv] : undefined);
  redact.add?.(apiKey);
  if (ep.sigv4 && apiKey === undefined) {
    const c = options.aws ?? awsFromEnv(env);
    if (!c?.accessKeyId || !c.secretAccessKey) {
      throw new RequestError(adapter.id, 'aws', `${adapter.id} signs requests with AWS SigV4: pass createClient(${id}, { aws: { accessKeyId, secretAccessKey, sessionToken? } }) or set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY${ep.apiKeyEnv ? ` (or a key in ${ep.apiKeyEnv})` : ''}`);
    }
    redact.add?.(c.secretAccessKey);
    redact.add?.(c.sessionToken);
    const sign = adapter.codec.uses?.sigv4 ?? missingUse(adapter.id, 'sigv4', 'signs requests with AWS SigV4');
    const scope = { region: endpoint[ep.sigv4.region] ?? '', service: ep.sigv4.service };
    if (!scope.region) throw new RequestError(adapter.id, `endpoint.${ep.sigv4.region}`, 'SigV4 needs the region');
    return { apiKey: undefined, sign: (url, headers, body) => sign({ method: 'POST', url, headers, body }, c, scope) };
  }
  if (ep.authFrom === 'token' && options.getToken) {
    const getToken = options.getToken;
    return {
      apiKey: undefined,
      sign: async () => {
        let token: unknown;
        try {
          token = await getToken();
        } catch (error) {
          throw new WireforgeError(`${adapter.id}: getToken() failed: ${redact(error instanceof Error ? error.message : String(error))}`, { provider: adapter.id });
        }
        if (typeof token !== 'string' || token === '') throw new WireforgeError(`${adapter.id}: getToken() returned no token`, { provider: adapter.id });
        redact.add?.(token);
        return { [ep.authHeader]: ep.authScheme ? `${ep.authScheme} ${token}` : token };
      },
    };
  }
  if (apiKey === undefined && !ep.apiKeyOptional && !options.allowAuthOverride) {
    const how = ep.authFrom === 'token' ? `pass createClient(${id}, { getToken }) (an access token, asked for before each request) or a static apiKey` : `pass createClient(${id}, { apiKey })`;
    throw new RequestError(adapter.id, ep.authFrom === 'token' ? 'getToken' : 'apiKey', `no ${ep.authFrom === 'token' ? 'access token' : 'API key'}: ${how}${ep.apiKeyEnv ? ` or set ${ep.apiKeyEnv}` : ''}`);
  }
  return { apiKey };
}

function awsFromEnv(env: Record<string, string | undefined> | undefined): ClientOptions['aws'] | undefined {
  const accessKeyId = env?.AWS_ACCESS_KEY_ID;
  const secretAccessKey = env?.AWS_SECRET_ACCESS_KEY;
  if (!accessKeyId || !secretAccessKey) return undefined;
  return env.AWS_SESSION_TOKEN ? { accessKeyId, secretAccessKey, sessionToken: env.AWS_SESSION_TOKEN } : { accessKeyId, secretAccessKey };
}
