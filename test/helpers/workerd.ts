/**
 * Real workerd for tests: writes a capnp config that serves one ES-module Worker on 127.0.0.1
 * (port chosen by workerd, read back from its control descriptor), with text bindings and an
 * outbound network that may reach loopback only, and stops it again.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile, copyFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface Workerd {
  url: string;
  /** What workerd wrote to stderr (its logs, uncaught errors of the Worker). */
  log: () => string;
  close: () => Promise<void>;
}

/** The workerd binary the `workerd` package installed for this platform (not its Node shim: it would not pass the control descriptor on). */
export function workerdBinary(): string {
  const require = createRequire(import.meta.url);
  const fromPackage = createRequire(require.resolve('workerd/package.json'));
  const arch = process.arch === 'x64' ? '64' : process.arch;
  return fromPackage.resolve(`@cloudflare/workerd-${process.platform}-${arch}/bin/workerd`);
}

/** A capnp string literal: the values are the test's own, but quotes and backslashes are escaped all the same. */
const capnpText = (s: string): string => JSON.stringify(s);

export function workerdConfig(opts: { module: string; bindings: Record<string, string>; compatibilityDate: string }): string {
  const bindings = Object.entries(opts.bindings).map(([name, text]) => `(name = ${capnpText(name)}, text = ${capnpText(text)})`);
  return `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    # fetch() from the Worker reaches loopback (the test's upstream mocks) and nothing else.
    (name = "loopback", network = (allow = ["local"])),
  ],
  sockets = [(name = "http", address = "127.0.0.1:0", http = (), service = "main")],
);

const worker :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed ${capnpText(opts.module)})],
  compatibilityDate = ${capnpText(opts.compatibilityDate)},
  bindings = [${bindings.join(', ')}],
  globalOutbound = "loopback",
);
`;
}

/** Starts workerd on a bundled Worker module; resolves once its socket listens. */
export async function startWorkerd(opts: { module: string; bindings: Record<string, string>; compatibilityDate: string; timeoutMs?: number }): Promise<Workerd> {
  const dir = await mkdtemp(path.join(tmpdir(), 'wireforge-workerd-'));
  await copyFile(opts.module, path.join(dir, 'worker.js'));
  await writeFile(path.join(dir, 'config.capnp'), workerdConfig({ ...opts, module: 'worker.js' }));
  // fd 3 is the control descriptor: workerd writes {"event":"listen","socket":"http","port":N} there.
  const child: ChildProcess = spawn(workerdBinary(), ['serve', path.join(dir, 'config.capnp'), '--control-fd=3'], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGTERM');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`workerd did not listen within ${opts.timeoutMs ?? 10_000} ms:\n${stderr}`)), opts.timeoutMs ?? 10_000);
      let buffered = '';
      (child.stdio[3] as NodeJS.ReadableStream).setEncoding('utf8');
      (child.stdio[3] as NodeJS.ReadableStream).on('data', (d: string) => {
        buffered += d;
        for (const line of buffered.split('\n').slice(0, -1)) {
          const msg = JSON.parse(line) as { event?: string; socket?: string; port?: number };
          if (msg.event === 'listen' && msg.socket === 'http' && msg.port) (clearTimeout(timer), resolve(msg.port));
        }
        buffered = buffered.slice(buffered.lastIndexOf('\n') + 1);
      });
      child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`workerd exited with ${code}:\n${stderr}`))));
    });
    return { url: `http://127.0.0.1:${port}`, log: () => stderr, close: stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
