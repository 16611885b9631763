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
export function parsePartialJson(text: string): unknown {
  const r = new Reader(text);
  r.space();
  return r.value()?.v;
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

class Reader {
  i = 0;
  constructor(readonly s: string) {}

  space(): void {
    const s = this.s;
    while (this.i < s.length && (s[this.i] === ' ' || s[this.i] === '\n' || s[this.i] === '\r' || s[this.i] === '\t')) this.i++;
  }

  /** A value at i; undefined: nothing to show (the end, a scalar not yet ended, or not JSON). */
  value(): Read | undefined {
    const c = this.s[this.i];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string();
    if (c === undefined) return undefined;
    return this.scalar();
  }

  object(): Read {
    const s = this.s;
    const o: Record<string, unknown> = {};
    this.i++;
    for (;;) {
      this.space();
      const c = s[this.i];
      if (c === '}') {
        this.i++;
        return { v: o, done: true };
      }
      if (c === ',') {
        this.i++;
        continue;
      }
      if (c !== '"') return { v: o, done: false };
      const key = this.string();
      if (!key.done) return { v: o, done: false };
      this.space();
      if (s[this.i] !== ':') return { v: o, done: false };
      this.i++;
      this.space();
      const r = this.value();
      if (r !== undefined) {
        // An own property even for "__proto__", as JSON.parse makes it (never the prototype).
        if (key.v === '__proto__') Object.defineProperty(o, '__proto__', { value: r.v, enumerable: true, writable: true, configurable: true });
        else o[key.v as string] = r.v;
      }
      if (!r?.done) return { v: o, done: false };
    }
  }

  array(): Read {
    const a: unknown[] = [];
    this.i++;
    for (;;) {
      this.space();
      const c = this.s[this.i];
      if (c === ']') {
        this.i++;
        return { v: a, done: true };
      }
      if (c === ',') {
        this.i++;
        continue;
      }
      const r = this.value();
      if (r !== undefined) a.push(r.v);
      if (!r?.done) return { v: a, done: false };
    }
  }

  string(): Read {
    const s = this.s;
    let out = '';
    let from = ++this.i;
    while (this.i < s.length) {
      const c = s[this.i];
      if (c === '"') {
        out += s.slice(from, this.i++);
        return { v: out, done: true };
      }
      if (c !== '\\') {
        this.i++;
        continue;
      }
      out += s.slice(from, this.i);
      const e = s[this.i + 1];
      if (e === undefined) return this.cut(out);
      if (e === 'u') {
        const hex = s.slice(this.i + 2, this.i + 6);
        if (hex.length < 4) return this.cut(out);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) return this.cut(out);
        out += String.fromCharCode(parseInt(hex, 16));
        this.i += 6;
      } else {
        const ch = ESCAPES[e];
        if (ch === undefined) return this.cut(out);
        out += ch;
        this.i += 2;
      }
      from = this.i;
    }
    return this.cut(out + s.slice(from));
  }

  /** The text ended inside a string (or stopped being JSON there): the string so far, and no further reading. */
  cut(out: string): Read {
    this.i = this.s.length;
    return { v: out, done: false };
  }

  scalar(): Read | undefined {
    const s = this.s;
    for (const [word, v] of LITERALS) {
      if (s.startsWith(word, this.i)) {
        this.i += word.length;
        return this.ended(v);
      }
    }
    NUMBER.lastIndex = this.i;
    const m = NUMBER.exec(s);
    if (m === null) return this.none();
    this.i += m[0].length;
    return this.ended(Number(m[0]));
  }

  /** A scalar is shown once something follows it; at the end of the text it may go on. */
  ended(v: unknown): Read | undefined {
    if (this.i >= this.s.length) return this.none();
    const c = this.s[this.i]!;
    // A number followed by what would continue it (`1.`, `1e`, `-`) is still being written.
    if (c === '.' || c === 'e' || c === 'E' || c === '+' || c === '-' || (c >= '0' && c <= '9')) return this.none();
    return { v, done: true };
  }

  none(): undefined {
    this.i = this.s.length;
    return undefined;
  }
}
