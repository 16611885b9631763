/**
 * Text that arrives in many small pieces (one per stream event), joined once when read. Every
 * FOLD pieces are folded into one string, so what a long stream keeps follows the length of its
 * text, not the number of its events (each kept piece would cost an array slot and a string
 * header until the end).
 */
const FOLD = 256;

/**
 * A string with something in it: the wire's empty string is no text (no id, no name). Small
 * enough to be inlined where it runs for every delta.
 */
export const isText = (v: unknown): v is string => {
  return typeof v === 'string' && v !== '';
};

export class TextBuffer {
  #folded = '';
  readonly #pieces: string[] = [];

  push(piece: string): void {
    if (piece === '') return;
    const pieces = this.#pieces;
    pieces.push(piece);
    if (pieces.length === FOLD) {
      this.#folded += pieces.join('');
      pieces.length = 0;
    }
  }

  get empty(): boolean {
    return this.#folded === '' && this.#pieces.length === 0;
  }

  toString(): string {
    return this.#pieces.length === 0 ? this.#folded : this.#folded + this.#pieces.join('');
  }
}
