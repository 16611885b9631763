/** The AI SDK logs every V4 warning to the console; the bridge tests assert warnings instead of printing them. */
import { afterAll, beforeAll } from 'vitest';

export function quietAiSdkWarnings(): void {
  const g = globalThis as { AI_SDK_LOG_WARNINGS?: unknown };
  let before: unknown;
  beforeAll(() => {
    before = g.AI_SDK_LOG_WARNINGS;
    g.AI_SDK_LOG_WARNINGS = false;
  });
  // Test files share a worker (isolate: false): put the global back.
  afterAll(() => {
    g.AI_SDK_LOG_WARNINGS = before;
  });
}
