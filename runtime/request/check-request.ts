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

/** The provider of the request being checked (a check runs start to end synchronously). */
let provider = '';

function fail(path: string, message: string): never {
  throw new RequestError(provider, path, message);
}

/** What a value must be, and what it is (`must be a string, got an object`). */
function bad(path: string, must: string, v: unknown): never {
  return fail(path, `must ${must}, got ${describe(v)}`);
}

export function checkRequest(id: string, req: unknown): asserts req is ChatRequest {
  provider = id;
  if (!isObject(req)) bad('request', 'be an object', req);
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
  if (r.maxTokens !== undefined && !(Number.isInteger(r.maxTokens) && (r.maxTokens as number) > 0)) bad('maxTokens', 'be a positive integer', r.maxTokens);
  for (const k of ['temperature', 'topP'] as const) {
    if (r[k] !== undefined && !(typeof r[k] === 'number' && Number.isFinite(r[k]))) bad(k, 'be a finite number', r[k]);
  }
  if (r.stop !== undefined && !(Array.isArray(r.stop) && r.stop.every((s) => typeof s === 'string'))) bad('stop', 'be an array of strings', r.stop);
  if (r.tools !== undefined) {
    if (!Array.isArray(r.tools)) bad('tools', 'be an array', r.tools);
    (r.tools as unknown[]).forEach((t, i) => checkTool(t, `tools[${i}]`));
  }
  if (r.toolChoice !== undefined) {
    const c = r.toolChoice;
    const named = isObject(c) && typeof c.name === 'string';
    if (!named && !(c === 'auto' || c === 'none' || c === 'required')) bad('toolChoice', 'be "auto", "none", "required" or { name }', c);
  }
  if (r.reasoning !== undefined) {
    if (!isObject(r.reasoning)) bad('reasoning', 'be an object', r.reasoning);
    const x = r.reasoning as Record<string, unknown>;
    if (x.effort !== undefined) oneOf(x.effort, EFFORTS, 'reasoning.effort');
    // -1: the provider decides (Gemini's dynamic thinking budget).
    if (x.budgetTokens !== undefined && !(Number.isInteger(x.budgetTokens) && (x.budgetTokens as number) >= -1)) bad('reasoning.budgetTokens', 'be an integer of at least -1', x.budgetTokens);
    optional(x, 'summary', 'boolean', 'reasoning.');
  }
  if (r.responseFormat !== undefined) {
    if (!isObject(r.responseFormat)) bad('responseFormat', 'be an object', r.responseFormat);
    const f = r.responseFormat as Record<string, unknown>;
    oneOf(f.type, FORMATS, 'responseFormat.type');
    if (f.type === 'json_schema') {
      if (typeof f.name !== 'string') bad('responseFormat.name', 'be a string', f.name);
      if (!isObject(f.schema)) bad('responseFormat.schema', 'be a JSON Schema object', f.schema);
    }
  }
  if (r.metadata !== undefined && !(isObject(r.metadata) && Object.values(r.metadata).every((v) => typeof v === 'string'))) bad('metadata', 'be an object of strings', r.metadata);
  if (r.providerOptions !== undefined && !isObject(r.providerOptions)) bad('providerOptions', 'be an object', r.providerOptions);
}

function checkMessage(m: unknown, at: string): void {
  if (!isObject(m)) bad(at, 'be a message object', m);
  const x = m as Record<string, unknown>;
  const role = oneOf(x.role, ROLES, `${at}.role`);
  switch (role) {
    case 'system':
      if (typeof x.content !== 'string') bad(`${at}.content`, 'be a string', x.content);
      return;
    case 'user':
      checkContent(x.content, `${at}.content`);
      optional(x, 'name', 'string', `${at}.`);
      return;
    case 'assistant':
      if (x.content !== undefined && x.content !== null && typeof x.content !== 'string') bad(`${at}.content`, 'be a string or null', x.content);
      if (x.thinking !== undefined) {
        if (!Array.isArray(x.thinking)) bad(`${at}.thinking`, 'be an array', x.thinking);
        (x.thinking as unknown[]).forEach((t, j) => {
          if (!isObject(t) || typeof t.text !== 'string') bad(`${at}.thinking[${j}].text`, 'be a string', isObject(t) ? t.text : t);
        });
      }
      if (x.toolCalls !== undefined) {
        if (!Array.isArray(x.toolCalls)) bad(`${at}.toolCalls`, 'be an array', x.toolCalls);
        (x.toolCalls as unknown[]).forEach((c, j) => {
          if (!isObject(c)) bad(`${at}.toolCalls[${j}]`, 'be { id, name, arguments }', c);
          for (const k of ['id', 'name', 'arguments'] as const) if (typeof (c as Record<string, unknown>)[k] !== 'string') bad(`${at}.toolCalls[${j}].${k}`, 'be a string', (c as Record<string, unknown>)[k]);
        });
      }
      if (x.parts !== undefined && !Array.isArray(x.parts)) bad(`${at}.parts`, 'be an array', x.parts);
      return;
    case 'tool':
      if (typeof x.toolCallId !== 'string') bad(`${at}.toolCallId`, 'be a string', x.toolCallId);
      checkContent(x.content, `${at}.content`);
      optional(x, 'toolName', 'string', `${at}.`);
      optional(x, 'isError', 'boolean', `${at}.`);
      return;
    case 'approval':
      if (typeof x.requestId !== 'string') bad(`${at}.requestId`, 'be a string', x.requestId);
      if (typeof x.approve !== 'boolean') bad(`${at}.approve`, 'be true or false', x.approve);
      optional(x, 'reason', 'string', `${at}.`);
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
    if (type === 'text') {
      if (typeof p.text !== 'string') bad(`${where}.text`, 'be a string', p.text);
    } else {
      if (typeof p.url !== 'string' && typeof p.data !== 'string') fail(where, 'an image needs a url or base64 data');
      optional(p, 'mediaType', 'string', `${where}.`);
    }
  });
}

function checkTool(t: unknown, at: string): void {
  if (!isObject(t)) bad(at, 'be a tool object', t);
  if (typeof t.name !== 'string' || t.name === '') bad(`${at}.name`, 'be a non-empty string', t.name);
  if (t.type === 'provider') {
    if (t.options !== undefined && !isObject(t.options)) bad(`${at}.options`, 'be an object', t.options);
    return;
  }
  if (t.type !== undefined && t.type !== 'function') bad(`${at}.type`, 'be "function" or "provider"', t.type);
  if (!isObject(t.parameters)) bad(`${at}.parameters`, 'be a JSON Schema object', t.parameters);
  optional(t, 'description', 'string', `${at}.`);
  optional(t, 'strict', 'boolean', `${at}.`);
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
