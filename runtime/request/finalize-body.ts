/**
 * The last step of every generated request builder, in layers: the spec's defaults at the
 * bottom, providerOptions over them, the mapped standard fields over those (standard fields win,
 * with a warning), and the fields this kind of call forces (e.g. `stream: true`) on top.
 *
 * The body was built fresh for this call, so the layers are merged into it in place.
 */
import type { Warnings } from './warnings.js';
import { mergeInto, sanitize } from './safe-merge.js';

export const finalizeBody = (
  body: Record<string, unknown> | undefined,
  forced: Readonly<Record<string, unknown>> | undefined,
  providerOptions: Record<string, unknown> | undefined,
  w: Warnings,
  /** Layers that fill only what is still unset, the first winning: carried state, then the spec's defaults. */
  carried?: Record<string, unknown>,
  defaults?: Record<string, unknown>,
): Record<string, unknown> => {
  const out = body ?? {};
  if (providerOptions) {
    mergeInto(out, sanitize(providerOptions) as Record<string, unknown>, true, '', (path) =>
      w.overridden(`providerOptions.${path}`, `a standard request field sets ${path}; the providerOptions value is ignored`),
    );
  }
  // Spec defaults (required wire fields) fill only what neither the request nor providerOptions set.
  if (carried) mergeInto(out, carried, true);
  if (defaults) mergeInto(out, defaults, true);
  if (forced) mergeInto(out, forced, false);
  return out;
};
