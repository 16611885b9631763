/** The runtime's SigV4 (Web Crypto) against the AWS SDK's signer, over requests of every shape Bedrock gets. */
import { describe, expect, it } from 'vitest';
import { signSigV4, type AwsCredentials } from '../../runtime/transport/sign-sigv4.js';
import { expectedAuthorization } from '../helpers/sigv4-oracle.js';

const credentials: AwsCredentials = { accessKeyId: 'AKIDEXAMPLE0000', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
const at = new Date(Date.UTC(2026, 11, 1, 12, 34, 56));

async function both(url: string, body: string, creds: AwsCredentials, headers: Record<string, string> = { 'content-type': 'application/json' }) {
  const added = await signSigV4({ method: 'POST', url, headers, body }, creds, { region: 'us-east-1', service: 'bedrock' }, at);
  const u = new URL(url);
  const received = { method: 'POST', url: `${u.pathname}${u.search}`, headers: { ...lower(headers), ...added, host: u.host }, body };
  return { ours: added.authorization, sdk: await expectedAuthorization(received, creds, 'us-east-1', 'bedrock'), added };
}

const lower = (h: Record<string, string>) => Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));

describe('SigV4', () => {
  const cases: Array<[string, string, string]> = [
    ['a Converse call', 'https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/converse', '{"messages":[{"role":"user","content":[{"text":"Hi"}]}]}'],
    ['a model id with a raw colon', 'http://127.0.0.1:8080/model/amazon.nova-pro-v1:0/converse-stream', '{"messages":[]}'],
    ['a query string, unsorted and with reserved characters', 'http://127.0.0.1:8080/model/m/invoke?z=1&a=b%20c&a=a&x=%2A', '{}'],
    ['a body with non-ASCII text', 'http://127.0.0.1:8080/model/m/invoke', JSON.stringify({ text: 'Grüße, 世界 🌍' })],
    ['an empty body', 'http://127.0.0.1:8080/model/m/invoke', ''],
  ];
  it.each(cases)('%s: the same Authorization as the AWS SDK', async (_name, url, body) => {
    const r = await both(url, body, credentials);
    expect(r.ours).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE0000\/20261201\/us-east-1\/bedrock\/aws4_request, SignedHeaders=[a-z0-9;-]+, Signature=[0-9a-f]{64}$/);
    expect(r.ours).toBe(r.sdk);
  });

  it('signs content-type, host and x-amz-date; leaves out what a proxy or the platform may change (user-agent, connection, sec-*)', async () => {
    const r = await both(cases[0]![1], cases[0]![2], credentials, { 'content-type': 'application/json', 'user-agent': 'my-app/1.0', connection: 'keep-alive', 'sec-fetch-mode': 'cors', 'x-custom': 'v' });
    expect(r.ours).toContain('SignedHeaders=content-type;host;x-amz-date;x-custom,');
    expect(r.ours).toBe(r.sdk);
  });

  it('a session token is sent and signed', async () => {
    const r = await both(cases[0]![1], cases[0]![2], { ...credentials, sessionToken: 'FwoGZXIvYXdzEXAMPLETOKEN//+=' });
    expect(r.added['x-amz-security-token']).toBe('FwoGZXIvYXdzEXAMPLETOKEN//+=');
    expect(r.ours).toContain('x-amz-security-token');
    expect(r.ours).toBe(r.sdk);
  });

  it('a different secret, body or date gives a different signature (what the server checks)', async () => {
    const base = await both(cases[0]![1], cases[0]![2], credentials);
    const otherSecret = await both(cases[0]![1], cases[0]![2], { ...credentials, secretAccessKey: 'x' });
    const otherBody = await both(cases[0]![1], `${cases[0]![2]} `, credentials);
    expect(new Set([base.ours, otherSecret.ours, otherBody.ours]).size).toBe(3);
  });
});
