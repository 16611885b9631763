/**
 * The known key a mistyped one most likely meant, for the message of an unknown key: compared
 * ignoring case, `_` and `-` (`baseURL`, `max_tokens`), the nearest by edit distance when it is
 * close for its length (`temprature`, `contnet`). Runs only on the error path (the request
 * check's unknown keys, the mock's script check).
 */
const plain = (s: string) => s.toLowerCase().replace(/[-_]/g, '');

/** Levenshtein distance, one row at a time. */
const distance = (a: string, b: string): number => {
  let row = [...Array(b.length + 1).keys()];
  for (let i = 0; i < a.length; i++) {
    const next = [i + 1];
    for (let j = 0; j < b.length; j++) next.push(Math.min(row[j + 1]! + 1, next[j]! + 1, row[j]! + +(a[i] !== b[j])));
    row = next;
  }
  return row[b.length]!;
};

/** The known key nearest to `key`, if one is near enough to be what was meant. */
export const nearest = (key: string, known: ReadonlyArray<string | undefined>): string | undefined => {
  const k = plain(key);
  let best: string | undefined;
  // At most two edits, and fewer for short keys: one for three to five letters, none below.
  let most = Math.min(2, k.length / 3);
  for (const name of known) {
    const d = name ? distance(k, plain(name)) : most + 1;
    if (d <= most) [best, most] = [name, d - 1];
  }
  return best;
};
