/**
 * A loopback stand-in for Bedrock's front door: every request's SigV4 signature is recomputed by
 * the AWS SDK's signer with the secret the server knows (so a wrong secret or a changed body is
 * refused), its time must be within five minutes, and a refusal is Bedrock's 403 shape. What
 * passes goes to the test's reply. The client's fetch is a forwarding fetch (the host it signed
 * arrives as x-original-host).
 */
import { forwardingFetch } from './forwarding-fetch.js';
import { startLoopbackServer, type LoopbackServer, type RecordedRequest, type ScriptedResponse } from './loopback-server.js';
import { expectedAuthorization } from './sigv4-oracle.js';

export const AWS = { accessKeyId: 'AKIDLOOPBACKTEST0001', secretAccessKey: 'loopback/Secret+Key/0123456789abcdefghij' };

/** Real wall-clock time, whatever Date says (a test may move the client's clock). */
export const realNow = (): number => performance.timeOrigin + performance.now();

function denied(message: string): ScriptedResponse {
  return {
    status: 403,
    headers: { 'content-type': 'application/json', 'x-amzn-errortype': 'InvalidSignatureException:http://internal.amazon.com/coral/com.amazon.coral.service/', 'x-amzn-requestid': 'req-403-1' },
    body: JSON.stringify({ message }),
  };
}

/** What Bedrock checks before it reads a body: the signature and its time. */
async function verify(req: RecordedRequest): Promise<ScriptedResponse | undefined> {
  const date = String(req.headers['x-amz-date'] ?? '');
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(date);
  if (!m) return denied('Missing Authentication Token');
  const at = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!);
  if (Math.abs(realNow() - at) > 5 * 60_000) return denied(`Signature expired: ${date} is now earlier than the allowed window (5 min.)`);
  const headers = { ...req.headers, host: req.headers['x-original-host'] ?? req.headers.host };
  const want = await expectedAuthorization({ method: req.method, url: req.url, headers, body: req.rawBody }, AWS, 'us-east-1', 'bedrock');
  if (req.headers.authorization !== want) return denied('The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.');
  return undefined;
}

export async function bedrockServer(reply: (req: RecordedRequest, index: number) => ScriptedResponse): Promise<{ server: LoopbackServer; urls: string[]; fetch: typeof fetch }> {
  let n = 0;
  const server = await startLoopbackServer(async (req) => (await verify(req)) ?? reply(req, n++));
  return { server, ...forwardingFetch(server) };
}
