/** The `wireforge` command (generator/cli.ts) run once as a real process. */
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cliProject, ROOT } from './helpers.js';

const root = fileURLToPath(ROOT);

describe('wireforge (the CLI, as a process)', () => {
  // The one run of the real command as a process: the entry point runs main, and its exit code
  // and stderr are the process's. (CI runs `pnpm gen` and the packed CLI in a fresh project.)
  it('as a process: a failing command exits non-zero with its message on stderr', { timeout: 60_000 }, () => {
    const dir = cliProject();
    try {
      writeFileSync(join(dir, 'broken.yaml'), 'id: broken\nextends: openai-chat\nfinish: { map: { stop: stopped } }\n');
      const r = spawnSync(join(root, 'node_modules/.bin/tsx'), [join(root, 'generator/cli.ts'), 'validate', 'broken.yaml'], { cwd: dir, encoding: 'utf8', timeout: 50_000 });
      expect(r.status, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/^broken\.yaml:3:\d+ finish-unknown-value /m);
      expect(r.stderr).toContain('1 problem(s) in 1 file(s).');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
