/** Wire citation objects → unified Citations, by the spec's citation table (`parts.citation`). */
import type { PartField, PartsProfile } from '../contract/profile.js';
import type { Citation } from '../contract/unified-model.js';
import { isArray, isObject, isString, readPath } from '../wire/read-path.js';

export const citationOf = (map: PartsProfile['citation'], raw: unknown): Citation | undefined => {
  if (map === undefined || !isObject(raw)) return undefined;
  const out: Citation = {};
  for (const k of ['url', 'title', 'citedText', 'documentId'] as const) {
    const v = firstAt(raw, map[k]);
    if (isString(v)) out[k] = v;
  }
  const n = firstAt(raw, map.sourceIndex);
  if (typeof n === 'number') out.sourceIndex = n;
  return out;
};

/** The first present value among several paths (`[]` is the object itself). */
export const firstAt = (raw: unknown, paths: PartField | readonly (readonly (string | number)[])[] | undefined): unknown => {
  if (!isArray(paths)) return undefined; // none, or a field that is not a list of paths
  for (const p of paths as readonly (readonly (string | number)[])[]) {
    // An empty path is the citation object itself (readPath returns it).
    const v = readPath(raw, p);
    if (v !== undefined && v !== null) return v;
  }
  return undefined;
};
