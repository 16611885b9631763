/**
 * generated/index.ts: the package entry. The runtime's public surface, the registry of every
 * adapter by id, and `createClient` typed over those ids.
 */
import type { SpecIR } from '../ir/types.js';
import { banner, moduleIdent } from './emit-module.js';
import { lit } from './code.js';

export function emitIndex(irs: SpecIR[], runtimeEntry: string, kitImport: string): string {
  const sorted = [...irs].sort((a, b) => a.id.localeCompare(b.id));
  return [
    banner(['specs/*.yaml']),
    `import { createRegistry } from ${lit(kitImport)};`,
    ...sorted.map((ir) => `import { adapter as ${moduleIdent(ir.id)} } from ${lit(`./${ir.id}.js`)};`),
    '',
    `export * from ${lit(runtimeEntry)};`,
    '',
    '/** Every provider spec, by id. */',
    'export const adapters = {',
    ...sorted.map((ir) => `  ${lit(ir.id)}: ${moduleIdent(ir.id)},`),
    '} as const;',
    '',
    'export type ProviderId = keyof typeof adapters;',
    '',
    'const registry = createRegistry(adapters);',
    '',
    '/** A client for one of these specs; the key defaults to the env var the spec names. */',
    'export const createClient = registry.createClient;',
    '',
  ].join('\n');
}
