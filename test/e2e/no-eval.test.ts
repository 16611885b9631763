/**
 * The tool loop, schema validation included, runs where code generation from strings is
 * refused (`node --disallow-code-generation-from-strings`: as Cloudflare Workers, Vercel Edge and
 * strict CSP pages behave). A validator that compiled schemas to code would throw EvalError here.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

describe('no code generation from strings', () => {
  it('runTools validates arguments and runs tools with eval disallowed', () => {
    const script = fileURLToPath(new URL('../helpers/tools-without-eval.ts', import.meta.url));
    const run = spawnSync(process.execPath, ['--disallow-code-generation-from-strings', '--import', 'tsx', script], { encoding: 'utf8', timeout: 30_000 });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const out = JSON.parse(run.stdout) as { text: string; results: Array<{ isError: boolean; content: string }> };
    expect(out.text).toBe('Sunny.');
    expect(out.results[0]!.isError).toBe(true);
    expect(out.results[0]!.content).toContain('required property "city"');
    expect(out.results[1]).toEqual({ isError: false, content: 'sunny in Paris' });
  }, 40_000);
});
