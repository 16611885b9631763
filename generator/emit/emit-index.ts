/**
 * generated/index.ts: the package entry. The runtime's public surface, the registry of every
 * adapter by id, and `createClient` typed over those ids. In a user's project the registry is the
 * runtime package's built-in adapters plus the user's own, so one `createClient` takes either id.
 */
import type { SpecIR } from '../ir/types.js';
import { banner, moduleIdent } from './emit-module.js';
import { lit } from './code.js';

export interface IndexOptions {
  /** The runtime's public entry, re-exported. */
  runtimeEntry: string;
  kitImport: string;
  /** The spec files this index is generated from, for its banner. */
  specs: string;
  /** The package whose `adapters` this registry extends (a user's project); none in the package itself. */
  builtIn?: string | undefined;
}

export function emitIndex(irs: SpecIR[], options: IndexOptions): string {
  const sorted = [...irs].sort((a, b) => a.id.localeCompare(b.id));
  const builtIn = options.builtIn;
  return [
    banner([options.specs]),
    `import { createRegistry } from ${lit(options.kitImport)};`,
    ...(builtIn ? [`import { adapters as builtIn } from ${lit(builtIn)};`] : []),
    ...sorted.map((ir) => `import { adapter as ${moduleIdent(ir.id)} } from ${lit(`./${ir.id}.js`)};`),
    '',
    `export * from ${lit(options.runtimeEntry)};`,
    '',
    builtIn ? `/** Every provider spec by id: the built-in ones, then this project's (which win on a shared id). */` : '/** Every provider spec, by id. */',
    'export const adapters = {',
    ...(builtIn ? ['  ...builtIn,'] : []),
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

/**
 * generated/loaders.ts (the package only): each built-in spec's module behind its own import(),
 * so an entry that takes a spec id (`wireforge/ai-sdk`) loads only the specs it is asked for and
 * a bundler makes each one its own chunk.
 */
export function emitLoaders(irs: SpecIR[], specs: string): string {
  const sorted = [...irs].sort((a, b) => a.id.localeCompare(b.id));
  return [
    banner([specs]),
    '/** Every built-in spec\'s generated module by id, loaded on first use. */',
    'export const loaders = {',
    ...sorted.map((ir) => `  ${lit(ir.id)}: () => import(${lit(`./${ir.id}.js`)}),`),
    '} as const;',
    '',
    'export type LoadableId = keyof typeof loaders;',
    '',
  ].join('\n');
}

export interface ServeIndexOptions {
  /** The server side's public entry, re-exported. */
  serveEntry: string;
  specs: string;
  /** The package whose `serves` this map extends (a user's project). */
  builtIn?: string | undefined;
}

/**
 * generated/serve.ts: the server side's entry (`wireforge/serve`). The serve runtime, and every
 * spec's `serve` export by id, so a mock server or gateway takes a provider id as the client does.
 */
export function emitServeIndex(irs: SpecIR[], options: ServeIndexOptions): string {
  const sorted = [...irs].sort((a, b) => a.id.localeCompare(b.id));
  const builtIn = options.builtIn;
  return [
    banner([options.specs]),
    ...(builtIn ? [`import { serves as builtIn, bases as builtInBases } from ${lit(builtIn)};`] : []),
    ...sorted.map((ir) => `import { serve as ${moduleIdent(ir.id)} } from ${lit(`./${ir.id}.js`)};`),
    '',
    `export * from ${lit(options.serveEntry)};`,
    '',
    builtIn ? '/** How each provider spec is served, by id: the built-in ones, then this project\'s. */' : '/** How each provider spec is served, by id. */',
    'export const serves = {',
    ...(builtIn ? ['  ...builtIn,'] : []),
    ...sorted.map((ir) => `  ${lit(ir.id)}: ${moduleIdent(ir.id)},`),
    '} as const;',
    '',
    // The gateway answers a caller in a dialect (a spec that extends its listen protocol): this says which extends which.
    builtIn ? '/** The spec each one extends directly, by id: the built-in ones, then this project\'s. */' : '/** The spec each one extends directly, by id (the gateway\'s dialects: docs/serving.md#dialects). */',
    'export const bases: Readonly<Record<string, string>> = {',
    ...(builtIn ? ['  ...builtInBases,'] : []),
    ...sorted.filter((ir) => ir.base !== undefined).map((ir) => `  ${lit(ir.id)}: ${lit(ir.base!)},`),
    '};',
    '',
  ].join('\n');
}
