/**
 * Stage 2a: the spec document against specs/spec.schema.json (ajv, every error collected).
 * Ajv's errors are rewritten into diagnostics with positions, stable codes and hints.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { readFileSync } from 'node:fs';
import { didYouMean, type Diagnostic, type DiagnosticCode } from '../diagnostics.js';
import { escapePointer, positionOf, type ParsedSpec } from '../load/parse-spec.js';

let compiled: ValidateFunction | undefined;

export function specSchemaPath(): URL {
  return new URL('../../specs/spec.schema.json', import.meta.url);
}

let schema: Record<string, unknown> | undefined;

/** The spec-language schema, read once. */
export function specSchema(): Record<string, unknown> {
  return (schema ??= JSON.parse(readFileSync(specSchemaPath(), 'utf8')) as Record<string, unknown>);
}

function validator(): ValidateFunction {
  if (!compiled) {
    const ajv = new Ajv({ allErrors: true, verbose: true, strict: false });
    compiled = ajv.compile(specSchema());
  }
  return compiled;
}

export function checkSchema(spec: ParsedSpec): Diagnostic[] {
  const validate = validator();
  if (validate(spec.doc)) return [];
  const errors = pruneAlternatives(validate.errors ?? []);
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    const d = toDiagnostic(spec, e);
    const key = `${d.pointer}|${d.code}|${d.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(d);
  }
  return out;
}

/**
 * An `anyOf` failure comes with one error per branch. Keep the branch errors that are deeper
 * than the anyOf itself (they say what is wrong inside the value) and drop the summary; when no
 * branch went deeper, keep only the summary.
 */
function pruneAlternatives(errors: ErrorObject[]): ErrorObject[] {
  const anyOfPaths = new Set(errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath));
  // A value of the wrong type fails its enum or pattern too; the type error says it best.
  const typeErrors = new Set(errors.filter((e) => e.keyword === 'type').map((e) => e.instancePath));
  return errors.filter((e) => {
    if ((e.keyword === 'enum' || e.keyword === 'pattern') && typeErrors.has(e.instancePath)) return false;
    if (e.keyword === 'anyOf') {
      return !errors.some((o) => o !== e && o.instancePath.startsWith(`${e.instancePath}/`) && o.keyword !== 'anyOf');
    }
    for (const p of anyOfPaths) {
      if (e.instancePath === p) return false;
      if (e.instancePath.startsWith(`${p}/`) && e.keyword === 'type' && isNullBranch(e)) return false;
    }
    return true;
  });
}

function isNullBranch(e: ErrorObject): boolean {
  return (e.params as { type?: unknown }).type === 'null';
}

function toDiagnostic(spec: ParsedSpec, e: ErrorObject): Diagnostic {
  const base = { file: spec.file, pointer: e.instancePath };
  const mk = (code: DiagnosticCode, message: string, pointer: string, hint?: string, key = false): Diagnostic => ({
    ...base,
    code,
    message,
    pointer,
    hint,
    ...positionOf(spec, pointer, key),
  });
  const where = e.instancePath || '/';
  switch (e.keyword) {
    case 'additionalProperties': {
      const key = (e.params as { additionalProperty: string }).additionalProperty;
      const allowed = Object.keys((e.parentSchema as { properties?: object }).properties ?? {});
      const hint = didYouMean(key, allowed) ?? (allowed.length ? `allowed here: ${allowed.join(', ')}` : undefined);
      return mk('unknown-key', `Unknown key "${key}"`, `${e.instancePath}/${escapePointer(key)}`, hint, true);
    }
    case 'required': {
      const missing = (e.params as { missingProperty: string }).missingProperty;
      const what = describe((e.parentSchema as { properties?: Record<string, unknown> }).properties?.[missing]);
      return mk('missing-field', `Missing required field "${missing}"`, e.instancePath, `add "${missing}" here${what ? `: ${what}` : ''}`);
    }
    case 'type': {
      const want = [(e.params as { type: string | string[] }).type].flat();
      const values = (e.parentSchema as { enum?: unknown[] }).enum;
      const what = describe(e.parentSchema);
      const hint = values ? `write one of: ${values.map(String).join(', ')}` : `write ${want.map(article).join(' or ')} here${what ? `: ${what}` : ''}`;
      return mk('wrong-type', `Expected ${want.join(' or ')}, got ${jsonType(e.data)}`, e.instancePath, hint);
    }
    case 'enum': {
      const allowed = (e.params as { allowedValues: unknown[] }).allowedValues.map(String);
      const hint = typeof e.data === 'string' ? (didYouMean(e.data, allowed) ?? `one of: ${allowed.join(', ')}`) : `one of: ${allowed.join(', ')}`;
      return mk('bad-value', `${JSON.stringify(e.data)} is not allowed at ${where}`, e.instancePath, hint);
    }
    case 'pattern': {
      const id = e.schemaPath.includes('/id/');
      return mk('bad-value', `${JSON.stringify(e.data)} is not a valid ${id ? 'spec id (lowercase letters, digits, dashes)' : 'value here (a path like a.b[0].c)'}`, e.instancePath, id ? 'write it like acme or acme-chat' : 'write a path like choices.0.delta.content');
    }
    case 'anyOf': {
      const forms = ((e.parentSchema as { anyOf?: unknown[] }).anyOf ?? []).map(formOf).filter((f): f is string => f !== undefined);
      const what = describe(e.parentSchema);
      return mk('wrong-type', `Value at ${where} matches none of the allowed forms`, e.instancePath, forms.length ? `the forms here: ${[...new Set(forms)].join('; ')}` : what ? `expected: ${what}` : undefined);
    }
    default: {
      const what = describe(e.parentSchema);
      return mk('bad-value', `${where} ${e.message ?? 'is invalid'}`, e.instancePath, what ? `expected: ${what}` : undefined);
    }
  }
}

/** A schema's description, short enough for a hint: its first sentence. */
function describe(schema: unknown): string | undefined {
  const text = (schema as { description?: unknown } | undefined)?.description;
  if (typeof text !== 'string' || text === '') return undefined;
  const first = (/^(.*?[.:])(\s|$)/.exec(text)?.[1] ?? text).replace(/[.:]$/, '');
  return first.length > 100 ? `${first.slice(0, first.lastIndexOf(' ', 97))} …` : first;
}

/** One branch of an anyOf, as a hint names it: its description, else its type. */
function formOf(branch: unknown): string | undefined {
  const b = branch as { description?: unknown; type?: unknown; $ref?: unknown; enum?: unknown[] } | undefined;
  if (!b) return undefined;
  if (typeof b.description === 'string') return describe(b);
  if (Array.isArray(b.enum)) return b.enum.map((v) => JSON.stringify(v)).join(' or ');
  if (b.type !== undefined) return [b.type].flat().map(String).map(article).join(' or ');
  if (typeof b.$ref === 'string') return b.$ref.split('/').pop();
  return undefined;
}

const article = (type: string): string => (type === 'object' || type === 'array' || type === 'integer' ? `an ${type}` : type === 'null' ? 'null' : `a ${type}`);

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}
