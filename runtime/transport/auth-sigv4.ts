/**
 * SigV4 auth (a unit: specs with `auth.sigv4`): credentials from the client's aws option (or a
 * function asked for them before every attempt), else
 * AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN; the region from the endpoint
 * option the spec names; each attempt signed at its own time. The secret and session token join
 * the redactor. A spec that also names a key variable takes a key when one is given (Bedrock API
 * keys): then nothing is signed.
 */
import type { SigV4AuthUnit } from '../contract/codec.js';
import type { Auth, EndpointView, Redact, Signer } from '../contract/transport.js';
import { RequestError } from '../errors.js';
import type { AwsCredentialsOption, ClientOptions } from '../contract/unified-model.js';
import { untilAborted } from './abort.js';
import { signSigV4 } from './sign-sigv4.js';

export function sigv4Auth(
  adapter: EndpointView,
  options: ClientOptions,
  apiKey: string | undefined,
  env: Record<string, string | undefined> | undefined,
  endpoint: Record<string, string>,
  redact: Redact,
): Auth {
  if (options.getToken) throw new RequestError(adapter.id, 'getToken', `${adapter.id} does not authenticate with access tokens (it signs requests with AWS SigV4: pass aws)`);
  return apiKey === undefined ? { apiKey, sign: signer(adapter, options, env, endpoint, redact) } : { apiKey };
}

function signer(
  adapter: EndpointView,
  options: ClientOptions,
  env: Record<string, string | undefined> | undefined,
  endpoint: Record<string, string>,
  redact: Redact,
): Signer {
  const ep = adapter.endpoint;
  const given = options.aws ?? awsFromEnv(env);
  const { region, service } = ep.auth.sigv4!;
  const scope = { region: endpoint[region] ?? '', service };
  if (!scope.region) throw new RequestError(adapter.id, `endpoint.${region}`, 'SigV4 needs the region');
  const keys = {};
  if (typeof given === 'function') {
    // Asked for before every attempt; what it hands out is scrubbed like a token.
    const signWith = async (url: string, headers: Record<string, string>, body: string) => {
      const c = await given();
      if (!c?.accessKeyId || !c.secretAccessKey) throw new RequestError(adapter.id, 'aws', 'the aws credentials function returned no accessKeyId and secretAccessKey');
      redact.add?.(c.secretAccessKey, true);
      redact.add?.(c.sessionToken, true);
      return signSigV4({ method: 'POST', url, headers, body }, c, scope, new Date(), keys);
    };
    return (url, headers, body, signal) => untilAborted(signWith(url, headers, body), signal);
  }
  const c = given;
  if (!c?.accessKeyId || !c.secretAccessKey) {
    throw new RequestError(
      adapter.id,
      'aws',
      `${adapter.id} signs requests with AWS SigV4: pass createClient(${JSON.stringify(adapter.id)}, { aws: { accessKeyId, secretAccessKey, sessionToken? } }) or set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY${ep.apiKeyEnv ? ` (or a key in ${ep.apiKeyEnv})` : ''}`,
    );
  }
  redact.add?.(c.secretAccessKey);
  redact.add?.(c.sessionToken);
  return (url, headers, body, signal) => untilAborted(signSigV4({ method: 'POST', url, headers, body }, c, scope, new Date(), keys), signal);
}

function awsFromEnv(env: Record<string, string | undefined> | undefined): AwsCredentialsOption | undefined {
  const accessKeyId = env?.AWS_ACCESS_KEY_ID;
  const secretAccessKey = env?.AWS_SECRET_ACCESS_KEY;
  if (!accessKeyId || !secretAccessKey) return undefined;
  return env.AWS_SESSION_TOKEN ? { accessKeyId, secretAccessKey, sessionToken: env.AWS_SESSION_TOKEN } : { accessKeyId, secretAccessKey };
}

sigv4Auth satisfies SigV4AuthUnit;
