/**
 * The last step of every generated request builder: providerOptions underneath, the mapped
 * standard fields over them (standard fields win, with a warning), and the fields this kind of
 * call forces (e.g. `stream: true`) on top.
 */
import type { Warnings } from './warnings.js';
import { deepMerge, sanitize } from './safe-merge.js';

export function finalizeBody(
  body: Record<string, unknown> | undefined,
  forced: Record<string, unknown>,
  providerOptions: Record<string, unknown> | undefined,
  w: Warnings,
): Record<string, unknown> {
  let out = body ?? {};
  if (providerOptions) {
    const extra = sanitize(providerOptions) as Record<string, unknown>;
    out = deepMerge(extra, out, (path) =>
      w.overridden(`providerOptions.${path}`, `a standard request field sets ${path}; the providerOptions value is ignored`),
    );
  }
  return deepMerge(out, forced);
}
