/**
 * The value a prefix of a JSON document already says, for `object-delta` events while a
 * structured reply streams. Tolerant by design: it never throws, and it only shows what cannot
 * change any more, so every value it returns is consistent with the finished document:
 * - a string cut mid-way is shown as far as it goes (an escape cut mid-way is left out);
 * - a number, `true`, `false` or `null` is shown only once something follows it (`12` may
 *   become `123`);
 * - an object key is shown only once its value has begun.
 * Anything that is not JSON stops the reading: what was read before it is the answer.
 */

/** The value so far; undefined when nothing can be said yet. */
export function parsePartialJson(s: string): unknown {
  let i = 0;
  const n = s.length;

  const space = (): void => {
    while (i < n && (s[i] === ' ' || s[i] === '\n' || s[i] === '\r' || s[i] === '\t')) i++;
  };
  /** Nothing more to read: the end, or what is not JSON. */
  const stop = (): undefined => {
    i = n;
    return undefined;
  };
  /** A value at i; undefined: nothing to show (the end, a scalar not yet ended, or not JSON). */
  const value = (): Read | undefined => {
    const c = s[i];
    if (c === '{' || c === '[') return container(c === '{');
    if (c === '"') return string();
    return c === undefined ? undefined : scalar();
  };
  /** An object or an array, as far as it goes. */
  const container = (isObject: boolean): Read => {
    const o: Record<string, unknown> = {};
    const a: unknown[] = [];
    const v = isObject ? o : a;
    i++;
    for (;;) {
      space();
      const c = s[i];
      if (c === (isObject ? '}' : ']')) {
        i++;
        return { v, done: true };
      }
      if (c === ',') {
        i++;
        continue;
      }
      let key: string | undefined;
      if (isObject) {
        if (c !== '"') return { v, done: false };
        const k = string();
        space();
        if (!k.done || s[i] !== ':') return { v, done: false };
        i++;
        space();
        key = k.v as string;
      }
      const r = value();
      if (r !== undefined) {
        if (key === undefined) a.push(r.v);
        // An own property even for "__proto__", as JSON.parse makes it (never the prototype).
        else if (key === '__proto__') Object.defineProperty(o, key, { value: r.v, enumerable: true, writable: true, configurable: true });
        else o[key] = r.v;
      }
      if (!r?.done) return { v, done: false };
    }
  };
  /** A string as far as it goes; an escape cut mid-way (or not JSON) ends it and the reading. */
  const string = (): Read => {
    let out = '';
    let from = ++i;
    while (i < n) {
      const c = s[i];
      if (c === '"') return { v: out + s.slice(from, i++), done: true };
      if (c !== '\\') {
        i++;
        continue;
      }
      out += s.slice(from, i);
      const e = s[i + 1];
      const hex = s.slice(i + 2, i + 6);
      const ch = e === 'u' ? (/^[0-9a-fA-F]{4}$/.test(hex) ? String.fromCharCode(parseInt(hex, 16)) : undefined) : e === undefined ? undefined : ESCAPES[e];
      if (ch === undefined) {
        stop();
        return { v: out, done: false };
      }
      out += ch;
      i += e === 'u' ? 6 : 2;
      from = i;
    }
    return { v: out + s.slice(from), done: false };
  };
  /** A number or literal, shown once something follows it (at the end of the text it may go on: `12` → `123`). */
  const scalar = (): Read | undefined => {
    let v: unknown;
    const word = LITERALS.find(([w]) => s.startsWith(w, i));
    if (word) {
      i += word[0].length;
      v = word[1];
    } else {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(s);
      if (m === null) return stop();
      i += m[0].length;
      v = Number(m[0]);
    }
    // What would continue a number (`1.`, `1e`, `12` → `123`) means it is still being written.
    return i >= n || /[\d.eE+-]/.test(s[i]!) ? stop() : { v, done: true };
  };

  space();
  return value()?.v;
}

interface Read {
  v: unknown;
  /** The value ended (closing bracket or quote, or a scalar followed by something). */
  done: boolean;
}

const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERALS: Array<[string, unknown]> = [
  ['true', true],
  ['false', false],
  ['null', null],
];
