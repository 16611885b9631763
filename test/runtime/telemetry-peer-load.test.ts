/**
 * `@opentelemetry/api` as an optional peer, in a child process of its own (so no test file's module
 * cache or mock is in the way): a resolve hook (test/helpers/otel-peer/hook.mjs) logs every attempt
 * to load it, and can make it fail as a package that is not installed. Without telemetry a client
 * and a gateway never try; with telemetry and the package missing, a client's call is a
 * RequestError on `telemetry` saying what to do, and a gateway serves on without spans, warns once
 * and keeps its usage records.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const here = fileURLToPath(new URL('../helpers/otel-peer/', import.meta.url));

async function run(mode: 'off' | 'missing'): Promise<{ out: Record<string, unknown>; loads: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'wf-otel-'));
  const log = join(dir, 'loads.log');
  try {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--import', join(here, 'register.mjs'), join(here, 'run.ts')], { env: { ...process.env, WF_OTEL: mode, WF_OTEL_LOG: log }, timeout: 60_000 });
    let loads: string[] = [];
    try {
      loads = readFileSync(log, 'utf8').split('\n').filter(Boolean);
    } catch {
      // No log: nothing tried to load it.
    }
    return { out: JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, unknown>, loads };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('@opentelemetry/api, an optional peer, in a process of its own', () => {
  it('without telemetry: a client and a gateway answer, and nothing tries to load it', { timeout: 60_000 }, async () => {
    const { out, loads } = await run('off');
    expect(out.client).toBe('Hi.');
    expect(out.gateway).toEqual([
      [200, 'Hi.'],
      [200, 'Hi.'],
    ]);
    expect(loads).toEqual([]);
  });

  it('with telemetry and the package missing: the client says what to do; the gateway serves, warns once, records', { timeout: 60_000 }, async () => {
    const { out, loads } = await run('missing');
    expect(out.client).toMatchObject({ name: 'RequestError', field: 'telemetry', message: expect.stringMatching(/install it, or pass telemetry: \{ tracer \}/) });
    expect(out.gateway).toEqual([
      [200, 'Hi.'],
      [200, 'Hi.'],
    ]);
    expect(out.warnings).toEqual([expect.stringMatching(/no spans are made/)]);
    expect(out.records).toBe(2);
    expect(loads.length).toBeGreaterThan(0);
  });
});
