/**
 * Tool-call arguments: parsed as JSON, then checked against the tool's schema by a validator
 * that interprets the schema (no code generated from strings, so it runs where eval is refused:
 * Cloudflare Workers, Vercel Edge, strict CSP pages). It is loaded on the first call that has a
 * schema to check, so code that uses no tools never loads it.
 */
import type { Validator } from '@cfworker/json-schema';

export type ArgumentsCheck =
  | { ok: true; value: unknown }
  | { ok: false; errors: Array<{ path: string; message: string }> };

type Draft = ConstructorParameters<typeof Validator>[1];

let load: Promise<typeof import('@cfworker/json-schema')> | undefined;
const validators = new WeakMap<object, Validator>();

/** Errors that only say a sub-schema failed: the sub-schema's own error says what. */
const CONTAINERS = new Set(['properties', 'items', 'prefixItems', 'allOf', '$ref', '$recursiveRef', '$dynamicRef', 'false', 'additionalItems', 'then', 'else']);

/** The argument text as JSON (no text: no arguments), or the check that says why not. */
export function parseArguments(text: string): { ok: true; value: unknown } | Extract<ArgumentsCheck, { ok: false }> {
  try {
    return { ok: true, value: JSON.parse(text === '' ? '{}' : text) };
  } catch (e) {
    return { ok: false, errors: [{ path: '', message: `not valid JSON (${e instanceof Error ? e.message : String(e)})` }] };
  }
}

export async function checkArguments(schema: Record<string, unknown>, text: string): Promise<ArgumentsCheck> {
  const parsed = parseArguments(text);
  if (!parsed.ok) return parsed;
  const value = parsed.value;
  let validator = validators.get(schema);
  if (!validator) {
    const { Validator } = await (load ??= import('@cfworker/json-schema'));
    validator = new Validator(schema as never, draftOf(schema), false);
    validators.set(schema, validator);
  }
  const result = validator.validate(value);
  if (result.valid) return { ok: true, value };
  const leaves = result.errors.filter((e) => !CONTAINERS.has(e.keyword));
  return {
    ok: false,
    errors: (leaves.length ? leaves : result.errors).map((e) => ({ path: decodePointer(e.instanceLocation.replace(/^#/, '')), message: e.error.replace(/\.$/, '') })),
  };
}

/** The draft a schema says it is written in; 2020-12 when it does not say. */
function draftOf(schema: Record<string, unknown>): Draft {
  const s = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (s.includes('draft-04')) return '4';
  if (s.includes('draft-07') || s.includes('draft-06')) return '7';
  if (s.includes('2019-09')) return '2019-09';
  return '2020-12';
}

/** The validator URI-encodes pointer segments (`/na%C3%AFve`): back to a plain JSON Pointer. */
function decodePointer(p: string): string {
  try {
    return decodeURIComponent(p);
  } catch {
    return p;
  }
}
