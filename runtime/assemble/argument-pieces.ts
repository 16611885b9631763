/**
 * Tool-call arguments the wire streams as JSON-path pieces (Vertex AI `partialArgs`,
 * docs/wire-facts.md#gemini-response-and-streaming): a call opens with its name and a "more
 * follows" flag, then each piece names where its value goes (`$.city`, `$.stops[1].name`), carries
 * one typed value, and may say that more of the same string follows; a part that says no more
 * follows closes the call. The pieces are assembled into the arguments object, and the argument
 * text is streamed as `tool-call-delta`s as long as pieces arrive in document order (the order
 * the wire writes them); a call whose pieces cannot be assembled, or that the stream leaves
 * unfinished, gets `argumentsError` with what did arrive. Readers of such wires call these with
 * their assembler; a bundle without such a wire leaves them out.
 */
import { StreamError } from '../errors.js';
import { isText } from './text-buffer.js';
import type { ArgumentPieces, OpenCall } from './tool-calls.js';
import type { TurnAssembler } from './turn-assembler.js';

type Segment = string | number;
type Container = Record<string, unknown> | unknown[];

/** Until the part that closes the call: a call left open (stream cut, another call begun) says so. */
const CUT = 'the arguments were left unfinished: the last part of the call said more would follow';

/**
 * A `functionCall`-like part: a whole call (added as one), or the opening, a continuation or the
 * end of a call streamed in pieces. True when the part belongs to a call in pieces, whose pieces
 * the reader then gives to `argumentPiece` before `endPieces`.
 */
export function piecedToolCall(a: TurnAssembler, id: unknown, name: unknown, args: unknown, signature: unknown, more: unknown, pieces: unknown): boolean {
  const calls = a.calls;
  let call = openPiecedCall(a);
  // Another call's name or id while one is open: the open one was left unfinished.
  if (call && ((isText(id) && id !== call.id) || (isText(name) && name !== call.name))) {
    calls.closeCall(call);
    call = undefined;
  }
  const hasPieces = Array.isArray(pieces) && pieces.length > 0;
  if (!call) {
    if (more !== true && !hasPieces) {
      a.addToolCall(id, name, args, undefined, signature);
      return false;
    }
    if (!isText(name) && !isText(id)) {
      throw new StreamError({ provider: calls.provider, reason: 'tool-call argument pieces for a call that was never opened' });
    }
    call = calls.create(undefined, id, name, a.id);
    call.pieces = { root: Object.create(null) as Record<string, unknown>, continuing: new Set(), last: undefined, lastOpen: false, emitted: '', inOrder: true };
    call.error = CUT;
  }
  if (isText(signature)) (call.keep ??= {}).signature = signature;
  // Arguments sent whole on a part of the call replace the pieces.
  if (typeof args === 'object' && args !== null && Object.keys(args).length > 0) {
    call.full = JSON.stringify(args);
    call.fromObject = true;
    call.pieces!.inOrder = false;
  }
  return true;
}

/** One piece: its JSON path, whether more of it follows, and its value by JSON type. */
export function argumentPiece(a: TurnAssembler, path: unknown, more: unknown, asString: unknown, asNumber: unknown, asBoolean: unknown, asNull: unknown): void {
  const call = openPiecedCall(a);
  if (!call) return;
  const st = call.pieces!;
  // After a piece that could not be placed the arguments are known to be wrong: keep the reason.
  if (call.error !== CUT) return;
  const fail = (why: string) => {
    call.error = `argument piece at ${typeof path === 'string' ? JSON.stringify(path.slice(0, 80)) : 'no path'}: ${why}`;
    st.inOrder = false;
  };
  const segs = typeof path === 'string' ? parseJsonPath(path) : undefined;
  if (!segs) return fail('not a JSON path ($.name, $.list[0], $["key"])');
  if (segs.length === 0) return fail('a value must go inside the arguments object, not replace it');
  const key = path as string;
  const continues = st.continuing.has(key);
  let value: unknown;
  if (asString != null) value = asString;
  else if (asNumber != null) value = asNumber;
  else if (asBoolean != null) value = asBoolean;
  // Google's NullValue enum ("NULL_VALUE"): its presence is the value.
  else if (asNull != null) value = null;
  else if (continues) value = '';
  else return fail('no value');
  if ((asString != null && typeof asString !== 'string') || (asNumber != null && (typeof asNumber !== 'number' || !Number.isFinite(asNumber))) || (asBoolean != null && typeof asBoolean !== 'boolean')) {
    return fail('a value of the wrong type');
  }
  const why = place(st.root, segs, value, continues);
  if (why) return fail(why);
  if (more === true) {
    if (typeof value !== 'string') return fail('only a string value can continue');
    st.continuing.add(key);
  } else st.continuing.delete(key);
  emit(a, call, st, key, segs.length, continues, value, more === true);
}

/** The end of the part: the call closes unless the part says more of it follows. */
export function endPieces(a: TurnAssembler, more: unknown): void {
  if (more === true) return;
  const call = openPiecedCall(a);
  if (!call) return;
  const st = call.pieces!;
  if (call.error === CUT) {
    call.error = st.continuing.size ? `the call ended while ${[...st.continuing][0]} was to continue` : undefined;
  }
  const full = call.fromObject && call.full !== undefined ? call.full : JSON.stringify(st.root);
  call.full = full;
  call.fromObject = true;
  if (st.inOrder && full.startsWith(st.emitted) && full.length > st.emitted.length) {
    a.calls.appendArgs(call, full.slice(st.emitted.length));
  }
  a.calls.closeCall(call);
}

function openPiecedCall(a: TurnAssembler): OpenCall | undefined {
  const calls = a.calls.calls;
  const last = calls[calls.length - 1];
  return last?.pieces && !last.closed ? last : undefined;
}

/** Sets the value at the path, creating the objects and lists on the way; the reason it cannot, if any. */
function place(root: Record<string, unknown>, segs: Segment[], value: unknown, continues: boolean): string | undefined {
  let node: Container = root;
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i]!;
    const isList = Array.isArray(node);
    if (typeof seg === 'number' ? !isList : isList) return `${typeof seg === 'number' ? 'an index into an object' : 'a key into a list'}`;
    if (typeof seg === 'number' && seg > (node as unknown[]).length) return `index ${seg} leaves a gap in a list of ${(node as unknown[]).length}`;
    const here = node as Record<string | number, unknown>;
    const existing = here[seg];
    if (i === segs.length - 1) {
      if (existing === undefined) here[seg] = value;
      else if (continues && typeof existing === 'string' && typeof value === 'string') here[seg] = existing + value;
      else return 'a second value for the same place';
      return undefined;
    }
    if (existing === undefined) {
      const child: Container = typeof segs[i + 1] === 'number' ? [] : (Object.create(null) as Record<string, unknown>);
      here[seg] = child;
      node = child;
    } else if (typeof existing === 'object' && existing !== null) node = existing as Container;
    else return 'a path through a value that is not an object or a list';
  }
  return undefined;
}

/**
 * Streams the new argument text. A string continued right where the text ends is escaped and
 * sent as it is; anything else is the whole text so far, less what closes the last value's
 * containers (and its string, while that continues), sent from where the text sent so far ends.
 * Pieces out of document order would rewrite text already sent: deltas stop, the final call
 * carries the arguments.
 */
function emit(a: TurnAssembler, call: OpenCall, st: ArgumentPieces, key: string, depth: number, continues: boolean, value: unknown, open: boolean): void {
  if (!st.inOrder) return;
  let delta: string;
  if (continues && st.last === key && st.lastOpen) {
    delta = JSON.stringify(value).slice(1, -1);
  } else {
    const text = JSON.stringify(st.root);
    const prefix = text.slice(0, text.length - depth - (open ? 1 : 0));
    if (!prefix.startsWith(st.emitted)) {
      st.inOrder = false;
      return;
    }
    delta = prefix.slice(st.emitted.length);
  }
  st.last = key;
  st.lastOpen = open;
  if (delta === '') return;
  st.emitted += delta;
  a.calls.appendArgs(call, delta);
}

/**
 * RFC 9535 paths of names and indexes only: `$`, then `.name`, `['name']`, `["name"]` or `[0]`.
 * Undefined for anything else (wildcards, filters, slices select many places, not one).
 */
export function parseJsonPath(path: string): Segment[] | undefined {
  if (path[0] !== '$') return undefined;
  const segs: Segment[] = [];
  let i = 1;
  while (i < path.length) {
    const c = path[i];
    if (c === '.') {
      let j = i + 1;
      while (j < path.length && path[j] !== '.' && path[j] !== '[') j++;
      const name = path.slice(i + 1, j);
      if (name === '' || name === '*') return undefined;
      segs.push(name);
      i = j;
    } else if (c === '[') {
      const q = path[i + 1];
      if (q === "'" || q === '"') {
        let j = i + 2;
        let name = '';
        while (j < path.length && path[j] !== q) {
          if (path[j] === '\\') {
            const e = path[j + 1];
            if (e === undefined) return undefined;
            name += e === 'n' ? '\n' : e === 't' ? '\t' : e;
            j += 2;
          } else name += path[j++];
        }
        if (path[j] !== q || path[j + 1] !== ']') return undefined;
        segs.push(name);
        i = j + 2;
      } else {
        const end = path.indexOf(']', i);
        const digits = end < 0 ? '' : path.slice(i + 1, end);
        if (!/^(0|[1-9][0-9]*)$/.test(digits)) return undefined;
        segs.push(Number(digits));
        i = end + 1;
      }
    } else return undefined;
  }
  return segs;
}
