/**
 * Every wire value in every spec's finish table is pinned by a hand-written case (its own, or
 * one it inherits): a changed entry then fails that case. The spec is read only for the list of
 * values to look for; what each must map to comes from the cases.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { adapters } from '../../../generated/index.js';
import { loadCasesFile, type CasesDoc } from '../../helpers/spec-cases.js';

function pinnedValues(id: string, seen = new Set<string>()): Set<string> {
  const out = new Set<string>();
  const path = `specs/cases/${id}.yaml`;
  if (seen.has(id) || !existsSync(path)) return out;
  seen.add(id);
  const doc: CasesDoc = loadCasesFile(path).doc;
  for (const section of ['responses', 'streams'] as const) {
    for (const c of doc[section] ?? []) {
      const raw = c.expect?.rawFinishReason;
      if (!c.skip && typeof raw === 'string' && c.expect.finishReason !== undefined) out.add(raw);
    }
  }
  for (const inherit of doc.inherit ?? []) {
    if (inherit.sections && !inherit.sections.some((s) => s === 'responses' || s === 'streams')) continue;
    // Inherited cases an overlay excepts or skips do not pin its values.
    const excluded = new Set([...(inherit.except?.responses ?? []), ...(inherit.except?.streams ?? []), ...Object.keys(inherit.skip?.responses ?? {}), ...Object.keys(inherit.skip?.streams ?? {})]);
    const base: CasesDoc = loadCasesFile(`specs/cases/${inherit.from}.yaml`).doc;
    for (const section of ['responses', 'streams'] as const) {
      for (const c of base[section] ?? []) {
        const raw = c.expect?.rawFinishReason;
        if (!c.skip && !excluded.has(c.name) && typeof raw === 'string' && c.expect.finishReason !== undefined) out.add(raw);
      }
    }
  }
  return out;
}

describe('finish tables are pinned by cases', () => {
  // Specs that carry cases; one without them gets the generic checks only.
  for (const [id, adapter] of Object.entries(adapters).filter(([id]) => existsSync(`specs/cases/${id}.yaml`))) {
    it(`${id}: every finish-table value has a case`, () => {
      const pinned = pinnedValues(id);
      const unpinned = Object.keys(adapter.profile.finish.map).filter((raw) => !pinned.has(raw));
      expect(unpinned, `add a response or stream case to specs/cases/${id}.yaml for each`).toEqual([]);
    });
  }
});
