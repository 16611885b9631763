/**
 * The unified request checked at the boundary, before any wire is built: a call from plain
 * JavaScript (or with `as any`) that does not match the types gets a RequestError naming the
 * path and what is wrong (`messages[0].role: "usr" is not one of …`), never a bare TypeError or a
 * silently shorter request. One walk over the request; no allocation when it is well formed.
 */
import { RequestError } from '../errors.js';
import type { ChatRequest } from '../types.js';
import { isObject } from '../wire/read-path.js';

const ROLES = ['system', 'user', 'assistant', 'tool', 'approval'] as const;
const EFFORTS = ['minimal', 'low', 'medium', 'high'] as const;
const FORMATS = ['text', 'json', 'json_schema'] as const;

/** The provider of the request being checked (a check runs start to end synchronously). */
let provider = '';

function fail(path: string, message: string): never {
  throw new RequestError(provider, path, message);
}

/** What a value must be, and what it is (`must be a string, got an object`). */
function bad(path: string, must: string, v: unknown): never {
  return fail(path, `must ${must}, got ${describe(v)}`);
}

const STRING = 'be a string';
const ARRAY = 'be an array';
const SCHEMA = 'be a JSON Schema object';
const OBJECT = 'be an object';
const isString = (v: unknown): v is string => typeof v === 'string';

/** `o[key]` must pass `test` (`prefix` is the path of `o`, with its dot). */
function need(o: Record<string, unknown>, key: string, prefix: string, test: (v: unknown) => boolean, must: string): void {
  if (!test(o[key])) bad(prefix + key, must, o[key]);
}

/** `o[key]`, when set, must pass `test`. */
function maybe(o: Record<string, unknown>, key: string, prefix: string, test: (v: unknown) => boolean, must: string): void {
  if (o[key] !== undefined) need(o, key, prefix, test, must);
}

const isPositiveInteger = (v: unknown) => Number.isInteger(v) && (v as number) > 0;
/** -1: the provider decides (Gemini's dynamic thinking budget). */
const isBudget = (v: unknown) => Number.isInteger(v) && (v as number) >= -1;
const isStrings = (v: unknown) => Array.isArray(v) && v.every(isString);
const isStringMap = (v: unknown) => isObject(v) && Object.values(v).every(isString);

/** An optional list: absent, or an array whose items `each` checks. */
function items(o: Record<string, unknown>, key: string, prefix: string, each: (item: unknown, at: string) => void): void {
  const v = o[key];
  if (v === undefined) return;
  if (!Array.isArray(v)) bad(prefix + key, ARRAY, v);
  v.forEach((item, i) => each(item, `${prefix}${key}[${i}]`));
}

export function checkRequest(id: string, req: unknown): asserts req is ChatRequest {
  provider = id;
  if (!isObject(req)) bad('request', OBJECT, req);
  const r = req as Record<string, unknown>;
  if (!Array.isArray(r.messages)) bad('messages', 'be an array of messages', r.messages);
  const messages = r.messages as unknown[];
  if (messages.length === 0) fail('messages', 'must hold at least one message');
  messages.forEach((m, i) => checkMessage(m, `messages[${i}]`));
  optional(r, 'model', 'string');
  optional(r, 'system', 'string');
  optional(r, 'user', 'string');
  optional(r, 'previousResponseId', 'string');
  optional(r, 'store', 'boolean');
  optional(r, 'parallelToolCalls', 'boolean');
  maybe(r, 'maxTokens', '', isPositiveInteger, 'be a positive integer');
  for (const k of ['temperature', 'topP']) maybe(r, k, '', Number.isFinite, 'be a finite number');
  maybe(r, 'stop', '', isStrings, 'be an array of strings');
  items(r, 'tools', '', checkTool);
  if (r.toolChoice !== undefined) {
    const c = r.toolChoice;
    const named = isObject(c) && typeof c.name === 'string';
    if (!named && !(c === 'auto' || c === 'none' || c === 'required')) bad('toolChoice', 'be "auto", "none", "required" or { name }', c);
  }
  if (r.reasoning !== undefined) {
    need(r, 'reasoning', '', isObject, OBJECT);
    const x = r.reasoning as Record<string, unknown>;
    if (x.effort !== undefined) oneOf(x.effort, EFFORTS, 'reasoning.effort');
    maybe(x, 'budgetTokens', 'reasoning.', isBudget, 'be an integer of at least -1');
    optional(x, 'summary', 'boolean', 'reasoning.');
  }
  if (r.responseFormat !== undefined) {
    need(r, 'responseFormat', '', isObject, OBJECT);
    const f = r.responseFormat as Record<string, unknown>;
    oneOf(f.type, FORMATS, 'responseFormat.type');
    if (f.type === 'json_schema') {
      need(f, 'name', 'responseFormat.', isString, STRING);
      need(f, 'schema', 'responseFormat.', isObject, SCHEMA);
    }
  }
  maybe(r, 'metadata', '', isStringMap, 'be an object of strings');
  maybe(r, 'providerOptions', '', isObject, OBJECT);
}

function checkMessage(m: unknown, at: string): void {
  if (!isObject(m)) bad(at, 'be a message object', m);
  const x = m as Record<string, unknown>;
  const p = `${at}.`;
  const role = oneOf(x.role, ROLES, `${p}role`);
  switch (role) {
    case 'system':
      need(x, 'content', p, isString, STRING);
      return;
    case 'user':
      checkContent(x.content, `${p}content`);
      optional(x, 'name', 'string', p);
      return;
    case 'assistant':
      if (x.content !== undefined && x.content !== null) need(x, 'content', p, isString, 'be a string or null');
      items(x, 'thinking', p, (t, where) => {
        if (!isObject(t) || typeof t.text !== 'string') bad(`${where}.text`, STRING, isObject(t) ? t.text : t);
      });
      items(x, 'toolCalls', p, (c, where) => {
        if (!isObject(c)) bad(where, 'be { id, name, arguments }', c);
        for (const k of ['id', 'name', 'arguments']) need(c as Record<string, unknown>, k, `${where}.`, isString, STRING);
      });
      if (x.parts !== undefined) need(x, 'parts', p, Array.isArray, ARRAY);
      return;
    case 'tool':
      need(x, 'toolCallId', p, isString, STRING);
      checkContent(x.content, `${p}content`);
      optional(x, 'toolName', 'string', p);
      optional(x, 'isError', 'boolean', p);
      return;
    case 'approval':
      need(x, 'requestId', p, isString, STRING);
      need(x, 'approve', p, (v) => typeof v === 'boolean', 'be true or false');
      optional(x, 'reason', 'string', p);
      return;
  }
}

function checkContent(c: unknown, at: string): void {
  if (typeof c === 'string') return;
  if (!Array.isArray(c)) bad(at, 'be a string or an array of parts', c);
  (c as unknown[]).forEach((p, j) => {
    const where = `${at}[${j}]`;
    if (!isObject(p)) bad(where, 'be a content part', p);
    const type = oneOf(p.type, ['text', 'image'] as const, `${where}.type`);
    if (type === 'text') need(p, 'text', `${where}.`, isString, STRING);
    else {
      if (typeof p.url !== 'string' && typeof p.data !== 'string') fail(where, 'an image needs a url or base64 data');
      optional(p, 'mediaType', 'string', `${where}.`);
    }
  });
}

function checkTool(t: unknown, at: string): void {
  if (!isObject(t)) bad(at, 'be a tool object', t);
  const p = `${at}.`;
  need(t, 'name', p, (v) => typeof v === 'string' && v !== '', 'be a non-empty string');
  if (t.type === 'provider') {
    if (t.options !== undefined) need(t, 'options', p, isObject, OBJECT);
    return;
  }
  if (t.type !== undefined && t.type !== 'function') bad(`${p}type`, 'be "function" or "provider"', t.type);
  need(t, 'parameters', p, isObject, SCHEMA);
  optional(t, 'description', 'string', p);
  optional(t, 'strict', 'boolean', p);
}

function optional(o: Record<string, unknown>, key: string, type: 'string' | 'boolean', prefix = ''): void {
  const v = o[key];
  if (v !== undefined && typeof v !== type) bad(`${prefix}${key}`, `be a ${type}`, v);
}

function oneOf<T extends string>(v: unknown, allowed: readonly T[], path: string): T {
  if (typeof v === 'string' && (allowed as readonly string[]).includes(v)) return v as T;
  // A value meant for a closed set is quoted (short); other strings never are (they may be user text).
  return fail(path, `${typeof v === 'string' && v.length <= 24 ? JSON.stringify(v) : describe(v)} is not one of ${allowed.join(', ')}`);
}


/** A value as the message shows it: short, and never a whole user object. */
function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  // Strings may be user text: their length, and a short one that looks like a number or a word.
  if (typeof v === 'string') return /^[\w.-]{1,24}$/.test(v) ? JSON.stringify(v) : `a string of ${v.length} characters`;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : typeof v;
}
