/**
 * Conformance cases: hand-written expectations beside each spec (specs/cases/<id>.yaml, format in
 * docs/conformance-cases.md, schema in specs/cases.schema.json), run against the generated adapter
 * through the public client only: `createClientFor(adapter, { apiKey, baseUrl, maxRetries: 0 })`
 * talking to a real node:http server on 127.0.0.1 that records each request and answers with the
 * case's body or stream. Nothing here reads a spec file: the expectations come from the cases.
 *
 * One loopback server per test file, started on first use and closed after the file's last test.
 * Every call gets its own URL prefix (`/<token>/…`), so calls never see each other's replies.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { afterAll, describe, it } from 'vitest';
import { LineCounter, parseDocument } from 'yaml';
import * as runtime from '../../runtime/index.js';
import { accessFor } from './client-access.js';
import { streamBodyFor } from './frame-stream.js';
import { createClientFor, ProviderError, RequestError, StreamError, type ChatRequest, type ChatResponse, type StreamEvent } from '../../runtime/index.js';
import { startLoopbackServer, type LoopbackServer, type RecordedRequest, type ScriptedResponse } from './loopback-server.js';

/** What createClientFor takes; named here so the helper does not depend on where the type lives. */
export type Adapter = Parameters<typeof createClientFor>[0];

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCHEMA_PATH = join(ROOT, 'specs', 'cases.schema.json');

// ---------------------------------------------------------------------------------------------
// The format (mirrors specs/cases.schema.json)

export type Mode = 'blocking' | 'stream';
export type SectionName = 'requests' | 'responses' | 'streams' | 'errors';
export const SECTIONS: readonly SectionName[] = ['requests', 'responses', 'streams', 'errors'];

interface CaseBase {
  name: string;
  note?: string;
  skip?: string;
}
export interface RequestCase extends CaseBase {
  mode?: Mode;
  request: ChatRequest;
  body?: unknown;
  match?: 'subset' | 'exact';
  headers?: Record<string, unknown>;
  urlEndsWith?: string;
  rejects?: { field: string };
  /** Exactly these warnings from building the request: by field, or { type, field }. */
  warnings?: Array<string | { type: 'dropped' | 'overridden'; field: string }>;
  /** The provider's own wire: files that inherit this one leave the case out. */
  own?: boolean;
}
export interface ExpectedResult {
  id?: unknown;
  model?: unknown;
  text?: unknown;
  thinking?: unknown;
  toolCalls?: unknown;
  content?: unknown;
  message?: unknown;
  finishReason?: unknown;
  rawFinishReason?: unknown;
  paused?: unknown;
  usage?: unknown;
  warnings?: unknown;
}
interface StreamBody {
  sse?: Array<{ event?: string; id?: string; data: unknown } | { comment: string }>;
  lineEnding?: '\n' | '\r\n';
  ndjson?: unknown[];
  raw?: string;
  contentType?: string;
  chunks?: number;
}
export interface ResponseCase extends CaseBase {
  request?: ChatRequest;
  body?: unknown;
  bodyText?: string;
  headers?: Record<string, string>;
  expect: ExpectedResult;
}
export interface StreamCase extends CaseBase, StreamBody {
  request?: ChatRequest;
  headers?: Record<string, string>;
  expect: ExpectedResult;
  events?: Array<StreamEvent['type']>;
}
export interface ExpectedError {
  class?: string;
  status?: number | null;
  message?: string;
  type?: string | null;
  code?: string | null;
  retryable?: boolean;
  requestId?: string | null;
  partialText?: string | null;
}
export interface ErrorCase extends CaseBase, StreamBody {
  mode?: Mode;
  request?: ChatRequest;
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  bodyText?: string;
  expect: ExpectedError;
}
export interface Inherit {
  from: string;
  sections?: SectionName[];
  except?: Partial<Record<SectionName, string[]>>;
  skip?: Partial<Record<SectionName, Record<string, string>>>;
  why?: string;
}
export interface CasesDoc {
  spec: string;
  sources?: string[];
  inherit?: Inherit[];
  request?: ChatRequest;
  requests?: RequestCase[];
  responses?: ResponseCase[];
  streams?: StreamCase[];
  errors?: ErrorCase[];
}

/** A loaded cases file: the document, where each node is, and everything wrong with it. */
export interface CasesFile {
  /** Repo-relative path, as shown in test names and failures. */
  path: string;
  doc: CasesDoc;
  /** YAML and schema problems, and the checks a schema cannot make; empty when the file is fine. */
  errors: string[];
  /** 1-based line of the node at a path (`['responses', 3]`), when the file has it. */
  lineOf(path: Array<string | number>): number | undefined;
}

// ---------------------------------------------------------------------------------------------
// Loading and validation

let schemaValidator: ValidateFunction | undefined;
function validator(): ValidateFunction {
  schemaValidator ??= new Ajv({ allErrors: true, strict: false }).compile(JSON.parse(readFileSync(SCHEMA_PATH, 'utf8')) as object);
  return schemaValidator;
}

// A file another inherits is loaded once per text, not again for each file that inherits it (the
// OpenAI Chat cases were parsed and checked twice for each of the eight files that inherit them).
const loadedFiles = new Map<string, { text: string; file: CasesFile }>();

/** Loads and checks one cases file. `file` is absolute or relative to the repository root. */
export function loadCasesFile(file: string): CasesFile {
  const absolute = file.startsWith('/') ? file : join(ROOT, file);
  const text = readFileSync(absolute, 'utf8');
  const known = loadedFiles.get(absolute);
  if (known?.text === text) return known.file;
  const loaded = parseCasesFile(absolute, text);
  loadedFiles.set(absolute, { text, file: loaded });
  return loaded;
}

function parseCasesFile(absolute: string, text: string): CasesFile {
  const path = relative(ROOT, absolute).split('\\').join('/');
  const lines = new LineCounter();
  const yamlDoc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const lineOf = (at: Array<string | number>): number | undefined => {
    let node: unknown = yamlDoc.getIn(at, true);
    // A pointer into a missing key: report its parent.
    for (let n = at.length; node === undefined && n > 0; n--) node = yamlDoc.getIn(at.slice(0, n - 1), true);
    const range = (node as { range?: [number, number, number] } | undefined)?.range;
    return range ? lines.linePos(range[0]).line : undefined;
  };
  const errors: string[] = [];
  for (const e of yamlDoc.errors) errors.push(`${path}:${e.linePos?.[0]?.line ?? '?'}: YAML: ${e.message}`);
  const doc = (errors.length ? {} : yamlDoc.toJS()) as CasesDoc;
  const loaded: CasesFile = { path, doc, errors, lineOf };
  if (!errors.length) errors.push(...validateCases(loaded, basename(absolute, '.yaml')));
  return loaded;
}

const parsedFiles = new Map<string, { text: string; doc: CasesDoc }>();
/** A cases file's document alone (the names an inheriting file refers to), parsed once per text. */
function parsedCases(absolute: string): CasesDoc {
  const text = readFileSync(absolute, 'utf8');
  const known = parsedFiles.get(absolute);
  if (known?.text === text) return known.doc;
  const doc = parseDocument(text).toJS() as CasesDoc;
  parsedFiles.set(absolute, { text, doc });
  return doc;
}

/** Schema errors (ajv), then the checks a schema cannot make. Each message starts with `path:line:`. */
export function validateCases(file: Pick<CasesFile, 'path' | 'doc' | 'lineOf'>, expectedId?: string): string[] {
  const { path, doc, lineOf } = file;
  const at = (pointer: Array<string | number>) => `${path}:${lineOf(pointer) ?? '?'}`;
  const validate = validator();
  if (!validate(doc)) return (validate.errors ?? []).map((e) => `${at(pointerOf(e))}: ${describeAjvError(e)}`);

  const out: string[] = [];
  if (expectedId !== undefined && doc.spec !== expectedId) out.push(`${at(['spec'])}: spec is ${JSON.stringify(doc.spec)} but the file is for ${JSON.stringify(expectedId)}`);
  for (const section of SECTIONS) {
    const seen = new Map<string, number>();
    (doc[section] ?? []).forEach((c, i) => {
      const first = seen.get(c.name);
      if (first !== undefined) out.push(`${at([section, i, 'name'])}: ${section} has two cases named ${JSON.stringify(c.name)} (the first is #${first})`);
      else seen.set(c.name, i);
    });
  }
  for (const [i, c] of (doc.errors ?? []).entries()) {
    if (c.status === undefined && c.mode === 'blocking') out.push(`${at(['errors', i, 'mode'])}: an in-stream error needs mode stream`);
  }
  (doc.inherit ?? []).forEach((inh, i) => {
    const parentPath = join(ROOT, dirname(path), `${inh.from}.yaml`);
    if (inh.from === doc.spec) return out.push(`${at(['inherit', i, 'from'])}: a file cannot inherit from itself`);
    if (!existsSync(parentPath)) return out.push(`${at(['inherit', i, 'from'])}: no cases file ${relative(ROOT, parentPath)}`);
    const parent = parsedCases(parentPath);
    for (const section of SECTIONS) {
      const names = new Set((parent[section] ?? []).map((c) => c.name));
      for (const name of inh.except?.[section] ?? []) {
        if (!names.has(name)) out.push(`${at(['inherit', i, 'except', section])}: ${relative(ROOT, parentPath)} has no ${section} case named ${JSON.stringify(name)}`);
      }
      for (const name of Object.keys(inh.skip?.[section] ?? {})) {
        if (!names.has(name)) out.push(`${at(['inherit', i, 'skip', section])}: ${relative(ROOT, parentPath)} has no ${section} case named ${JSON.stringify(name)}`);
        if (inh.except?.[section]?.includes(name)) out.push(`${at(['inherit', i, 'skip', section])}: ${JSON.stringify(name)} is both left out and skipped`);
      }
    }
  });
  return out;
}

function pointerOf(e: ErrorObject): Array<string | number> {
  return e.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

function describeAjvError(e: ErrorObject): string {
  const where = e.instancePath || '/';
  const extra =
    e.keyword === 'additionalProperties'
      ? ` (${JSON.stringify((e.params as { additionalProperty: string }).additionalProperty)})`
      : e.keyword === 'enum'
        ? ` (${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')})`
        : '';
  return `${where} ${e.message ?? e.keyword}${extra} [schema ${e.schemaPath}]`;
}

// ---------------------------------------------------------------------------------------------
// Matching: subset by default, "$absent" / "$any" / {"$oneOf": [...]}

export interface Mismatch {
  path: string;
  message: string;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const show = (v: unknown): string => (v === undefined ? 'nothing' : JSON.stringify(v));

/**
 * Compares an actual value with an expected one and returns every difference. Objects: only the
 * expected keys are checked (`exact`: no other keys either, at every depth); arrays: same length,
 * element by element; scalars: strictly equal. `"$absent"` under a key: the key is missing (or
 * undefined); `"$any"`: present, any value; `{ "$oneOf": [a, b] }`: matches one of them.
 */
export function matchValue(expected: unknown, actual: unknown, options: { exact?: boolean } = {}, path = ''): Mismatch[] {
  const out: Mismatch[] = [];
  const exact = options.exact === true;
  if (expected === '$any') {
    if (actual === undefined) out.push({ path, message: 'expected a value, got nothing' });
    return out;
  }
  if (expected === '$absent') {
    if (actual !== undefined) out.push({ path, message: `expected nothing, got ${show(actual)}` });
    return out;
  }
  if (isPlainObject(expected) && Object.keys(expected).length === 1 && Array.isArray(expected.$oneOf)) {
    const alternatives = expected.$oneOf as unknown[];
    if (!alternatives.some((alt) => matchValue(alt, actual, options, path).length === 0)) {
      out.push({ path, message: `expected one of ${alternatives.map(show).join(' | ')}, got ${show(actual)}` });
    }
    return out;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [{ path, message: `expected an array of ${expected.length}, got ${show(actual)}` }];
    if (actual.length !== expected.length) out.push({ path, message: `expected ${expected.length} item(s), got ${actual.length}: ${show(actual)}` });
    expected.forEach((e, i) => out.push(...matchValue(e, actual[i], options, `${path}/${i}`)));
    return out;
  }
  if (isPlainObject(expected)) {
    if (!isPlainObject(actual)) return [{ path, message: `expected an object, got ${show(actual)}` }];
    for (const [key, e] of Object.entries(expected)) out.push(...matchValue(e, actual[key], options, `${path}/${key}`));
    if (exact) {
      for (const key of Object.keys(actual)) {
        if (!(key in expected) && actual[key] !== undefined) out.push({ path: `${path}/${key}`, message: `unexpected key (match: exact), value ${show(actual[key])}` });
      }
    }
    return out;
  }
  if (!Object.is(expected, actual)) out.push({ path, message: `expected ${show(expected)}, got ${show(actual)}` });
  return out;
}

// ---------------------------------------------------------------------------------------------
// The loopback server, shared by every case of a test file

interface Route {
  reply: ScriptedResponse;
  requests: RecordedRequest[];
}
const routes = new Map<string, Route>();
let serverStarted: Promise<LoopbackServer> | undefined;
let nextToken = 0;

function caseServer(): Promise<LoopbackServer> {
  serverStarted ??= startLoopbackServer((req) => {
    const route = routes.get(req.url.split('/')[1] ?? '');
    if (!route) return { status: 599, body: `no case is waiting for ${req.url}` };
    route.requests.push(req);
    return route.reply;
  });
  return serverStarted;
}

// Registered when a test file imports this module: the file's last step closes the server.
afterAll(async () => {
  const started = serverStarted;
  serverStarted = undefined;
  routes.clear();
  if (started) await (await started).close();
});

/** A fresh URL prefix on the shared server that answers every request with `reply`. */
async function openRoute(reply: ScriptedResponse): Promise<{ baseUrl: string; prefix: string; requests: RecordedRequest[]; close(): void }> {
  const server = await caseServer();
  const token = `c${++nextToken}`;
  const route: Route = { reply, requests: [] };
  routes.set(token, route);
  return { baseUrl: `${server.url}/${token}`, prefix: `/${token}`, requests: route.requests, close: () => routes.delete(token) };
}

/** What the server answers to a request case (and the generic checks): the request is recorded, then refused. */
const PROBE_REPLY: ScriptedResponse = {
  status: 400,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ type: 'error', error: { message: 'wireforge conformance probe: request recorded', type: 'invalid_request_error', code: 'probe' } }),
};

interface Outcome {
  response?: ChatResponse;
  error?: unknown;
  events: StreamEvent[];
}

async function callThrough(adapter: Adapter, baseUrl: string, mode: Mode, request: ChatRequest): Promise<Outcome> {
  const events: StreamEvent[] = [];
  try {
    const client = createClientFor(adapter, { ...accessFor(adapter), apiKey: 'test-key', baseUrl, maxRetries: 0, timeoutMs: 10_000 });
    if (mode === 'blocking') return { response: await client.chat(structuredClone(request)), events };
    const stream = client.stream(structuredClone(request));
    for await (const event of stream) events.push(event);
    return { response: await stream.final(), events };
  } catch (error) {
    return { error, events };
  }
}

function streamReply(c: StreamBody & { headers?: Record<string, string> }, adapter: Adapter): ScriptedResponse {
  let text: string;
  let contentType: string;
  if (c.sse) {
    const eol = c.lineEnding ?? '\n';
    text = c.sse
      .map((e) => {
        if ('comment' in e) return `: ${e.comment}${eol}${eol}`;
        const lines: string[] = [];
        if (e.event !== undefined) lines.push(`event: ${e.event}`);
        if (e.id !== undefined) lines.push(`id: ${e.id}`);
        const data = typeof e.data === 'string' ? e.data : JSON.stringify(e.data);
        for (const line of data.split('\n')) lines.push(`data: ${line}`);
        return lines.map((l) => l + eol).join('') + eol;
      })
      .join('');
    contentType = 'text/event-stream';
  } else if (c.ndjson) {
    text = c.ndjson.map((line) => `${typeof line === 'string' ? line : JSON.stringify(line)}\n`).join('');
    contentType = 'application/x-ndjson';
  } else {
    text = c.raw ?? '';
    contentType = 'text/event-stream';
  }
  // An event-stream spec's `sse:` stream: the same events, each in an event-stream frame (named by its `event:`).
  const framed = adapter.stream.framing === 'event-stream' && c.sse ? streamBodyFor(adapter, text) : undefined;
  if (framed) contentType = framed.contentType;
  const bytes = framed ? framed.body : Buffer.from(text, 'utf8');
  const pieces = Math.max(1, c.chunks ?? 1);
  const size = Math.ceil(bytes.length / pieces);
  const body: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) body.push(bytes.subarray(i, i + size));
  return { status: 200, headers: { 'content-type': c.contentType ?? contentType, ...(c.headers ?? {}) }, body };
}

// ---------------------------------------------------------------------------------------------
// Running a cases file

/** Runs each case for real when set (to see which skipped cases still disagree). */
const RUN_SKIPPED = process.env.WIREFORGE_RUN_SKIPPED === '1';

const DEFAULT_REQUEST: ChatRequest = { model: 'test-model', messages: [{ role: 'user', content: 'Hello' }] };

/** A case that does not hold. Its message names the file, line and case; a stack would only point here. */
class CaseFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CaseFailure';
    this.stack = `CaseFailure: ${message}`;
  }
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return show(error);
  const e = error as Error & Partial<ProviderError>;
  const fields = error instanceof ProviderError ? ` {status: ${e.status}, type: ${show(e.type)}, code: ${show(e.code)}, retryable: ${e.retryable}}` : '';
  return `${error.name}: ${error.message}${fields}`;
}

function pretty(value: unknown): string {
  const text = JSON.stringify(value, (_k, v: unknown) => (v === undefined ? '<undefined>' : v), 2) ?? 'undefined';
  return text.length > 4000 ? `${text.slice(0, 4000)}…` : text;
}

function failWith(where: string, what: string, mismatches: Mismatch[], actual: unknown): never {
  const list = mismatches.map((m) => `  ${m.path || '/'}: ${m.message}`).join('\n');
  throw new CaseFailure(`${where}: ${what}\n${list}\nactual: ${pretty(actual)}`);
}

interface Context {
  adapter: Adapter;
  file: string;
  lineOf: CasesFile['lineOf'];
  /** Set for inherited cases: the file that inherited them. */
  inheritedBy?: string;
  defaultRequest: ChatRequest;
}

function whereOf(ctx: Context, section: SectionName, index: number, name: string): string {
  const line = ctx.lineOf([section, index]);
  const by = ctx.inheritedBy ? ` (inherited by ${ctx.inheritedBy})` : '';
  return `${ctx.file}${line === undefined ? '' : `:${line}`} ${section} › ${JSON.stringify(name)}${by}, spec ${ctx.adapter.id}`;
}

function register(name: string, skip: string | undefined, fn: () => Promise<void>): void {
  if (skip !== undefined && !RUN_SKIPPED) it.skip(`${name} [skipped: ${skip}]`, fn);
  else it(name, fn);
}

/**
 * Registers a vitest test for every case of a cases document (and of the files it inherits from),
 * run against `adapter`. `file` is the document's repo-relative path, named by every failure.
 */
export function runSpecCases(adapter: Adapter, doc: CasesDoc, file: string, options: { lineOf?: CasesFile['lineOf'] } = {}): void {
  const ctx: Context = { adapter, file, lineOf: options.lineOf ?? (() => undefined), defaultRequest: doc.request ?? DEFAULT_REQUEST };
  describe(`${adapter.id}: ${file}`, () => {
    if (doc.spec !== adapter.id) {
      it('is for this spec', () => {
        throw new CaseFailure(`${file} says spec ${JSON.stringify(doc.spec)} but runs against ${adapter.id}`);
      });
      return;
    }
    registerSections(ctx, doc, new Set(SECTIONS), {}, {});
    for (const inh of doc.inherit ?? []) {
      const parentPath = `${dirname(file)}/${inh.from}.yaml`;
      const parent = loadCasesFile(parentPath);
      describe(`inherited from ${parent.path}`, () => {
        if (parent.errors.length) {
          it('the inherited file is valid', () => {
            throw new CaseFailure(parent.errors.join('\n'));
          });
          return;
        }
        if (parent.doc.inherit?.length) {
          it('the inherited file inherits nothing itself', () => {
            throw new CaseFailure(`${parent.path} inherits from ${parent.doc.inherit!.map((i) => i.from).join(', ')}: inherit from that file directly`);
          });
        }
        const parentCtx: Context = { adapter, file: parent.path, lineOf: parent.lineOf, inheritedBy: file, defaultRequest: doc.request ?? parent.doc.request ?? DEFAULT_REQUEST };
        registerSections(parentCtx, parent.doc, new Set(inh.sections ?? SECTIONS), inh.except ?? {}, inh.skip ?? {});
      });
    }
  });
}

type Runner<C> = (ctx: Context, c: C, where: string) => Promise<void>;

function registerSections(
  ctx: Context,
  doc: CasesDoc,
  sections: Set<SectionName>,
  except: Partial<Record<SectionName, string[]>>,
  skips: Partial<Record<SectionName, Record<string, string>>>,
): void {
  const section = <C extends CaseBase>(name: SectionName, cases: C[] | undefined, run: Runner<C>) => {
    if (!sections.has(name) || !cases?.length) return;
    describe(name, () => {
      cases.forEach((c, i) => {
        if ((except[name] ?? []).includes(c.name)) return;
        if (ctx.inheritedBy !== undefined && (c as { own?: boolean }).own === true) return;
        register(c.name, c.skip ?? skips[name]?.[c.name], () => run(ctx, c, whereOf(ctx, name, i, c.name)));
      });
    });
  };
  section('requests', doc.requests, runRequestCase);
  section('responses', doc.responses, runResponseCase);
  section('streams', doc.streams, runStreamCase);
  section('errors', doc.errors, runErrorCase);
}

async function runRequestCase(ctx: Context, c: RequestCase, where: string): Promise<void> {
  const route = await openRoute(PROBE_REPLY);
  try {
    const mode = c.mode ?? 'blocking';
    const outcome = await callThrough(ctx.adapter, route.baseUrl, mode, c.request);
    if (c.rejects) {
      const e = outcome.error;
      if (!(e instanceof RequestError) || e.field !== c.rejects.field) {
        failWith(where, `expected a RequestError for field ${c.rejects.field}`, [], outcome.error === undefined ? { response: outcome.response } : describeError(e));
      }
      if (route.requests.length) failWith(where, 'a refused request must send nothing', [], route.requests.map((r) => r.rawBody));
      return;
    }
    checkBuilt(ctx, c, mode, where);
    const sent = route.requests[0];
    if (!sent) failWith(where, `nothing was sent (${mode})`, [], describeError(outcome.error));
    if (route.requests.length !== 1) failWith(where, `expected one HTTP request, got ${route.requests.length}`, [], route.requests.map((r) => r.url));
    let body: unknown;
    try {
      body = JSON.parse(sent.rawBody);
    } catch {
      failWith(where, 'the request body is not JSON', [], sent.rawBody);
    }
    if (c.body !== undefined) {
      const mismatches = matchValue(c.body, body, { exact: c.match === 'exact' }, '');
      if (mismatches.length) failWith(where, `${mode} request body does not match (${c.match ?? 'subset'})`, mismatches, body);
    }
    if (c.headers) {
      const mismatches = matchValue(c.headers, { ...sent.headers }, {}, '');
      if (mismatches.length) failWith(where, 'request headers do not match', mismatches, sent.headers);
    }
    if (c.urlEndsWith !== undefined) {
      const url = sent.url.slice(route.prefix.length);
      if (!url.endsWith(c.urlEndsWith)) failWith(where, `request URL does not end with ${JSON.stringify(c.urlEndsWith)}`, [], url);
    }
    // The probe answers 400: anything but that error means the call broke after sending.
    if (!(outcome.error instanceof ProviderError) || outcome.error.status !== 400) {
      failWith(where, 'the HTTP 400 answer did not become a ProviderError with status 400', [], describeError(outcome.error));
    }
  } finally {
    route.close();
  }
}

/**
 * What the client does not show when the server answers 400: the request built directly leaves the
 * caller's request untouched, carries the model as a path parameter, and reports its warnings
 * (each a dropped or overridden field with a message; exactly the case's when it lists them).
 */
function checkBuilt(ctx: Context, c: RequestCase, mode: Mode, where: string): void {
  const before = JSON.stringify(c.request);
  const built = ctx.adapter.buildRequest(c.request, mode);
  if (JSON.stringify(c.request) !== before) failWith(where, 'building the request changed the caller\'s request', [], c.request);
  const path = matchValue({ model: c.request.model ?? '$absent' }, built.pathParams, { exact: true }, '/pathParams');
  if (path.length) failWith(where, 'the model is not the path parameter', path, built.pathParams);
  const bad = built.warnings.filter((w) => !['dropped', 'overridden'].includes(w.type) || typeof w.field !== 'string' || !w.field || typeof w.message !== 'string' || !w.message);
  if (bad.length) failWith(where, 'a warning without a type (dropped, overridden), field or message', [], bad);
  if (c.warnings === undefined) return;
  const fieldOf = (w: string | { field: string }) => (typeof w === 'string' ? w : w.field);
  const mismatches = matchValue(c.warnings.map(fieldOf).sort(), built.warnings.map((w) => w.field).sort(), {}, '/warnings');
  for (const w of c.warnings) {
    if (typeof w !== 'string' && !built.warnings.some((b) => b.type === w.type && b.field === w.field)) mismatches.push({ path: '/warnings', message: `no ${w.type} warning for ${w.field}` });
  }
  if (mismatches.length) failWith(where, `${mode} request warnings differ`, mismatches, built.warnings);
}

function checkResult(where: string, what: string, expected: ExpectedResult, outcome: Outcome): void {
  if (outcome.error !== undefined || !outcome.response) {
    const partial = (outcome.error as { partial?: unknown } | undefined)?.partial;
    failWith(where, `${what} failed: ${describeError(outcome.error)}`, [], partial === undefined ? null : { partial });
  }
  const mismatches = matchValue(expected, outcome.response, {}, '');
  if (mismatches.length) {
    const { raw: _raw, ...shown } = outcome.response;
    failWith(where, `${what}: the unified result does not match`, mismatches, shown);
  }
}

async function runResponseCase(ctx: Context, c: ResponseCase, where: string): Promise<void> {
  const route = await openRoute({
    status: 200,
    headers: { 'content-type': 'application/json', ...(c.headers ?? {}) },
    body: c.bodyText ?? JSON.stringify(c.body),
  });
  try {
    const outcome = await callThrough(ctx.adapter, route.baseUrl, 'blocking', c.request ?? ctx.defaultRequest);
    checkResult(where, 'chat()', c.expect, outcome);
  } finally {
    route.close();
  }
}

async function runStreamCase(ctx: Context, c: StreamCase, where: string): Promise<void> {
  const route = await openRoute(streamReply(c, ctx.adapter));
  try {
    const outcome = await callThrough(ctx.adapter, route.baseUrl, 'stream', c.request ?? ctx.defaultRequest);
    checkResult(where, 'stream().final()', c.expect, outcome);
    if (c.events) {
      // When usage is reported mid-stream is the runtime's choice: usage events count only when the case lists one.
      const types = outcome.events.map((e) => e.type).filter((t) => t !== 'usage' || c.events!.includes('usage'));
      const mismatches = matchValue(c.events, types, {}, '/events');
      if (mismatches.length) failWith(where, 'stream event types differ', mismatches, types);
    }
  } finally {
    route.close();
  }
}

async function runErrorCase(ctx: Context, c: ErrorCase, where: string): Promise<void> {
  const inStream = c.status === undefined;
  const reply: ScriptedResponse = inStream
    ? streamReply(c, ctx.adapter)
    : { status: c.status, headers: { 'content-type': 'application/json', ...(c.headers ?? {}) }, body: c.bodyText ?? (c.body === undefined ? '' : JSON.stringify(c.body)) };
  const route = await openRoute(reply);
  try {
    const mode = inStream ? 'stream' : (c.mode ?? 'blocking');
    const outcome = await callThrough(ctx.adapter, route.baseUrl, mode, c.request ?? ctx.defaultRequest);
    const error = outcome.error;
    if (error === undefined) failWith(where, `expected the call to fail, it returned a response`, [], outcome.response && { ...outcome.response, raw: '…' });
    if (route.requests.length !== 1) failWith(where, `expected exactly one HTTP request (maxRetries 0), got ${route.requests.length}`, [], route.requests.map((r) => r.url));
    const e = error as Partial<ProviderError> & { name?: string; partial?: ChatResponse };
    const actual: Record<string, unknown> = {
      class: e.name,
      status: e.status ?? null,
      message: e.providerMessage ?? (error instanceof Error ? error.message : String(error)),
      type: e.type ?? null,
      code: e.code ?? null,
      retryable: e.retryable,
      requestId: e.requestId ?? null,
      partialText: e.partial?.text ?? null,
    };
    const mismatches = matchValue(c.expect, actual, {}, '');
    const Class = c.expect.class === undefined ? undefined : (runtime as Record<string, unknown>)[c.expect.class];
    if (typeof Class === 'function' && !(error instanceof (Class as new (...args: never[]) => unknown))) {
      mismatches.push({ path: '/class', message: `not an instance of the exported ${c.expect.class}` });
    }
    if (mismatches.length) failWith(where, `the ${mode} error does not match`, mismatches, { ...actual, error: describeError(error) });
  } finally {
    route.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Generic checks: what every spec must do, with or without a cases file

const WEATHER_TOOL = {
  name: 'get_weather',
  description: 'Current weather for a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

/** A small request table every spec must be able to build and send. */
export const GENERIC_REQUESTS: ReadonlyArray<readonly [string, ChatRequest, string[]]> = [
  ['a user text turn', { model: 'test-model', messages: [{ role: 'user', content: 'Hello there' }] }, ['Hello there']],
  [
    'a tool-call history turn (assistant toolCalls + tool result)',
    {
      model: 'test-model',
      tools: [WEATHER_TOOL],
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: null, toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }] },
        { role: 'tool', toolCallId: 'call_1', toolName: 'get_weather', content: 'sunny and 18 degrees' },
      ],
    },
    ['Weather in Paris?', 'get_weather', 'sunny and 18 degrees'],
  ],
  ['tools declared', { model: 'test-model', tools: [WEATHER_TOOL], toolChoice: 'auto', messages: [{ role: 'user', content: 'Weather in Oslo?' }] }, ['Weather in Oslo?', 'get_weather']],
];

/**
 * Registers the generic checks for one adapter: each request of GENERIC_REQUESTS, blocking and
 * streamed, either reaches the server as a JSON object that carries the request's texts and tool
 * names, or is refused before sending with a RequestError raised by this spec (its `provider` is the
 * spec id and its `field` one the request sets). The server answers 400, which must come back as a
 * ProviderError with status 400.
 */
export function runGenericChecks(adapter: Adapter): void {
  describe(`${adapter.id}: generic checks`, () => {
    // Decodes nothing it cannot: a body or stream with none of the spec's fields is a typed error.
    const empty: Array<[string, Mode, ScriptedResponse]> = [
      ['a JSON body with none of its fields', 'blocking', { status: 200, headers: { 'content-type': 'application/json' }, body: '{}' }],
      ['an empty 200 stream', 'stream', { status: 200, headers: { 'content-type': 'text/event-stream' }, body: '' }],
    ];
    for (const [name, mode, reply] of empty) {
      it(`${name} (${mode}) is a StreamError, not a result`, async () => {
        const route = await openRoute(reply);
        try {
          const outcome = await callThrough(adapter, route.baseUrl, mode, GENERIC_REQUESTS[0]![1]);
          if (!(outcome.error instanceof StreamError)) failWith(`generic check ${JSON.stringify(name)}, spec ${adapter.id}`, 'expected a StreamError', [], outcome.error === undefined ? { response: outcome.response } : describeError(outcome.error));
        } finally {
          route.close();
        }
      });
    }
    for (const [name, request, mustCarry] of GENERIC_REQUESTS) {
      for (const mode of ['blocking', 'stream'] as const) {
        it(`${name} (${mode})`, async () => {
          const where = `generic check ${JSON.stringify(name)} (${mode}), spec ${adapter.id}`;
          const route = await openRoute(PROBE_REPLY);
          try {
            const outcome = await callThrough(adapter, route.baseUrl, mode, request);
            const error = outcome.error;
            if (error instanceof RequestError) {
              const root = error.field.split(/[.[]/)[0] ?? '';
              if (error.provider !== adapter.id || !(root in request)) {
                failWith(where, `refused with a RequestError that is not the spec's own (provider ${show(error.provider)}, field ${show(error.field)})`, [], describeError(error));
              }
              if (route.requests.length) failWith(where, 'a refused request must send nothing', [], route.requests.map((r) => r.rawBody));
              return;
            }
            const sent = route.requests[0];
            if (!sent || route.requests.length !== 1) failWith(where, `expected one HTTP request, got ${route.requests.length}`, [], describeError(error));
            if (sent.method !== 'POST') failWith(where, `expected POST, got ${sent.method}`, [], sent.url);
            let body: unknown;
            try {
              body = JSON.parse(sent.rawBody);
            } catch {
              failWith(where, 'the request body is not valid JSON', [], sent.rawBody);
            }
            if (!isPlainObject(body)) failWith(where, 'the request body is not a JSON object', [], body);
            const missing = mustCarry.filter((s) => !sent.rawBody.includes(JSON.stringify(s).slice(1, -1)));
            if (missing.length) failWith(where, `the body does not carry ${missing.map(show).join(', ')}`, [], body);
            if (!(error instanceof ProviderError) || error.status !== 400) {
              failWith(where, 'the HTTP 400 answer did not become a ProviderError with status 400', [], describeError(error));
            }
          } finally {
            route.close();
          }
        });
      }
    }
  });
}
