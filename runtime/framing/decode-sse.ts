/**
 * Server-sent events, per the WHATWG rules: lines end in CR, LF or CRLF (a CR at the end of
 * one chunk and its LF at the start of the next are one line end); `data:` lines join with
 * "\n"; comments (`:`) and `id:`/`retry:` are skipped; a BOM at the start is dropped. Index
 * scans only, no regex, one pass per chunk.
 */
import type { FrameDecoder, FrameSink } from '../contract/frame.js';

export class SseDecoder implements FrameDecoder {
  #rest = '';
  /** Characters consumed before `rest`. */
  #base = 0;
  #skipLF = false;
  #started = false;
  #data: string | undefined;
  #event: string | undefined;
  #eventStart = -1;
  /** Set while end() flushes what the stream cut short. */
  #ending = false;

  readonly #sink: FrameSink;

  constructor(sink: FrameSink) {
    this.#sink = sink;
  }

  push(text: string): void {
    if (!this.#started && text.length) {
      this.#started = true;
      if (text.charCodeAt(0) === 0xfeff) {
        text = text.slice(1);
        this.#base++;
      }
    }
    const s = this.#rest === '' ? text : this.#rest + text;
    let pos = 0;
    if (this.#skipLF && s.length) {
      this.#skipLF = false;
      if (s.charCodeAt(0) === 10) pos = 1;
    }
    let cr = s.indexOf('\r', pos);
    for (;;) {
      const lf = s.indexOf('\n', pos);
      if (cr !== -1 && cr < pos) cr = s.indexOf('\r', pos);
      let end: number;
      let next: number;
      if (cr !== -1 && (lf === -1 || cr < lf)) {
        end = cr;
        next = cr + 1;
        // A CR last in the chunk: an LF starting the next one belongs to it.
        if (next === s.length) this.#skipLF = true;
        else if (s.charCodeAt(next) === 10) next++;
      } else if (lf !== -1) {
        end = lf;
        next = lf + 1;
      } else break;
      this.#line(s, pos, end);
      pos = next;
    }
    this.#base += pos;
    this.#rest = pos === 0 ? s : s.slice(pos);
  }

  end(): { unterminated: boolean } {
    const rest = this.#rest;
    this.#ending = true;
    if (rest !== '') {
      this.#line(rest, 0, rest.length);
      this.#base += rest.length;
      this.#rest = '';
    }
    const pending = this.#data !== undefined;
    if (pending) this.#dispatch();
    return { unterminated: rest !== '' || pending };
  }

  #line(s: string, start: number, end: number): void {
    if (start === end) {
      this.#dispatch();
      return;
    }
    const first = s.charCodeAt(start);
    if (first === 58 /* : */) return;
    if (this.#eventStart < 0) this.#eventStart = this.#base + start;
    // Only `data` and `event` matter: tell them by length and a prefix compare, no slicing.
    let colon = s.indexOf(':', start);
    if (colon === -1 || colon > end) colon = end;
    const length = colon - start;
    const isData = length === 4 && s.startsWith('data', start);
    if (!isData && !(length === 5 && s.startsWith('event', start))) return;
    const v = colon < end && s.charCodeAt(colon + 1) === 32 ? colon + 2 : colon + 1;
    // A line without a colon (colon = end) has v = end + 1: slice gives '' for it too.
    const value = s.slice(v, end);
    if (isData) this.#data = this.#data === undefined ? value : `${this.#data}\n${value}`;
    else this.#event = value;
  }

  #dispatch(): void {
    const data = this.#data;
    if (data !== undefined) {
      this.#data = undefined;
      this.#sink(this.#event, data, this.#eventStart, this.#ending);
    }
    this.#event = undefined;
    this.#eventStart = -1;
  }
}
