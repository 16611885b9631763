/**
 * SigV4 as the AWS SDK computes it (its signer, a dev dependency): the oracle that loopback
 * servers use to verify what the runtime signed, as a real AWS endpoint would.
 */
import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';
import type { AwsCredentials } from '../../runtime/transport/sign-sigv4.js';

export interface ReceivedRequest {
  method: string;
  /** Path and query as they arrived (`req.url`). */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** The Authorization header the SDK's signer gives for this request, signing the headers the request says it signed. */
export async function expectedAuthorization(req: ReceivedRequest, credentials: AwsCredentials, region: string, service: string): Promise<string | undefined> {
  const auth = String(req.headers.authorization ?? '');
  const signed = /SignedHeaders=([^,]+)/.exec(auth)?.[1]?.split(';');
  const amzDate = String(req.headers['x-amz-date'] ?? '');
  const at = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
  if (!signed || !at) return undefined;
  const date = new Date(Date.UTC(+at[1]!, +at[2]! - 1, +at[3]!, +at[4]!, +at[5]!, +at[6]!));
  const u = new URL(req.url, 'http://placeholder');
  const query: Record<string, string | string[]> = {};
  for (const [k, v] of u.searchParams) {
    const had = query[k];
    query[k] = had === undefined ? v : [...[had].flat(), v];
  }
  const headers: Record<string, string> = {};
  for (const name of signed) headers[name] = String(req.headers[name] ?? '');
  const signer = new SignatureV4({ credentials, region, service, sha256: Sha256, uriEscapePath: true, applyChecksum: false });
  const out = await signer.sign(
    { method: req.method, protocol: 'http:', hostname: headers.host!.split(':')[0]!, port: Number(headers.host!.split(':')[1] ?? 80), path: req.url.split('?')[0]!, query, headers, body: req.body },
    { signingDate: date },
  );
  return out.headers.authorization;
}
