/** Tool-call arguments: parsed as JSON, then checked with ajv against the tool's schema. */
import { Ajv, type ValidateFunction } from 'ajv';

export type ArgumentsCheck =
  | { ok: true; value: unknown }
  | { ok: false; errors: Array<{ path: string; message: string }> };

const ajv = new Ajv({ allErrors: true, strict: false });
const compiled = new WeakMap<object, ValidateFunction>();

export function checkArguments(schema: Record<string, unknown>, text: string): ArgumentsCheck {
  let value: unknown;
  try {
    value = JSON.parse(text === '' ? '{}' : text);
  } catch (e) {
    return { ok: false, errors: [{ path: '', message: `not valid JSON (${e instanceof Error ? e.message : String(e)})` }] };
  }
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  if (validate(value)) return { ok: true, value };
  return {
    ok: false,
    errors: (validate.errors ?? []).map((e) => ({
      path: e.instancePath,
      message: e.keyword === 'additionalProperties' ? `${e.message} (${String((e.params as { additionalProperty?: string }).additionalProperty)})` : (e.message ?? 'is invalid'),
    })),
  };
}
