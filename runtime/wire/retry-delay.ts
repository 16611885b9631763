/** Retry delays stated in error bodies, for specs with `errors.retryDelay` (`codec.uses.retryDelay`). */
import type { RetryDelayUnit } from '../contract/codec.js';
import type { Profile } from '../contract/profile.js';
import { readAll } from './read-path.js';

/** The first wait the body states: seconds as a number, or a duration string (`"34s"`, `"1.5s"`, `"250ms"`). */
export function retryDelayMs(body: unknown, paths: NonNullable<Profile['errors']['retryDelay']>): number | undefined {
  for (const p of paths) {
    for (const v of readAll(body, p)) {
      if (typeof v === 'number' && Number.isFinite(v) && v >= 0) return v * 1000;
      const m = typeof v === 'string' ? /^(\d+(?:\.\d+)?)(ms|s)$/.exec(v.trim()) : null;
      if (m) return Number(m[1]) * (m[2] === 'ms' ? 1 : 1000);
    }
  }
  return undefined;
}

retryDelayMs satisfies RetryDelayUnit;
