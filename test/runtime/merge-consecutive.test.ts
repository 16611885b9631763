/** Joining consecutive wire messages: only what agrees on everything but the merged field, so nothing is lost. */
import { describe, expect, it } from 'vitest';
import { mergeConsecutive } from '../../runtime/request/merge-consecutive.js';

const textPart = (p: { type: 'text'; text: string }) => ({ type: 'text', text: p.text });

const cases: Array<[string, { given: unknown[]; field: string; join?: string; want: unknown[] }]> = [
  [
    'arrays of one role are concatenated',
    {
      given: [{ role: 'user', content: [{ type: 'tool_result', id: 'a' }] }, { role: 'user', content: [{ type: 'tool_result', id: 'b' }] }],
      field: 'content',
      want: [{ role: 'user', content: [{ type: 'tool_result', id: 'a' }, { type: 'tool_result', id: 'b' }] }],
    },
  ],
  ['strings are made text parts when no join is given', { given: [{ role: 'user', content: 'a' }, { role: 'user', content: [{ type: 'image' }] }], field: 'content', want: [{ role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'image' }] }] }],
  ['strings are joined with the join the spec gives', { given: [{ who: 'g', text: 'a' }, { who: 'g', text: 'b' }], field: 'text', join: '\n', want: [{ who: 'g', text: 'a\nb' }] }],
  [
    'two tool results that share the user role but sit outside the field stay two',
    { given: [{ who: 'g', result: { id: 1 } }, { who: 'g', result: { id: 2 } }], field: 'text', join: '\n', want: [{ who: 'g', result: { id: 1 } }, { who: 'g', result: { id: 2 } }] },
  ],
  ['messages that differ besides the field are not joined', { given: [{ who: 'g', text: 'a', name: 'x' }, { who: 'g', text: 'b', name: 'y' }], field: 'text', join: ' ', want: [{ who: 'g', text: 'a', name: 'x' }, { who: 'g', text: 'b', name: 'y' }] }],
  ['different roles are not joined', { given: [{ who: 'g', text: 'a' }, { who: 'h', text: 'b' }], field: 'text', join: ' ', want: [{ who: 'g', text: 'a' }, { who: 'h', text: 'b' }] }],
];

describe('mergeConsecutive', () => {
  it.each(cases)('%s', (_name, { given, field, join, want }) => {
    expect(mergeConsecutive(given, field, join, textPart)).toEqual(want);
  });
});
