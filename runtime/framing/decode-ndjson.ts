/** Newline-delimited JSON: one payload per line; blank lines skipped; CRLF tolerated. */
import type { NdjsonUnit } from '../contract/codec.js';
import type { FrameDecoder, FrameSink } from '../contract/frame.js';

export class NdjsonDecoder implements FrameDecoder {
  #rest = '';
  #base = 0;

  readonly #sink: FrameSink;

  constructor(sink: FrameSink) {
    this.#sink = sink;
  }

  push(text: string): void {
    const s = this.#rest === '' ? text : this.#rest + text;
    let pos = 0;
    for (let lf = s.indexOf('\n'); lf !== -1; lf = s.indexOf('\n', pos)) {
      this.#emit(s, pos, lf, false);
      pos = lf + 1;
    }
    this.#base += pos;
    this.#rest = pos === 0 ? s : s.slice(pos);
  }

  end(): { unterminated: boolean } {
    const unterminated = this.#rest.trim() !== '';
    const rest = this.#rest;
    this.#rest = '';
    if (unterminated) this.#emit(rest, 0, rest.length, true);
    this.#base += rest.length;
    return { unterminated };
  }

  #emit(s: string, start: number, end: number, unterminated: boolean): void {
    if (end > start && s.charCodeAt(end - 1) === 13) end--;
    const line = s.slice(start, end);
    if (line.trim() === '') return;
    this.#sink(undefined, line, this.#base + start, unterminated);
  }
}

NdjsonDecoder satisfies NdjsonUnit;
