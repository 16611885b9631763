/**
 * Overlays hold only their differences (docs/architecture.md): an overlay's generated module
 * stays within 120 lines, so an emitter change that copies a base's readers or objects into its
 * overlays again fails here the day it lands. The overlays are found from the specs themselves
 * (every spec with `extends`), so a new one is held to the bound too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const BOUND = 120;
/**
 * Overlays whose own protocol is longer than the bound, at their size today: each is its own
 * content, no copy of its base (OpenRouter: reasoning_details read, written back and served, its
 * encrypted detail included).
 */
const OWN_CONTENT: Record<string, number> = { openrouter: 168 };

const overlays = readdirSync(join(root, 'specs'))
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => parse(readFileSync(join(root, 'specs', f), 'utf8')) as { id: string; extends?: string })
  .filter((d) => d.extends !== undefined)
  .map((d) => d.id);

it('every overlay module stays within its bound', () => {
  expect(overlays.length).toBeGreaterThan(10);
  const over = overlays.flatMap((id) => {
    const lines = readFileSync(join(root, 'generated', `${id}.ts`), 'utf8').split('\n').length - 1;
    const bound = OWN_CONTENT[id] ?? BOUND;
    return lines > bound ? [`${id}: ${lines} lines (bound ${bound})`] : [];
  });
  expect(over).toEqual([]);
});
