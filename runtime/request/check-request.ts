/**
 * The unified request checked at the boundary, before any wire is built: a call from plain
 * JavaScript (or with `as any`) that does not match the types gets a RequestError naming the
 * path and what is wrong (`messages[0].role: "usr" is not one of …`), never a bare TypeError or a
 * silently shorter request. A key no table names is an error too (`temprature: unknown key (did
 * you mean "temperature"?)`): dropped, it would be a setting the caller believes is sent. The
 * shape is data (one table per object of types.ts); one walk over the request, and no allocation
 * when it is well formed.
 */
import { quote, RequestError } from '../errors.js';
import type { ChatRequest } from '../contract/unified-model.js';
import { entries, hasOwn, isArray, isInteger, isObject, isString, keys, values } from '../wire/read-path.js';
import { nearest } from './did-you-mean.js';

/** The provider of the request being checked (a check runs start to end synchronously). */
let provider = '';

// Typed where declared: a call narrows what follows only through a declared `never`.
const fail: (path: string, message: string) => never = (path, message) => {
  throw new RequestError(provider, path, message);
};

/** What a value must be, and what it is (`must be a string, got an object`). */
const bad: (path: string, must: string, v: unknown) => never = (path, must, v) => {
  return fail(path, `must be ${must}, got ${describe(v)}`);
};

/** Each kind of field: its test, and what the message says it must be. */
const KINDS = {
  string: [isString, 'a string'],
  name: [(v) => isString(v) && v !== '', 'a non-empty string'],
  boolean: [(v) => typeof v === 'boolean', 'true or false'],
  number: [Number.isFinite, 'a finite number'],
  count: [(v) => isInteger(v) && (v as number) > 0, 'a positive integer'],
  // -1: the provider decides (Gemini's dynamic thinking budget).
  budget: [(v) => isInteger(v) && (v as number) >= -1, 'an integer of at least -1'],
  strings: [(v) => isArray(v) && v.every(isString), 'an array of strings'],
  stringMap: [(v) => isObject(v) && values(v).every(isString), 'an object of strings'],
  object: [isObject, 'an object'],
  schema: [isObject, 'a JSON Schema object'],
  array: [isArray, 'an array'],
  text: [(v) => v === null || isString(v), 'a string or null'],
} satisfies Record<string, [(v: unknown) => boolean, string]>;

/** The kinds by name, required (`!kind`) or not: no string work per field. */
const BY_NAME: Record<string, [(v: unknown) => boolean, string]> = {};
for (const [name, kind] of entries(KINDS)) BY_NAME[name] = BY_NAME[`!${name}`] = kind;

/**
 * A field: a kind (optional; `!kind` is required), a list of allowed strings (optional), or a
 * check of its own (called with the value, set or not).
 */
type Field = keyof typeof KINDS | `!${keyof typeof KINDS}` | readonly string[] | ((v: unknown, at: string) => void);
type Shape = Readonly<Record<string, Field>>;
type Check = (v: unknown, at: string) => void;

/**
 * A key no shape names: a typo (`temprature`) or a field of another API (`max_tokens`) would
 * otherwise be dropped without a word. `tag` is the key that picked the shape (`role`, `type`).
 */
export const unknownKeys = (id: string, o: object, known: object, prefix: string, tag?: string): void => {
  provider = id;
  for (const key in o) {
    if (hasOwn(known, key) || key === tag) continue;
    const near = nearest(key, [...keys(known), tag]);
    fail(prefix + key, `unknown key${near ? ` (did you mean "${near}"?)` : ''}`);
  }
};

/** `o` (an object, at `prefix`) against `shape`; `tag` is the key that picked the shape. */
const check = (o: Record<string, unknown>, shape: Shape, prefix: string, tag?: string): void => {
  unknownKeys(provider, o, shape, prefix, tag);
  for (const key in shape) {
    const field = shape[key]!;
    const v = o[key];
    // The path is made only where it is used: no string work for a well-formed field.
    if (typeof field === 'function') field(v, prefix + key);
    else if (v === undefined && field[0] !== '!') continue;
    else if (typeof field !== 'string') oneOf(v, field, prefix + key);
    else {
      const [test, must] = BY_NAME[field]!;
      if (!test(v)) bad(prefix + key, must, v);
    }
  }
};

/** A list item: an object of this shape; `what` names it when it is not an object. */
const item =
  (what: string, shape: Shape): Check =>
  (v, at) => {
    if (!isObject(v)) bad(at, what, v);
    check(v, shape, `${at}.`);
  };

/** An optional field, checked by `each` when it is set. */
const optional =
  (each: Check): Check =>
  (v, at) =>
    v === undefined || each(v, at);

/**
 * An object whose `key` picks its shape (a message by role, a part by type); `what` names it when
 * it is not an object; without the key it is `fallback`, if there is one. Returns the key.
 */
const variant =
  (what: string, key: string, shapes: Readonly<Record<string, Shape>>, fallback?: string) => {
    const names = keys(shapes);
    return (v: unknown, at: string): string => {
      if (!isObject(v)) bad(at, what, v);
      const k = v[key] === undefined && fallback ? fallback : oneOf(v[key], names, `${at}.${key}`);
      check(v, shapes[k]!, `${at}.`, key);
      return k;
    };
  };

/** An optional list, each item checked by `each`. */
const list =
  (each: Check): Check =>
  (v, at) => {
    if (v === undefined) return;
    if (!isArray(v)) bad(at, 'an array', v);
    v.forEach((item, i) => each(item, `${at}[${i}]`));
  };

const part = variant('a content part', 'type', { text: { text: '!string', cacheControl: 'object' }, image: { url: 'string', data: 'string', mediaType: 'string', cacheControl: 'object' } });

const content: Check = (v, at) => {
  if (isString(v)) return;
  if (!isArray(v)) bad(at, 'a string or an array of parts', v);
  v.forEach((p: Record<string, unknown>, j) => {
    const where = `${at}[${j}]`;
    if (part(p, where) === 'image' && !isString(p.url) && !isString(p.data)) fail(where, 'an image needs a url or base64 data');
  });
};

const message = variant('a message object', 'role', {
  system: { content: '!string' },
  user: { content, name: 'string' },
  assistant: {
    content: 'text',
    thinking: list(item('a thinking part', { text: '!string', signature: 'string', redacted: 'string', id: 'string', format: 'string', summary: 'boolean' })),
    toolCalls: list(item('{ id, name, arguments }', { id: '!string', name: '!string', arguments: '!string', signature: 'string', argumentsError: 'string', kind: 'string', wire: 'object' })),
    parts: 'array',
    origin: 'object',
  },
  tool: { toolCallId: '!string', content, toolName: 'string', isError: 'boolean', kind: 'string' },
  approval: { requestId: '!string', approve: '!boolean', reason: 'string' },
});

const eachMessage = list(message);
const ONE_TOOL: Shape = { name: 'string' };

const REQUEST: Shape = {
  messages: (v, at) => {
    if (!isArray(v)) bad(at, 'an array of messages', v);
    if (v.length === 0) fail(at, 'must hold at least one message');
    eachMessage(v, at);
  },
  model: 'string',
  system: 'string',
  user: 'string',
  previousResponseId: 'string',
  store: 'boolean',
  parallelToolCalls: 'boolean',
  maxTokens: 'count',
  temperature: 'number',
  topP: 'number',
  stop: 'strings',
  tools: list(
    variant(
      'a tool object',
      'type',
      { function: { name: '!name', parameters: '!schema', description: 'string', strict: 'boolean', cacheControl: 'object' }, provider: { name: '!name', options: 'object' } },
      'function',
    ),
  ),
  toolChoice: (c, at) => {
    if (isObject(c) && isString(c.name)) check(c, ONE_TOOL, `${at}.`);
    else if (c !== undefined && c !== 'auto' && c !== 'none' && c !== 'required') bad(at, '"auto", "none", "required" or { name }', c);
  },
  reasoning: optional(item('an object', { effort: ['minimal', 'low', 'medium', 'high'], budgetTokens: 'budget', summary: 'boolean' })),
  responseFormat: optional((f, at) => formats(f, at)),
  metadata: 'stringMap',
  providerOptions: 'object',
};

// A schema on `json` asks for a typed reply, which the structured layer reads (and takes off before this check): a client without it refuses one rather than ignore it.
const unread: Check = (v, at) => v === undefined || fail(at, 'needs a createClient() client (or withStructuredOutput)');
const formats = variant('an object', 'type', { text: {}, json: { schema: unread }, json_schema: { name: '!string', schema: '!schema', strict: 'boolean' } });

// The client's defaults: any request field but the messages.
const { messages: _, ...DEFAULTS } = REQUEST;

export const checkRequest: (id: string, req: unknown) => asserts req is ChatRequest = (id, req) => {
  provider = id;
  if (!isObject(req)) bad('request', 'an object', req);
  check(req, REQUEST, '');
};

/** createClient's `defaults`, when the client is made. */
export const checkDefaults = (id: string, defaults: object): void => {
  provider = id;
  check(defaults as Record<string, unknown>, DEFAULTS, 'defaults.');
};

const oneOf = (v: unknown, allowed: readonly string[], path: string): string => {
  if (isString(v) && allowed.includes(v)) return v;
  return fail(path, `${describe(v)} is not one of ${allowed.join(', ')}`);
};

/** A value as the message shows it: short, and never a whole user object. */
const describe = (v: unknown): string => {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  // Strings may be user text: their length, and a short one that looks like a number or a word.
  if (isString(v)) return /^[\w.-]{0,24}$/.test(v) ? quote(v) : `a string of ${v.length} characters`;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : typeof v;
};
