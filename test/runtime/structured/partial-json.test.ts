/**
 * The partial-JSON reader: every prefix of each document gives a value consistent with the
 * whole document (a prefix of a string, a complete scalar, containers whose earlier members are
 * final and whose last one is consistent) and never throws; the whole document gives JSON.parse's value.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePartialJson } from '../../../runtime/structured/partial-json.js';

const DOCUMENTS = [
  '{"name":"Ada","age":36}',
  '{ "title" : "caf\\u00e9 \\"quoted\\" \\\\ back\\/slash\\n\\ttab", "tags" : [ "a" , "b" ] }',
  '{"emoji":"\\ud83d\\ude00 and 😀 raw","cjk":"漢字","ctrl":"\\b\\f\\r"}',
  '{"n":[0,-1,12.5,-0.25,3e10,1.5E-3,123456789],"t":true,"f":false,"z":null}',
  '{"deep":{"a":[[1,[2,{"b":[]}]],{}],"c":{"d":{"e":"end"}}},"after":"x"}',
  '[{"id":1,"ok":true},{"id":22,"ok":false,"note":null},[],"s",-7]',
  '{"__proto__":{"polluted":true},"constructor":"c"}',
  '\n  {"spaced" :\n [ 1 ,\t2 ] }  ',
];

/** p says nothing the whole value w contradicts: only the member being read may be partial. */
function consistent(p: unknown, w: unknown): boolean {
  if (p === undefined) return true;
  if (typeof p === 'string') return typeof w === 'string' && w.startsWith(p);
  if (Array.isArray(p)) {
    if (!Array.isArray(w) || p.length > w.length) return false;
    return p.every((x, i) => (i < p.length - 1 ? JSON.stringify(x) === JSON.stringify(w[i]) : consistent(x, w[i])));
  }
  if (p !== null && typeof p === 'object') {
    if (w === null || typeof w !== 'object' || Array.isArray(w)) return false;
    const whole = w as Record<string, unknown>;
    // Every key shown is in the document; all values are final but one (the member being read),
    // which is consistent. (Key order is not compared: integer-like keys sort first in both.)
    const open = Object.entries(p).filter(([k, v]) => !Object.hasOwn(whole, k) || JSON.stringify(v) !== JSON.stringify(whole[k]));
    return open.length === 0 || (open.length === 1 && Object.hasOwn(whole, open[0]![0]) && consistent(open[0]![1], whole[open[0]![0]]));
  }
  return p === w;
}

describe('parsePartialJson', () => {
  for (const doc of DOCUMENTS) {
    it(`every prefix of ${JSON.stringify(doc.slice(0, 40))}… is consistent with the whole`, () => {
      const whole: unknown = JSON.parse(doc);
      let grew = 0;
      let last = '';
      for (let n = 0; n <= doc.length; n++) {
        let p: unknown;
        expect(() => (p = parsePartialJson(doc.slice(0, n))), `prefix ${n}`).not.toThrow();
        expect(consistent(p, whole), `prefix ${n}: ${JSON.stringify(p)}`).toBe(true);
        const now = JSON.stringify(p) ?? '';
        if (now !== last) grew++;
        last = now;
      }
      expect(parsePartialJson(doc)).toEqual(whole);
      // The value is shown as it grows, not only at the end.
      expect(grew).toBeGreaterThan(3);
    });
  }

  it('every prefix of generated documents (any JSON value, any spacing, unicode) is consistent and never throws', () => {
    const doc = fc.tuple(fc.jsonValue({ maxDepth: 3 }), fc.boolean()).map(([v, spaced]) => JSON.stringify(v, null, spaced ? 1 : undefined));
    fc.assert(
      fc.property(doc, (text) => {
        const whole: unknown = JSON.parse(text);
        for (let n = 0; n <= text.length; n++) {
          const p = parsePartialJson(text.slice(0, n));
          if (!consistent(p, whole)) return false;
        }
        // A container is whole at its end; a bare scalar may still go on (`12` → `123`), so it is shown only when followed.
        const last = parsePartialJson(text);
        if (typeof whole === 'object' && whole !== null) return JSON.stringify(last) === JSON.stringify(whole);
        return typeof whole === 'string' ? last === whole : last === undefined;
      }),
      { numRuns: 300, seed: 24 },
    );
  });

  it('shows a string as it arrives and leaves out an escape cut mid-way', () => {
    expect(parsePartialJson('{"a":"he')).toEqual({ a: 'he' });
    expect(parsePartialJson('{"a":"he\\')).toEqual({ a: 'he' });
    expect(parsePartialJson('{"a":"he\\u00')).toEqual({ a: 'he' });
    expect(parsePartialJson('{"a":"he\\u00e9')).toEqual({ a: 'heé' });
  });

  it('shows a number or literal only once it has ended', () => {
    expect(parsePartialJson('{"a":12')).toEqual({});
    expect(parsePartialJson('{"a":12.')).toEqual({});
    expect(parsePartialJson('{"a":1e')).toEqual({});
    expect(parsePartialJson('{"a":12,')).toEqual({ a: 12 });
    expect(parsePartialJson('[tru')).toEqual([]);
    expect(parsePartialJson('[true')).toEqual([]);
    expect(parsePartialJson('[true]')).toEqual([true]);
  });

  it('shows a key only once its value has begun', () => {
    expect(parsePartialJson('{"na')).toEqual({});
    expect(parsePartialJson('{"name"')).toEqual({});
    expect(parsePartialJson('{"name":')).toEqual({});
    expect(parsePartialJson('{"name":"')).toEqual({ name: '' });
    expect(parsePartialJson('{"list":[')).toEqual({ list: [] });
  });

  it('keeps "__proto__" an own key and never touches a prototype', () => {
    const v = parsePartialJson('{"__proto__":{"polluted":true}}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.hasOwn(v, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('stops at what is not JSON, keeping what came before, and never throws', () => {
    expect(parsePartialJson('')).toBeUndefined();
    expect(parsePartialJson('Sure! Here')).toBeUndefined();
    expect(parsePartialJson('{"a":[1,2,x')).toEqual({ a: [1, 2] });
    expect(parsePartialJson('{"a":"b\\q')).toEqual({ a: 'b' });
    expect(parsePartialJson('{"a":"\\uZZZZ"}')).toEqual({ a: '' });
    expect(parsePartialJson('{"a" 1}')).toEqual({});
    expect(parsePartialJson('{"a":1}```')).toEqual({ a: 1 });
    for (const junk of ['}', ']', ',', ':', '"', '{{', '[[', '{"a":}', '[,]', '-', '--1', '1e+']) expect(() => parsePartialJson(junk)).not.toThrow();
  });
});
