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
      return mk('missing-field', `Missing required field "${missing}"`, e.instancePath);
    }
    case 'type': {
      const want = (e.params as { type: string | string[] }).type;
      return mk('wrong-type', `Expected ${[want].flat().join(' or ')}, got ${jsonType(e.data)}`, e.instancePath);
    }
    case 'enum': {
      const allowed = (e.params as { allowedValues: unknown[] }).allowedValues.map(String);
      const hint = typeof e.data === 'string' ? (didYouMean(e.data, allowed) ?? `one of: ${allowed.join(', ')}`) : `one of: ${allowed.join(', ')}`;
      return mk('bad-value', `${JSON.stringify(e.data)} is not allowed at ${where}`, e.instancePath, hint);
    }
    case 'pattern':
      return mk('bad-value', `${JSON.stringify(e.data)} is not a valid ${describePattern(e)}`, e.instancePath);
    case 'anyOf':
      return mk('wrong-type', `Value at ${where} matches none of the allowed forms`, e.instancePath);
    default:
      return mk('bad-value', `${where} ${e.message ?? 'is invalid'}`, e.instancePath);
  }
}

function describePattern(e: ErrorObject): string {
  return e.schemaPath.includes('/id/') ? 'spec id (lowercase letters, digits, dashes)' : 'value here (a path like a.b[0].c)';
}

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}
