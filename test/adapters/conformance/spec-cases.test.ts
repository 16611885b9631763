/**
 * Conformance: every spec in specs/ that has an adapter gets the generic checks, and its
 * hand-written cases (specs/cases/<id>.yaml, checked against specs/cases.schema.json first) when it
 * has them. The expectations come from the providers' documentation, never from the spec under
 * test: change a spec's mapping and a case here fails. Format: docs/conformance-cases.md.
 */
import { existsSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { adapters } from '../../../generated/index.js';
import { loadCasesFile, matchValue, runGenericChecks, runSpecCases, validateCases, type Adapter, type CasesDoc } from '../../helpers/spec-cases.js';

const SPECS = new URL('../../../specs/', import.meta.url);
const CASES = new URL('cases/', SPECS);

const specIds = readdirSync(SPECS)
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => f.slice(0, -'.yaml'.length))
  .sort();
const casesIds = existsSync(CASES)
  ? readdirSync(CASES)
      .filter((f) => f.endsWith('.yaml'))
      .map((f) => f.slice(0, -'.yaml'.length))
      .sort()
  : [];
const registry = adapters as unknown as Record<string, Adapter | undefined>;

describe('conformance cases files', () => {
  it('every specs/cases/<id>.yaml belongs to a spec in specs/ with an adapter', () => {
    expect(casesIds.filter((id) => !specIds.includes(id) || !registry[id])).toEqual([]);
  });
});

for (const id of specIds) {
  const adapter = registry[id];
  if (!adapter) continue;
  runGenericChecks(adapter);
  if (!casesIds.includes(id)) continue;

  const file = loadCasesFile(`specs/cases/${id}.yaml`);
  describe(`${id}: ${file.path}`, () => {
    it('matches specs/cases.schema.json', () => {
      if (file.errors.length) throw new Error(`${file.path} is not a valid cases file:\n${file.errors.join('\n')}`);
    });
  });
  if (!file.errors.length) runSpecCases(adapter, file.doc, file.path, { lineOf: file.lineOf });
}

describe('the case runner itself', () => {
  it('matches subsets, "$absent", "$any", "$oneOf" and arrays by length', () => {
    const actual = { a: 1, b: { c: [1, { d: 'x', e: 2 }] }, f: null };
    expect(matchValue({ a: 1, b: { c: [1, { d: 'x' }] } }, actual)).toEqual([]);
    expect(matchValue({ g: '$absent', a: '$any', f: null }, actual)).toEqual([]);
    expect(matchValue({ a: { $oneOf: [2, 1] } }, actual)).toEqual([]);
    expect(matchValue({ a: '$absent', g: '$any' }, actual).map((m) => m.path)).toEqual(['/a', '/g']);
    expect(matchValue({ b: { c: [1] } }, actual).map((m) => m.path)).toEqual(['/b/c']);
    expect(matchValue({ b: { c: [1, { d: 'y' }] } }, actual).map((m) => m.path)).toEqual(['/b/c/1/d']);
    expect(matchValue({ a: 1, b: { c: [1, { d: 'x' }] }, f: null }, actual, { exact: true }).map((m) => m.path)).toEqual(['/b/c/1/e']);
    expect(matchValue({ f: 0 }, actual)).toHaveLength(1);
  });

  it('a malformed cases file is reported with its path, line and the ajv error', () => {
    const doc = { spec: 'demo', responses: [{ name: 'x', body: {}, expect: { finish_reason: 'stop' } }] } as unknown as CasesDoc;
    const errors = validateCases({ path: 'specs/cases/demo.yaml', doc, lineOf: (at) => (at[0] === 'responses' ? 7 : undefined) }, 'demo');
    expect(errors.join('\n')).toContain('specs/cases/demo.yaml:7: /responses/0/expect must NOT have additional properties ("finish_reason")');
  });

  it('a cases file for another spec, or with two cases of one name, is refused', () => {
    const doc = {
      spec: 'other',
      errors: [
        { name: 'same', status: 500, expect: { retryable: true } },
        { name: 'same', status: 502, expect: { retryable: true } },
      ],
    } as unknown as CasesDoc;
    const errors = validateCases({ path: 'specs/cases/demo.yaml', doc, lineOf: () => 3 }, 'demo');
    expect(errors).toEqual([
      'specs/cases/demo.yaml:3: spec is "other" but the file is for "demo"',
      'specs/cases/demo.yaml:3: errors has two cases named "same" (the first is #0)',
    ]);
  });
});
