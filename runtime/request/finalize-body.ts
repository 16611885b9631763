/**
 * The last step of every generated request builder, in layers: the spec's defaults at the
 * bottom, providerOptions over them, the mapped standard fields over those (standard fields win,
 * with a warning), and the fields this kind of call forces (e.g. `stream: true`) on top.
 */
import type { Warnings } from './warnings.js';
import { deepMerge, sanitize } from './safe-merge.js';

export function finalizeBody(
  body: Record<string, unknown> | undefined,
  forced: Record<string, unknown>,
  providerOptions: Record<string, unknown> | undefined,
  w: Warnings,
  defaults: Record<string, unknown> | undefined = undefined,
): Record<string, unknown> {
  let out = body ?? {};
  if (providerOptions) {
    const extra = sanitize(providerOptions) as Record<string, unknown>;
    out = deepMerge(extra, out, (path) =>
      w.overridden(`providerOptions.${path}`, `a standard request field sets ${path}; the providerOptions value is ignored`),
    );
  }
  // Spec defaults (required wire fields) fill only what neither the request nor providerOptions set.
  if (defaults) out = deepMerge(defaults, out);
  return deepMerge(out, forced);
}
