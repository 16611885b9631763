/**
 * What a test client needs beyond a key for specs that declare more: a value for every endpoint
 * option without a default, an access token for token specs, AWS credentials for SigV4 specs.
 * Values are made up; loopback servers that check auth know them.
 */
import type { ClientOptions, ProviderAdapter } from '../../runtime/index.js';

export const TEST_TOKEN = 'ya29.test-access-token-0123456789';
export const TEST_AWS = { accessKeyId: 'AKIDTESTWIREFORGE01', secretAccessKey: 'test/Secret+Access/Key0123456789abcdef' };

export function accessFor(adapter: ProviderAdapter): Partial<ClientOptions> {
  const ep = adapter.endpoint;
  const out: Partial<ClientOptions> = {};
  const endpoint: Record<string, string> = {};
  for (const [name, o] of Object.entries(ep.options ?? {})) if (o.default === undefined) endpoint[name] = name === 'region' ? 'us-east-1' : `test-${name.toLowerCase()}`;
  if (Object.keys(endpoint).length) out.endpoint = endpoint;
  if (ep.auth.from === 'token') out.getToken = async () => TEST_TOKEN;
  if (ep.auth.sigv4) out.aws = TEST_AWS;
  return out;
}
