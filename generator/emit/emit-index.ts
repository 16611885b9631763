/** generated/index.ts: the registry the runtime's createClient reads, one entry per spec id. */
import type { SpecIR } from '../ir/types.js';
import { banner } from './emit-adapter.js';
import { lit } from './code.js';

export function emitIndex(irs: SpecIR[], runtimeImport: string): string {
  const sorted = [...irs].sort((a, b) => a.id.localeCompare(b.id));
  const ident = (id: string) => id.replace(/-([a-z0-9])/g, (_m, c: string) => c.toUpperCase()).replace(/^([0-9])/, '_$1');
  return [
    banner(['specs/*.yaml']),
    `import type { ProviderAdapter } from ${lit(runtimeImport)};`,
    ...sorted.map((ir) => `import { adapter as ${ident(ir.id)} } from ${lit(`./${ir.id}.js`)};`),
    '',
    '/** Every provider spec, by id. */',
    'export const adapters = {',
    ...sorted.map((ir) => `  ${lit(ir.id)}: ${ident(ir.id)},`),
    '} as const satisfies Record<string, ProviderAdapter>;',
    '',
    'export type ProviderId = keyof typeof adapters;',
    '',
  ].join('\n');
}
