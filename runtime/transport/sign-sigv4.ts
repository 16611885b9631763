/**
 * AWS Signature Version 4 for one request, with Web Crypto (so it runs wherever fetch does:
 * Node, Deno, Bun, workers, browsers). The steps, in docs/wire-facts.md ("AWS SigV4"): a
 * canonical request (method, the path's segments URI-encoded once more, the sorted query, the
 * signed headers, the body's SHA-256), the string to sign over it, a signing key derived from the
 * secret by date, region and service, and the `Authorization` header that names them. The secret
 * and session token are only ever inputs to HMAC and a header; nothing here reports them.
 */

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string | undefined;
}

export interface SigV4Request {
  method: string;
  url: string;
  /** The headers that will be sent (any case); all are signed. */
  headers: Record<string, string>;
  body: string;
}

export interface SigV4Scope {
  region: string;
  service: string;
}

const encoder = new TextEncoder();

/**
 * The headers to add so the request is signed at `now`: x-amz-date, the session token,
 * Authorization. The body's hash is signed but not sent as x-amz-content-sha256 (an S3 header;
 * other services hash the body they receive, so a changed body fails the signature).
 */
/** Headers a proxy or the platform may change on the way (as the AWS SDK leaves them unsigned). */
const UNSIGNED = new Set(['authorization', 'user-agent', 'expect', 'connection', 'transfer-encoding', 'content-length', 'x-amzn-trace-id', 'te', 'upgrade', 'keep-alive', 'proxy-authorization', 'proxy-connection']);

/** The signing key kept between requests of one client while its day, region and service stay the same. */
export interface SigningKeyCache {
  scope?: string;
  /** The access key id it was made for: rotated credentials make a new key. */
  accessKeyId?: string;
  secret?: string;
  key?: Promise<CryptoKey>;
}

export async function signSigV4(request: SigV4Request, credentials: AwsCredentials, scope: SigV4Scope, now = new Date(), keys: SigningKeyCache = {}): Promise<Record<string, string>> {
  const url = new URL(request.url);
  const amzDate = now.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
  const day = amzDate.slice(0, 8);
  const payloadHash = hex(await crypto.subtle.digest('SHA-256', encoder.encode(request.body)));
  const added: Record<string, string> = { 'x-amz-date': amzDate };
  if (credentials.sessionToken) added['x-amz-security-token'] = credentials.sessionToken;

  const headers = new Map<string, string>();
  for (const [k, v] of Object.entries({ ...request.headers, ...added })) {
    const name = k.toLowerCase();
    if (!UNSIGNED.has(name) && !name.startsWith('sec-') && !name.startsWith('proxy-')) headers.set(name, v.trim().replace(/\s+/g, ' '));
  }
  headers.set('host', url.host);
  const names = [...headers.keys()].sort();
  const signedHeaders = names.join(';');
  const canonical = [
    request.method.toUpperCase(),
    canonicalPath(url.pathname),
    canonicalQuery(url.searchParams),
    names.map((n) => `${n}:${headers.get(n)}\n`).join(''),
    signedHeaders,
    payloadHash,
  ].join('\n');
  const credentialScope = `${day}/${scope.region}/${scope.service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, credentialScope, hex(await crypto.subtle.digest('SHA-256', encoder.encode(canonical)))].join('\n');

  const signature = hex(await crypto.subtle.sign('HMAC', await signingKey(keys, credentials, day, scope), encoder.encode(toSign)));
  added.authorization = `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${credentialScope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
  return added;
}

/** Each segment of the (already encoded) path encoded once more, as every service but S3 expects. */
function canonicalPath(path: string): string {
  return path
    .split('/')
    .map((segment) => rfc3986(segment))
    .join('/');
}

function canonicalQuery(params: URLSearchParams): string {
  const pairs: Array<readonly [string, string]> = [];
  params.forEach((v, k) => pairs.push([rfc3986(k), rfc3986(v)]));
  return pairs
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}

/** URI encoding as SigV4 defines it: everything but A–Z a–z 0–9 - _ . ~ is %XX. */
function rfc3986(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * The signing key for a day, region and service, kept (as a CryptoKey) in the client's cache
 * while they stay the same: four HMACs and an import saved on every request.
 */
function signingKey(keys: SigningKeyCache, credentials: AwsCredentials, day: string, scope: SigV4Scope): Promise<CryptoKey> {
  const id = `${day}/${scope.region}/${scope.service}`;
  const secret = credentials.secretAccessKey;
  if (keys.key && keys.scope === id && keys.secret === secret && keys.accessKeyId === credentials.accessKeyId) return keys.key;
  const key = (async () => {
    let k: ArrayBuffer = await hmac(encoder.encode(`AWS4${secret}`), day);
    for (const part of [scope.region, scope.service, 'aws4_request']) k = await hmac(k, part);
    return crypto.subtle.importKey('raw', k, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  })();
  keys.scope = id;
  keys.secret = secret;
  keys.accessKeyId = credentials.accessKeyId;
  keys.key = key;
  key.catch(() => {
    if (keys.key === key) keys.key = undefined;
  });
  return key;
}

async function hmac(key: BufferSource, data: string): Promise<ArrayBuffer> {
  const k = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return crypto.subtle.sign('HMAC', k, encoder.encode(data));
}

function hex(buffer: ArrayBuffer): string {
  const b = new Uint8Array(buffer);
  let out = '';
  for (let i = 0; i < b.length; i++) out += b[i]!.toString(16).padStart(2, '0');
  return out;
}
