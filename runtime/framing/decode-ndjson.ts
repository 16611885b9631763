/** Newline-delimited JSON: one payload per line; blank lines skipped; CRLF tolerated. */
import type { Frame, FrameDecoder } from './frame.js';

export class NdjsonDecoder implements FrameDecoder {
  private rest = '';
  private base = 0;

  push(text: string, out: Frame[]): void {
    const s = this.rest === '' ? text : this.rest + text;
    let pos = 0;
    for (let lf = s.indexOf('\n'); lf !== -1; lf = s.indexOf('\n', pos)) {
      this.emit(s, pos, lf, out);
      pos = lf + 1;
    }
    this.base += pos;
    this.rest = pos === 0 ? s : s.slice(pos);
  }

  end(out: Frame[]): { unterminated: boolean } {
    const unterminated = this.rest.trim() !== '';
    if (unterminated) this.emit(this.rest, 0, this.rest.length, out);
    this.base += this.rest.length;
    this.rest = '';
    return { unterminated };
  }

  private emit(s: string, start: number, end: number, out: Frame[]): void {
    if (end > start && s.charCodeAt(end - 1) === 13) end--;
    const line = s.slice(start, end);
    if (line.trim() === '') return;
    out.push({ event: undefined, data: line, offset: this.base + start });
  }
}
