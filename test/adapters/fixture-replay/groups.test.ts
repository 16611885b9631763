/** Fixture replay's groups cover every fixture folder once; its chunk sizes. */
import { describe, expect, it } from 'vitest';
import { chunkSizes, FIXTURE_FOLDERS, FIXTURE_GROUPS } from '../../helpers/fixture-replay.js';

describe('fixture replay groups', () => {
  it('every fixture folder is replayed by exactly one group (one test file each)', () => {
    const grouped = Object.values(FIXTURE_GROUPS).flat();
    expect([...grouped].sort()).toEqual(FIXTURE_FOLDERS);
    expect(new Set(grouped).size).toBe(grouped.length);
  });
});

describe('chunk sizes', () => {
  it('every size to 16 for a small body, to 4 for a large one, then ×1.5 steps, the body less one byte and the whole', () => {
    expect(chunkSizes(1)).toEqual([1]);
    expect(chunkSizes(10)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(chunkSizes(100)).toEqual([...Array.from({ length: 16 }, (_, i) => i + 1), 17, 26, 39, 59, 89, 99, 100]);
    expect(chunkSizes(5000)).toEqual([1, 2, 3, 4, 5, 8, 12, 18, 27, 41, 62, 93, 140, 210, 315, 473, 710, 1065, 1598, 2397, 3596, 4999, 5000]);
  });
});
