/**
 * `wireforge serve` and `wireforge gateway`: the server side (docs/serving.md) from the command
 * line. They load the runtime package's Node entry (`wireforge/serve/node`) from the project, or
 * this repository's own when run from its source, and run until interrupted. An id is a built-in
 * spec's or one of the project's own (own-specs.ts): the same ids `createClient` takes.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as NodeServe from '../node/index.js';
import type { RuntimeLocation } from './locate-runtime.js';

type Say = (s: string) => void;

/** A spec's generated exports, as the server side takes them. */
type ServedSpec = Exclude<NodeServe.MockServerOptions['provider'], string>;

/** Finds a spec by id: the project's own, or a built-in one by its id; throws naming both lists. */
export type SpecLookup = (id: string, role?: string) => ServedSpec | string;

/** The Node entry of the server side: the installed package's, or this repository's source. */
async function nodeEntry(cwd: string, runtime: RuntimeLocation): Promise<typeof NodeServe> {
  if (runtime.version === 'source') return (await import(pathToFileURL(join(runtime.specsDir, '../node/index.ts')).href)) as typeof NodeServe;
  const file = createRequire(join(cwd, 'package.json')).resolve('wireforge/serve/node');
  return (await import(pathToFileURL(file).href)) as typeof NodeServe;
}

export interface ServeArgs {
  ids: string[];
  port?: number;
  script?: string;
  key?: string;
  /** CORS for browsers: any origin, or these. */
  cors?: true | string[];
  /** Upstream retries (default 0: the caller's SDK retries) and first-byte timeout. */
  maxRetries?: number;
  timeoutMs?: number;
  /** Largest request body, in bytes (default 4 MiB). */
  bodyLimit?: number;
}

export async function serveCommand(cwd: string, runtime: RuntimeLocation, args: ServeArgs, say: Say, lookup: SpecLookup): Promise<() => Promise<void>> {
  const specs = args.ids.map((id) => lookup(id));
  const { createMockServer } = await nodeEntry(cwd, runtime);
  const script = args.script === undefined ? undefined : (JSON.parse(readFileSync(join(cwd, args.script), 'utf8')) as NodeServe.MockServerOptions['script']);
  const servers: NodeServe.MockServer[] = [];
  for (const [i, id] of args.ids.entries()) {
    const server = await createMockServer({ provider: specs[i]!, ...(script ? { script } : {}), ...(args.key ? { apiKey: args.key } : {}), ...(args.port ? { port: args.port + i } : {}), ...(args.cors ? { cors: args.cors } : {}) });
    servers.push(server);
    say(`${id.padEnd(20)} ${server.url}`);
  }
  say('mock servers on 127.0.0.1; Ctrl-C stops them');
  return async () => void (await Promise.all(servers.map((s) => s.close())));
}

export interface GatewayArgs {
  listen: string;
  upstream: string;
  upstreamUrl?: string;
  host?: string;
  port?: number;
  token?: string;
  insecure?: boolean;
  /** `env` (the upstream spec's key variable, default) or `caller` (the key each caller sends). */
  keyFrom?: string;
  /** CORS for browsers: any origin, or these. */
  cors?: true | string[];
  /** Upstream retries (default 0: the caller's SDK retries) and first-byte timeout. */
  maxRetries?: number;
  timeoutMs?: number;
  /** Largest request body, in bytes (default 4 MiB). */
  bodyLimit?: number;
}

export async function gatewayCommand(cwd: string, runtime: RuntimeLocation, args: GatewayArgs, say: Say, lookup: SpecLookup): Promise<() => Promise<void>> {
  try {
    return await gateway(cwd, runtime, args, say, lookup);
  } catch (e) {
    // The library's advice names its options: on the command line, the variable or the flag.
    if (!(e instanceof Error) || (e as { field?: unknown }).field !== 'apiKey') throw e;
    const env = /\bset (\w+)/.exec(e.message)?.[1];
    throw new Error(`the gateway has no key for ${args.upstream}: ${env ? `set ${env} in its environment, ` : ''}or pass --key-from caller to send each caller's key upstream`);
  }
}

async function gateway(cwd: string, runtime: RuntimeLocation, args: GatewayArgs, say: Say, lookup: SpecLookup): Promise<() => Promise<void>> {
  if (args.keyFrom !== undefined && args.keyFrom !== 'env' && args.keyFrom !== 'caller') throw new Error(`--key-from takes env or caller, not ${JSON.stringify(args.keyFrom)}`);
  const listen = lookup(args.listen, '--listen');
  const upstream = lookup(args.upstream, '--upstream');
  const { startGateway } = await nodeEntry(cwd, runtime);
  const gateway = await startGateway({
    listen,
    upstream: typeof upstream === 'string' ? upstream : upstream.adapter,
    upstreamKey: args.keyFrom === 'caller' ? 'caller' : 'gateway',
    ...(args.host ? { host: args.host } : {}),
    ...(args.port !== undefined ? { port: args.port } : {}),
    ...(args.token ? { clientToken: args.token } : {}),
    ...(args.insecure ? { insecure: true } : {}),
    ...(args.cors ? { cors: args.cors } : {}),
    ...(args.bodyLimit !== undefined ? { bodyLimit: args.bodyLimit } : {}),
    client: {
      ...(args.upstreamUrl ? { baseUrl: args.upstreamUrl } : {}),
      ...(args.maxRetries !== undefined ? { maxRetries: args.maxRetries } : {}),
      ...(args.timeoutMs !== undefined ? { timeoutMs: args.timeoutMs } : {}),
    },
  });
  say(`gateway ${gateway.url}: ${args.listen} in, ${args.upstream} out${args.upstreamUrl ? ` (${args.upstreamUrl})` : ''}; Ctrl-C stops it`);
  return gateway.close;
}

export interface GatewayConfigArgs {
  /** The config file as the user named it (for the diagnostics). */
  file: string;
  /** The config, read (cli.ts reads the YAML with the spec loader). */
  doc: unknown;
  /** The line and column of a JSON pointer in the file (of its key, for an unknown key). */
  locate(pointer: string, key: boolean): { line: number; col: number };
  host?: string;
  port?: number;
  insecure?: boolean;
}

/**
 * `wireforge gateway --config FILE`: the config checked whole by the runtime, each problem
 * printed as `file:line:col code message (at /pointer); hint`, the layout of a spec's diagnostics.
 */
export async function gatewayConfigCommand(cwd: string, runtime: RuntimeLocation, args: GatewayConfigArgs, say: Say, lookup: SpecLookup & { own: Map<string, ServedSpec> }): Promise<() => Promise<void>> {
  const { file } = args;
  const node = await nodeEntry(cwd, runtime);
  const specs = { ...node.builtInSpecs(), ...Object.fromEntries(lookup.own) };
  const problems = node.checkGatewayConfig(args.doc, { specs, env: process.env });
  if (problems.length) {
    const lines = problems.map((p) => {
      const at = args.locate(p.pointer, p.code === 'unknown-key');
      return `${file}:${at.line}:${at.col} ${p.code} ${p.message} (at ${p.pointer || '/'})${p.hint ? `; ${p.hint}` : ''}`;
    });
    throw new Error(`${file}: ${problems.length} problem${problems.length === 1 ? '' : 's'}\n${lines.join('\n')}`);
  }
  const config = args.doc as NodeServe.GatewayConfigServerOptions;
  const gateway = await node.startGateway({ ...config, specs, ...(args.host ? { host: args.host } : {}), ...(args.port !== undefined ? { port: args.port } : {}), ...(args.insecure ? { insecure: true } : {}) });
  const listen = typeof config.listen === 'string' ? [config.listen] : config.listen;
  for (const l of listen) {
    const entry = typeof l === 'string' ? { spec: l } : l;
    say(`${String(typeof entry.spec === 'string' ? entry.spec : entry.spec.adapter.id).padEnd(20)} ${gateway.url}${entry.path ?? ''}`);
  }
  say(`gateway: ${config.routes.length} route${config.routes.length === 1 ? '' : 's'} from ${file}; Ctrl-C stops it`);
  return gateway.close;
}
