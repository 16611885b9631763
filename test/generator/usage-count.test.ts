/**
 * A usage count over a list of steps (`{ over, sum }`): without `otherwise`, the same fields are
 * read at the top level when the list is absent, so a spec does not repeat them.
 */
import { expect, it } from 'vitest';
import { generate } from '../../generator/pipeline.js';
import { MINI } from './helpers.js';

it('otherwise defaults to sum; given, it is kept', async () => {
  const text = MINI.text.replace(/^usage:\n(  .*\n)+/m, 'usage:\n  inputTokens: { over: steps, sum: [in, cached] }\n  outputTokens: { over: steps, sum: out, otherwise: [out, extra] }\n');
  expect(text).not.toBe(MINI.text);
  const { irs, diagnostics } = await generate([{ file: MINI.file, text }]);
  expect(diagnostics).toEqual([]);
  const usage = irs[0]!.profile.usage;
  expect(usage.inputTokens).toEqual({ over: ['steps'], sum: [['in'], ['cached']], otherwise: [['in'], ['cached']] });
  expect(usage.outputTokens).toEqual({ over: ['steps'], sum: [['out']], otherwise: [['out'], ['extra']] });
});
