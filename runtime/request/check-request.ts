/**
 * The unified request checked at the boundary, before any wire is built: a call from plain
 * JavaScript (or with `as any`) that does not match the types gets a RequestError naming the
 * path and what is wrong (`messages[0].role: "usr" is not one of …`), never a bare TypeError or a
 * silently shorter request. One walk over the request; no allocation when it is well formed.
 */
import { RequestError } from '../errors.js';
import type { ChatRequest } from '../types.js';

const ROLES = ['system', 'user', 'assistant', 'tool', 'approval'] as const;
const EFFORTS = ['minimal', 'low', 'medium', 'high'] as const;
const FORMATS = ['text', 'json', 'json_schema'] as const;

type Fail = (path: string, message: string) => never;

export function checkRequest(provider: string, req: unknown): asserts req is ChatRequest {
  const fail: Fail = (path, message) => {
    throw new RequestError(provider, path, message);
  };
  if (!isObject(req)) fail('request', `must be an object, got ${describe(req)}`);
  const r = req as Record<string, unknown>;
  if (!Array.isArray(r.messages)) fail('messages', `must be an array of messages, got ${describe(r.messages)}`);
  const messages = r.messages as unknown[];
  if (messages.length === 0) fail('messages', 'must hold at least one message');
  messages.forEach((m, i) => checkMessage(m, `messages[${i}]`, fail));
  optional(r, 'model', 'string', fail);
  optional(r, 'system', 'string', fail);
  optional(r, 'user', 'string', fail);
  optional(r, 'previousResponseId', 'string', fail);
  optional(r, 'store', 'boolean', fail);
  optional(r, 'parallelToolCalls', 'boolean', fail);
  if (r.maxTokens !== undefined && !(Number.isInteger(r.maxTokens) && (r.maxTokens as number) > 0)) fail('maxTokens', `must be a positive integer, got ${describe(r.maxTokens)}`);
  for (const k of ['temperature', 'topP'] as const) {
    if (r[k] !== undefined && !(typeof r[k] === 'number' && Number.isFinite(r[k]))) fail(k, `must be a finite number, got ${describe(r[k])}`);
  }
  if (r.stop !== undefined && !(Array.isArray(r.stop) && r.stop.every((s) => typeof s === 'string'))) fail('stop', `must be an array of strings, got ${describe(r.stop)}`);
  if (r.tools !== undefined) {
    if (!Array.isArray(r.tools)) fail('tools', `must be an array, got ${describe(r.tools)}`);
    (r.tools as unknown[]).forEach((t, i) => checkTool(t, `tools[${i}]`, fail));
  }
  if (r.toolChoice !== undefined) {
    const c = r.toolChoice;
    const named = isObject(c) && typeof c.name === 'string';
    if (!named && !(c === 'auto' || c === 'none' || c === 'required')) fail('toolChoice', `must be "auto", "none", "required" or { name }, got ${describe(c)}`);
  }
  if (r.reasoning !== undefined) {
    if (!isObject(r.reasoning)) fail('reasoning', `must be an object, got ${describe(r.reasoning)}`);
    const x = r.reasoning as Record<string, unknown>;
    if (x.effort !== undefined) oneOf(x.effort, EFFORTS, 'reasoning.effort', fail);
    // -1: the provider decides (Gemini's dynamic thinking budget).
    if (x.budgetTokens !== undefined && !(Number.isInteger(x.budgetTokens) && (x.budgetTokens as number) >= -1)) fail('reasoning.budgetTokens', `must be an integer of at least -1, got ${describe(x.budgetTokens)}`);
    optional(x, 'summary', 'boolean', fail, 'reasoning.');
  }
  if (r.responseFormat !== undefined) {
    if (!isObject(r.responseFormat)) fail('responseFormat', `must be an object, got ${describe(r.responseFormat)}`);
    const f = r.responseFormat as Record<string, unknown>;
    oneOf(f.type, FORMATS, 'responseFormat.type', fail);
    if (f.type === 'json_schema') {
      if (typeof f.name !== 'string') fail('responseFormat.name', `must be a string, got ${describe(f.name)}`);
      if (!isObject(f.schema)) fail('responseFormat.schema', `must be a JSON Schema object, got ${describe(f.schema)}`);
    }
  }
  if (r.metadata !== undefined && !(isObject(r.metadata) && Object.values(r.metadata).every((v) => typeof v === 'string'))) fail('metadata', `must be an object of strings, got ${describe(r.metadata)}`);
  if (r.providerOptions !== undefined && !isObject(r.providerOptions)) fail('providerOptions', `must be an object, got ${describe(r.providerOptions)}`);
}

function checkMessage(m: unknown, at: string, fail: Fail): void {
  if (!isObject(m)) fail(at, `must be a message object, got ${describe(m)}`);
  const x = m as Record<string, unknown>;
  const role = oneOf(x.role, ROLES, `${at}.role`, fail);
  switch (role) {
    case 'system':
      if (typeof x.content !== 'string') fail(`${at}.content`, `must be a string, got ${describe(x.content)}`);
      return;
    case 'user':
      checkContent(x.content, `${at}.content`, fail);
      optional(x, 'name', 'string', fail, `${at}.`);
      return;
    case 'assistant':
      if (x.content !== undefined && x.content !== null && typeof x.content !== 'string') fail(`${at}.content`, `must be a string or null, got ${describe(x.content)}`);
      if (x.thinking !== undefined) {
        if (!Array.isArray(x.thinking)) fail(`${at}.thinking`, `must be an array, got ${describe(x.thinking)}`);
        (x.thinking as unknown[]).forEach((t, j) => {
          if (!isObject(t) || typeof t.text !== 'string') fail(`${at}.thinking[${j}].text`, `must be a string, got ${describe(isObject(t) ? t.text : t)}`);
        });
      }
      if (x.toolCalls !== undefined) {
        if (!Array.isArray(x.toolCalls)) fail(`${at}.toolCalls`, `must be an array, got ${describe(x.toolCalls)}`);
        (x.toolCalls as unknown[]).forEach((c, j) => {
          if (!isObject(c)) fail(`${at}.toolCalls[${j}]`, `must be { id, name, arguments }, got ${describe(c)}`);
          for (const k of ['id', 'name', 'arguments'] as const) if (typeof (c as Record<string, unknown>)[k] !== 'string') fail(`${at}.toolCalls[${j}].${k}`, `must be a string, got ${describe((c as Record<string, unknown>)[k])}`);
        });
      }
      if (x.parts !== undefined && !Array.isArray(x.parts)) fail(`${at}.parts`, `must be an array, got ${describe(x.parts)}`);
      return;
    case 'tool':
      if (typeof x.toolCallId !== 'string') fail(`${at}.toolCallId`, `must be a string, got ${describe(x.toolCallId)}`);
      checkContent(x.content, `${at}.content`, fail);
      optional(x, 'toolName', 'string', fail, `${at}.`);
      optional(x, 'isError', 'boolean', fail, `${at}.`);
      return;
    case 'approval':
      if (typeof x.requestId !== 'string') fail(`${at}.requestId`, `must be a string, got ${describe(x.requestId)}`);
      if (typeof x.approve !== 'boolean') fail(`${at}.approve`, `must be true or false, got ${describe(x.approve)}`);
      optional(x, 'reason', 'string', fail, `${at}.`);
      return;
  }
}

function checkContent(c: unknown, at: string, fail: Fail): void {
  if (typeof c === 'string') return;
  if (!Array.isArray(c)) fail(at, `must be a string or an array of parts, got ${describe(c)}`);
  (c as unknown[]).forEach((p, j) => {
    const where = `${at}[${j}]`;
    if (!isObject(p)) fail(where, `must be a content part, got ${describe(p)}`);
    const type = oneOf(p.type, ['text', 'image'] as const, `${where}.type`, fail);
    if (type === 'text') {
      if (typeof p.text !== 'string') fail(`${where}.text`, `must be a string, got ${describe(p.text)}`);
    } else {
      if (typeof p.url !== 'string' && typeof p.data !== 'string') fail(where, 'an image needs a url or base64 data');
      optional(p, 'mediaType', 'string', fail, `${where}.`);
    }
  });
}

function checkTool(t: unknown, at: string, fail: Fail): void {
  if (!isObject(t)) fail(at, `must be a tool object, got ${describe(t)}`);
  if (typeof t.name !== 'string' || t.name === '') fail(`${at}.name`, `must be a non-empty string, got ${describe(t.name)}`);
  if (t.type === 'provider') {
    if (t.options !== undefined && !isObject(t.options)) fail(`${at}.options`, `must be an object, got ${describe(t.options)}`);
    return;
  }
  if (t.type !== undefined && t.type !== 'function') fail(`${at}.type`, `must be "function" or "provider", got ${describe(t.type)}`);
  if (!isObject(t.parameters)) fail(`${at}.parameters`, `must be a JSON Schema object, got ${describe(t.parameters)}`);
  optional(t, 'description', 'string', fail, `${at}.`);
  optional(t, 'strict', 'boolean', fail, `${at}.`);
}

function optional(o: Record<string, unknown>, key: string, type: 'string' | 'boolean', fail: Fail, prefix = ''): void {
  const v = o[key];
  if (v !== undefined && typeof v !== type) fail(`${prefix}${key}`, `must be a ${type}, got ${describe(v)}`);
}

function oneOf<T extends string>(v: unknown, allowed: readonly T[], path: string, fail: Fail): T {
  if (typeof v === 'string' && (allowed as readonly string[]).includes(v)) return v as T;
  // A value meant for a closed set is quoted (short); other strings never are (they may be user text).
  return fail(path, `${typeof v === 'string' && v.length <= 24 ? JSON.stringify(v) : describe(v)} is not one of ${allowed.join(', ')}`);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
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
