/**
 * A spec for the bridge: a built-in id (its generated module loaded on first use, so a bundle
 * holds only the specs it asks for) or a generated module of the user's own.
 */
import type { ProviderAdapter } from '../runtime/contract/adapter.js';
import { loaders } from '../generated/loaders.js';
import { hasOwn, isString } from '../runtime/wire/read-path.js';

/** A generated module (`import * as acme from './generated/acme.js'`): what the bridge reads of it. */
export interface SpecModule {
  adapter: ProviderAdapter;
}

export type SpecSource = string | SpecModule;

export const isBuiltIn = (id: string): id is keyof typeof loaders => hasOwn(loaders, id);

export const idOf = (spec: SpecSource): string => (isString(spec) ? spec : spec.adapter.id);

export async function adapterOf(spec: SpecSource): Promise<ProviderAdapter> {
  if (!isString(spec)) return spec.adapter;
  if (!isBuiltIn(spec)) throw new Error(`no built-in spec "${spec}" (pass your generated module)`);
  return (await loaders[spec]()).adapter;
}
