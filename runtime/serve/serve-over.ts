/**
 * An overlay's serve export: its base's with what the overlay changes (a member or a stream step
 * set to undefined is taken away). Generated code calls it as a pure call, so a bundle that never
 * serves leaves the base's serve data out too.
 */
import type { RequestTemplates, ServeCodec, ServeEventTemplate, ServeStep } from '../contract/serve-codec.js';

/** What an overlay changes: members, stream steps, request forms (undefined takes one away). */
export type ServeOverlay = { readonly [K in Exclude<keyof ServeCodec, 'request' | 'stream'>]?: ServeCodec[K] | undefined } & {
  readonly stream?: { readonly [S in ServeStep]?: readonly ServeEventTemplate[] | undefined };
  readonly request?: { readonly [G in keyof RequestTemplates]?: RequestTemplates[G] | undefined };
};

export function serveOver(base: ServeCodec, own: ServeOverlay): ServeCodec {
  const { request, ...members } = own;
  // A step set to undefined is taken away (the writer skips a step with no templates).
  const out: ServeCodec = { ...base, ...members, stream: own.stream ? ({ ...base.stream, ...own.stream } as ServeCodec['stream']) : base.stream };
  return request && base.request ? { ...out, request: mergeForms(base.request, request) } : out;
}

/** Request forms merged group by group and form by form: a group names only the forms it changes. */
function mergeForms(base: RequestTemplates, own: NonNullable<ServeOverlay['request']>): RequestTemplates {
  const out: Record<string, unknown> = { ...base };
  for (const [group, forms] of Object.entries(own)) {
    const was = (base as unknown as Record<string, unknown>)[group];
    out[group] = MAP_GROUPS.has(group) && isMap(forms) && isMap(was) ? { ...was, ...forms } : forms;
  }
  return out as unknown as RequestTemplates;
}

/** Groups that are maps of forms (roles, parts, …); system and tools are one form each. */
const MAP_GROUPS = new Set(['roles', 'parts', 'blocks', 'toolChoice', 'responseFormat', 'params']);

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
