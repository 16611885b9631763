/**
 * Provider-run tools (web search, code execution…) for specs that declare them
 * (`tools.provider`, `tools.unknownProviderTool`): a unit their modules supply
 * (`codec.uses.providerTools`). Other wires drop every provider tool with a warning.
 */
import type { ProviderToolsUnit } from '../contract/codec.js';
import type { Profile } from '../contract/profile.js';
import type { ProviderToolSpec } from '../contract/unified-model.js';
import { mergeInto, sanitize } from './safe-merge.js';
import type { Warnings } from './warnings.js';

/** A provider-run tool → its wire object: the spec's form for that name with the request's options over it. */
export function providerTools(t: ProviderToolSpec, i: number, tools: NonNullable<Profile['request']['tools']>, name: string, w: Warnings): unknown {
  const form = tools.provider && Object.hasOwn(tools.provider, t.name) ? tools.provider[t.name] : undefined;
  if (form === undefined) {
    const known = Object.keys(tools.provider ?? {});
    const why = `${name} has no provider tool "${t.name}"${known.length ? ` (it has: ${known.join(', ')})` : ''}`;
    if (tools.unknownProviderTool === 'reject') w.reject(`tools[${i}]`, why);
    return w.drop(`tools[${i}]`, `${why}; it was not sent`);
  }
  // Copies: the spec's forms are shared constants, the body is the caller's.
  const base = sanitize(form) as Record<string, unknown>;
  if (t.options) mergeInto(base, sanitize(t.options) as Record<string, unknown>, false);
  return base;
}

providerTools satisfies ProviderToolsUnit;
