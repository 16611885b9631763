/**
 * Tool calls the wire sends in pieces: opened by key, fed argument fragments, completed and
 * closed, or the OpenAI-style fragment that opens its call on first sight. Readers of such wires
 * call these with their assembler; a bundle of wires that send calls whole leaves them out.
 * A key that belongs to an open part block (a server-tool call streaming its input) goes to
 * that block instead.
 */
import { quote, StreamError } from '../errors.js';
import { isText } from './text-buffer.js';
import { keyClash, type OpenCall, type ToolCalls } from './tool-calls.js';
import type { TurnAssembler } from './turn-assembler.js';
import { isString } from '../wire/read-path.js';

/** The part block open at this key, if any. */
const partAt = (a: TurnAssembler, key: unknown) => {
  const more = a.more;
  return more?.openCount && more.has(key) ? more : undefined;
};

/**
 * Opens a call; `key` (the wire's index or item id) tells calls of one turn apart. `initial`:
 * arguments the opening event carries as an object (Anthropic `input`, empty when fragments
 * follow, whole for calls made from code execution), used when no fragment arrives.
 */
export const openToolCall = (a: TurnAssembler, key: unknown, id: unknown, name: unknown, initial?: unknown): void => {
  const calls = a.calls;
  if (partAt(a, key)) keyClash(calls, key);
  if (key !== undefined && key !== null) {
    const existing = calls.byKey.get(key);
    if (existing) {
      if (typeof id === 'string' && id !== existing.id) inconsistent(calls, key, id, existing);
      return;
    }
  }
  const call = calls.create(key, id, name, a.id);
  if (typeof initial === 'object' && initial !== null) call.initial = JSON.stringify(initial);
};

/**
 * The OpenAI-style fragment: the first fragment for a key opens the call (it carries id and
 * name); later ones append. Without a key, a new id starts a new call and no id continues the
 * last one.
 */
export const toolCallDelta = (a: TurnAssembler, key: unknown, id: unknown, name: unknown, fragment: unknown): void => {
  const part = partAt(a, key);
  if (part) return part.appendJson(key, fragment);
  const calls = a.calls;
  let call: OpenCall | undefined;
  if (key !== undefined && key !== null) {
    call = calls.byKey.get(key);
    if (call && isText(id) && id !== call.id) inconsistent(calls, key, id, call);
  } else {
    const last = calls.calls[calls.calls.length - 1];
    call = isText(id) && id !== last?.id ? undefined : last;
  }
  if (!call) {
    if (!isText(id) && !isText(name)) {
      throw new StreamError({
        provider: calls.provider,
        reason: `tool-call fragment for ${key === undefined ? 'a call' : `index ${String(key)}`} that was never opened`,
        excerpt: isString(fragment) ? fragment.slice(0, 80) : undefined,
      });
    }
    call = calls.create(key, id, name, a.id);
  } else if (call.name === '' && typeof name === 'string') {
    call.name = name;
  }
  calls.appendArgs(call, fragment);
};

export const appendToolArguments = (a: TurnAssembler, key: unknown, fragment: unknown): void => {
  const part = partAt(a, key);
  if (part) return part.appendJson(key, fragment);
  const calls = a.calls;
  calls.appendArgs(calls.byKey.get(key) ?? neverOpened(calls, key, fragment), fragment);
};

/** Complete argument text that supersedes the fragments (e.g. a `.done` event). */
export const setToolArguments = (a: TurnAssembler, key: unknown, full: unknown): void => {
  if (typeof full !== 'string') return;
  const call = a.calls.byKey.get(key) ?? neverOpened(a.calls, key, full);
  call.full = full;
  call.fromObject = false;
};

export const setToolArgumentsObject = (a: TurnAssembler, key: unknown, args: unknown): void => {
  if (args === undefined || args === null) return;
  const call = a.calls.byKey.get(key) ?? neverOpened(a.calls, key, undefined);
  call.full = JSON.stringify(args);
  call.fromObject = true;
};

export const setToolSignature = (a: TurnAssembler, key: unknown, signature: unknown): void => {
  const call = a.calls.byKey.get(key);
  if (call && isText(signature)) (call.keep ??= {}).signature = signature;
};

/** The wire item the call came as, kept for the history copy (Responses items go back with their id). */
export const setToolWire = (a: TurnAssembler, key: unknown, wire: unknown): void => {
  const call = a.calls.byKey.get(key);
  if (call && typeof wire === 'object' && wire !== null) (call.keep ??= {}).wire = wire;
};

/** Closes the call, or the part block, open at this key. */
export const closeToolCall = (a: TurnAssembler, key: unknown): void => {
  const part = partAt(a, key);
  if (part) return part.close(key);
  const call = a.calls.byKey.get(key);
  if (call) a.calls.closeCall(call);
};

const neverOpened: (calls: ToolCalls, key: unknown, fragment: unknown) => never = (calls, key, fragment) => {
  throw new StreamError({
    provider: calls.provider,
    reason: `tool-call fragment for index ${String(key)} that was never opened`,
    excerpt: isString(fragment) ? fragment.slice(0, 80) : undefined,
  });
};

const inconsistent: (calls: ToolCalls, key: unknown, id: string, call: OpenCall) => never = (calls, key, id, call) => {
  throw new StreamError({
    provider: calls.provider,
    reason: `two tool calls share index ${String(key)} (ids ${quote(call.id)} and ${quote(id)})`,
  });
};
