/**
 * Tools whose arguments are described with a schema library (zod 4, valibot, arktype) through
 * the Standard Schema interface: the library validates and types the arguments, and the model
 * gets JSON Schema from the library's Standard JSON Schema side (`~standard.jsonSchema`). The
 * interface types are in runtime/contract/schema.ts (the response schema is typed with them too).
 */
import type { StandardSchemaV1 } from '../contract/schema.js';
import { parseArguments, type ArgumentsCheck } from './check-arguments.js';

export type { InferOutput, StandardIssue, StandardResult, StandardSchemaV1 } from '../contract/schema.js';

export function isStandardSchema(v: unknown): v is StandardSchemaV1 {
  const s = (v as { '~standard'?: { version?: unknown; validate?: unknown } } | null)?.['~standard'];
  // arktype types are functions that carry `~standard`.
  return (typeof v === 'object' || typeof v === 'function') && v !== null && typeof s === 'object' && s !== null && s.version === 1 && typeof s.validate === 'function';
}

/** JSON Schema for the wire, or undefined when the library offers none. */
export function jsonSchemaOf(s: StandardSchemaV1): Record<string, unknown> | undefined {
  const js = s['~standard'].jsonSchema;
  if (js === undefined || typeof js.input !== 'function') return undefined;
  let schema: Record<string, unknown>;
  try {
    schema = js.input({ target: 'draft-2020-12' });
  } catch {
    // A type with no JSON Schema form (a date, a function): as good as no JSON Schema side.
    return undefined;
  }
  // The model needs the shape only; `$schema` is noise on the wire (and some providers reject it).
  const { $schema: _ignored, ...rest } = schema;
  return rest;
}

export async function checkStandard(s: StandardSchemaV1, text: string): Promise<ArgumentsCheck> {
  const parsed = parseArguments(text);
  if (!parsed.ok) return parsed;
  const result = await s['~standard'].validate(parsed.value);
  if (result.issues === undefined) return { ok: true, value: result.value };
  return {
    ok: false,
    errors: result.issues.map((i) => ({
      path: (i.path ?? []).map((p) => `/${String(typeof p === 'object' && p !== null && 'key' in p ? p.key : p)}`).join(''),
      message: i.message,
    })),
  };
}
