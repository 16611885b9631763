import { defineConfig } from 'vitest/config';

// CI asks for a JSON report beside the usual output, to print a plain "N passed, N failed" line.
const report = process.env.WIREFORGE_TEST_REPORT;

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    pool: 'threads',
    ...(report ? { reporters: ['default', 'json'], outputFile: { json: report } } : {}),
  },
});
