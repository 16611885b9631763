/**
 * The `wireforge` command run in this process: its main with a folder of its own and captured
 * output, instead of a child process per command (no tsx start-up, no module loading per call).
 */
import { main } from '../../generator/cli.js';

export interface CliRun {
  status: number;
  stdout: string;
  stderr: string;
}

export async function runCli(cwd: string, ...argv: string[]): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const status = await main(argv, { cwd, out: (s) => out.push(s), err: (s) => err.push(s), color: false, untilStopped: () => new Promise<void>(() => {}) });
  return { status, stdout: out.map((s) => `${s}\n`).join(''), stderr: err.map((s) => `${s}\n`).join('') };
}

/** A long-running command (`serve`, `gateway`) in this process: its output so far, and how to stop it. */
export interface RunningCli {
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code once the command has returned (after stop(), or on a failure). */
  done: Promise<number>;
  stop(): Promise<number>;
}

export function startCli(cwd: string, ...argv: string[]): RunningCli {
  const out: string[] = [];
  const err: string[] = [];
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const done = main(argv, { cwd, out: (s) => out.push(s), err: (s) => err.push(s), color: false, untilStopped: () => stopped });
  return {
    stdout: () => out.map((s) => `${s}\n`).join(''),
    stderr: () => err.map((s) => `${s}\n`).join(''),
    done,
    stop: () => {
      stop();
      return done;
    },
  };
}
