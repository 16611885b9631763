/** Wire paths (`choices.0.delta.content`, or `choices[0]…` when quoted) parsed into segments. */

export type Segment = string | number;

export interface WirePath {
  text: string;
  segments: Segment[];
}

export function parsePath(text: string): WirePath {
  // `$` is the payload itself (Ollama puts usage counts at the top level).
  if (text === '$') return { text, segments: [] };
  const segments: Segment[] = [];
  for (const part of text.split('.')) {
    const m = /^(.*?)((?:\[\d+\])*)$/.exec(part)!;
    // `choices.0.delta` (flow-YAML friendly) and `choices[0].delta` both index an array.
    if (m[1]) segments.push(/^\d+$/.test(m[1]) ? Number(m[1]) : m[1]);
    for (const idx of m[2]!.matchAll(/\[(\d+)\]/g)) segments.push(Number(idx[1]));
  }
  return { text, segments };
}

export function pathList(value: unknown): WirePath[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).map((v) => parsePath(String(v)));
}

/** One key as a JSON-pointer segment (for the emitter, which reads no spec files itself). */
export { escapePointer } from '../load/parse-spec.js';
