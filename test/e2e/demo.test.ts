/**
 * `pnpm demo` as a user runs it, in a child process: it ends well, Node prints no warning (a
 * listener leak or a deprecation would land in the middle of the output), and the parts that show
 * the difference are there: a line per spec, the turn moved across providers with its warnings,
 * the 429 retried, the OpenAI SDK through the gateway.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { adapters } from '../../generated/index.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

function runDemo(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(join(root, 'node_modules/.bin/tsx'), [join(root, 'examples/demo.ts'), ...args], { cwd: root, env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('pnpm demo', () => {
  it('runs offline without a Node warning: a line per spec, the three showcases; --verbose streams', async () => {
    // Both runs at once: each is mostly tsx starting up.
    const [plain, verbose] = await Promise.all([runDemo(), runDemo('--verbose')]);
    const { code, stdout, stderr } = plain;
    expect(stderr).not.toMatch(/Warning/);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const ids = Object.keys(adapters);
    for (const id of ids) expect(stdout).toMatch(new RegExp(`^✓ ${id} +get_weather\\(\\{"city":"Oslo"\\}\\) → It is 4 °C and cloudy in Oslo\\.`, 'm'));
    // The Anthropic signature is not sent to another provider, and the demo shows that it was not.
    expect(stdout).toMatch(/gemini +Lagos: about 31 °C against 4 °C\.\n +warning messages\[1\]\.thinking: .*anthropic-messages.*not sent/);
    expect(stdout).toMatch(/openai-chat +Lagos: about 31 °C against 4 °C\.\n(?: +warning .*\n)* +warning messages\[1\]\.thinking: /);
    expect(stdout).toMatch(/attempt 2: Answered on the second attempt\. \(2 requests, 1\.\d s\)/);
    expect(stdout).toContain('The official OpenAI SDK → gateway (listens: openai-chat) → Anthropic Messages mock');
    expect(stdout).toContain('It is 22 °C and sunny in Lima.');
    expect(stdout).toContain(`${ids.length} specs served and talked to`);

    expect(verbose.stderr).toBe('');
    expect(verbose.code).toBe(0);
    expect(verbose.stdout).toMatch(/anthropic-messages \(Anthropic Messages\)\n {2}thinking: I should look up Oslo\./);
    expect(verbose.stdout).toContain('2 model calls, usage: 104 in / 23 out, 2 requests decoded by the mock');
  }, 60_000);
});
