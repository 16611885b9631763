/**
 * The last step of every generated request builder, in layers: the spec's defaults at the
 * bottom, providerOptions over them, the mapped standard fields over those (standard fields win,
 * with a warning), and the fields this kind of call forces (e.g. `stream: true`) on top.
 *
 * The body was built fresh for this call, so the layers are merged into it in place.
 */
import type { Warnings } from './warnings.js';
import { FORBIDDEN_KEYS, isPlainObject, sanitize } from './safe-merge.js';

export function finalizeBody(
  body: Record<string, unknown> | undefined,
  forced: Record<string, unknown>,
  providerOptions: Record<string, unknown> | undefined,
  w: Warnings,
  defaults: Record<string, unknown> | undefined = undefined,
): Record<string, unknown> {
  const out = body ?? {};
  if (providerOptions) {
    fillMissing(out, sanitize(providerOptions) as Record<string, unknown>, '', (path) =>
      w.overridden(`providerOptions.${path}`, `a standard request field sets ${path}; the providerOptions value is ignored`),
    );
  }
  // Spec defaults (required wire fields) fill only what neither the request nor providerOptions set.
  if (defaults) fillMissing(out, defaults, '');
  overwrite(out, forced);
  return out;
}

/** Copy what `target` lacks from `source`, recursing into objects both have; report leaves `target` keeps. */
function fillMissing(target: Record<string, unknown>, source: Record<string, unknown>, prefix: string, onKept?: (path: string) => void): void {
  for (const k of Object.keys(source)) {
    const v = source[k];
    if (v === undefined || FORBIDDEN_KEYS.has(k)) continue;
    const t = target[k];
    if (t === undefined) target[k] = v;
    else if (isPlainObject(t) && isPlainObject(v)) fillMissing(t, v, `${prefix}${k}.`, onKept);
    else onKept?.(`${prefix}${k}`);
  }
}

/** `source` wins at every leaf; objects are copied, never shared with the (constant) source. */
function overwrite(target: Record<string, unknown>, source: Record<string, unknown>): void {
  for (const k of Object.keys(source)) {
    const v = source[k];
    if (v === undefined || FORBIDDEN_KEYS.has(k)) continue;
    const t = target[k];
    if (isPlainObject(v)) {
      const into = isPlainObject(t) ? t : (target[k] = {});
      overwrite(into as Record<string, unknown>, v);
    } else target[k] = v;
  }
}
