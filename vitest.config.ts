import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// CI asks for a JSON report beside the usual output, to print a plain "N passed, N failed" line.
const report = process.env.WIREFORGE_TEST_REPORT;

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // A test that does heavy work (the generator over every spec, a type-check) says so with a
    // timeout of its own; these are for the rest, with room for a machine busy with other work.
    testTimeout: 20_000,
    // Hooks only start servers and make folders: anything heavier belongs in a test.
    hookTimeout: 60_000,
    pool: 'threads',
    // Every core (vitest's default leaves one for itself: a single worker on a 2-core machine).
    maxWorkers: availableParallelism(),
    // Test files share a worker's module cache: the runtime and generated modules load once per worker
    // (tests build their own clients and servers, and put back any global they stub).
    isolate: false,
    ...(report ? { reporters: ['default', 'json'], outputFile: { json: report } } : {}),
  },
});
