/**
 * The runtime as users ship it to browsers and workers: bundled and minified. A minifier renames
 * classes, so anything read from a class's own name (`error.name`) must not depend on it; the
 * errors keep the names the docs promise (`error.name === 'RateLimitError'`, docs/conformance-cases.md)
 * and their classes, and a client still works from the bundle.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'wireforge-minified-'));
let bundle: Record<string, any>;

beforeAll(async () => {
  const out = await build({
    stdin: { contents: `export * from './runtime/index.js'; export { adapter } from './generated/openai-chat.js';`, resolveDir: root, loader: 'ts', sourcefile: 'entry.ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const file = join(dir, 'bundle.mjs');
  writeFileSync(file, out.outputFiles[0]!.contents);
  bundle = (await import(pathToFileURL(file).href)) as Record<string, any>;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const init = { provider: 'p', message: 'm', retryable: false };
const made: Array<[string, () => Error]> = [
  ['WireforgeError', () => new bundle.WireforgeError('m')],
  ['ProviderError', () => new bundle.ProviderError(init)],
  ...['BadRequestError', 'AuthenticationError', 'PermissionError', 'NotFoundError', 'ConflictError', 'UnprocessableEntityError', 'RateLimitError', 'InternalServerError'].map(
    (name) => [name, () => new bundle[name](init)] as [string, () => Error],
  ),
  ['StreamError', () => new bundle.StreamError({ provider: 'p', reason: 'r' })],
  ['ConnectionError', () => new bundle.ConnectionError('p', 'm', 1, undefined)],
  ['TimeoutError', () => new bundle.TimeoutError('p', 'idle', 1)],
  ['RequestError', () => new bundle.RequestError('p', 'f', 'm')],
  ['ToolArgumentsError', () => new bundle.ToolArgumentsError({ toolName: 't', callId: 'c', arguments: '{', errors: [] })],
  ['UnknownToolError', () => new bundle.UnknownToolError('t', 'c', [])],
  ['ToolExecutionError', () => new bundle.ToolExecutionError('t', 'c', new Error('x'))],
];

describe('the runtime bundled and minified', () => {
  it.each(made)('%s keeps its name and its classes', (name, make) => {
    const error = make();
    expect(error.name).toBe(name);
    expect(error).toBeInstanceOf(bundle[name]);
    expect(error).toBeInstanceOf(bundle.WireforgeError);
    expect(String(error)).toMatch(new RegExp(`^${name}: `));
  });

  it('providerErrorFor picks the class by status, named as the docs say', () => {
    expect(bundle.providerErrorFor({ ...init, status: 429 }).name).toBe('RateLimitError');
    expect(bundle.providerErrorFor({ ...init, status: 503 }).name).toBe('InternalServerError');
  });

  it('a request that is not one is refused by name from the bundle too', async () => {
    const client = bundle.createClientFor(bundle.adapter, { apiKey: 'k-0000000000', fetch: () => Promise.reject(new Error('not sent')) });
    const error = await client.chat({ messages: [{ role: 'usr', content: 'hi' }] }).catch((e: unknown) => e);
    expect((error as Error).name).toBe('RequestError');
    expect((error as { field: string }).field).toBe('messages[0].role');
  });
});
