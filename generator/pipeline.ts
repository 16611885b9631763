/**
 * The generator as pure stages: parse → validate (schema, then semantic rules) → resolve
 * extends → IR → emit → format → file map. Nothing here touches the disk; the CLI does.
 */
import { sortDiagnostics, type Diagnostic } from './diagnostics.js';
import { emitDocs } from './emit/emit-docs.js';
import { emitIndex, emitLoaders, emitServeIndex } from './emit/emit-index.js';
import { emitModule } from './emit/emit-module.js';
import { moduleScope, type ScopeReads } from './emit/emit-reader-part.js';
import { kitNames } from './emit/kit-names.js';
import { typeCheck } from './check/type-check.js';
import { formatCode } from './format/format-code.js';
import { buildIR } from './ir/build-ir.js';
import type { SpecIR } from './ir/types.js';
import { expandShorthand } from './load/expand-shorthand.js';
import { parseSpec, positionOf, type ParsedSpec } from './load/parse-spec.js';
import { locate, resolveAll } from './resolve/resolve-extends.js';
import { checkSchema, specSchema } from './validate/check-schema.js';
import { FILE_RULES, SEMANTIC_RULES } from './check/rules/index.js';
import { serveNotes } from './check/serve-notes.js';

export interface SpecSource {
  /** Path as shown in diagnostics and banners, e.g. specs/anthropic-messages.yaml. */
  file: string;
  text: string;
  /**
   * Where this spec's adapter already exists as a module (a spec shipped with the runtime package,
   * e.g. `wireforge/providers/openai-chat`): a base to extend, not emitted again.
   */
  module?: string;
}

export interface GenerateOptions {
  runtimeImport?: string;
  /** The runtime package's entry the index re-exports; by default the kit's folder's index.js. */
  runtimeEntry?: string;
  /** The module exporting the built-in `adapters` that specs given as modules come from. */
  builtInEntry?: string;
  /** The server side's entry the serve index re-exports; by default the kit's folder's serve/index.js. */
  serveEntry?: string;
  /** The module exporting the built-in `serves`. */
  builtInServes?: string;
  /** Names the kit exports (read from its source or declarations); by default this repository's kit. */
  kitNames?: ReadonlySet<string>;
  /**
   * Type-check the emitted files in memory as if written to this folder (absolute), against the
   * runtime they import; problems are reported as generator errors naming the spec.
   */
  typeCheckAt?: string;
}

export interface GenerateResult {
  /** Output file name (relative to generated/) → contents. Empty when there are diagnostics. */
  files: Map<string, string>;
  /** Generated docs (relative to docs/). */
  docs: Map<string, string>;
  diagnostics: Diagnostic[];
  /** What the server side reads back differently from what a client wrote: notes, never errors. */
  notes: Diagnostic[];
  irs: SpecIR[];
  timings: Record<string, number>;
}

export async function generate(sources: SpecSource[], options: GenerateOptions = {}): Promise<GenerateResult> {
  const runtimeImport = options.runtimeImport ?? '../runtime/adapter-kit.js';
  const timings: Record<string, number> = {};
  const time = <T>(stage: string, fn: () => T): T => {
    const t0 = performance.now();
    try {
      return fn();
    } finally {
      timings[stage] = (timings[stage] ?? 0) + performance.now() - t0;
    }
  };
  const empty = (diagnostics: Diagnostic[]): GenerateResult => ({ files: new Map(), docs: new Map(), diagnostics: sortDiagnostics(diagnostics), notes: [], irs: [], timings });

  const all = time('parse', () => [...sources].sort((a, b) => a.file.localeCompare(b.file)).map((s) => parseSpec(s.file, s.text)));
  // Specs that already exist as modules take part only as bases of the others: one the user's
  // specs do not extend is not judged (a newer package's spec is not this generator's business).
  const modules = new Map(sources.filter((s) => s.module !== undefined).map((s) => [s.file, s.module!]));
  const parsed = modules.size ? withNeededBases(all, modules) : all;
  const diagnostics: Diagnostic[] = parsed.flatMap((p) => p.diagnostics);
  // Every problem in one run: a spec whose shape is wrong still resolves and gets the semantic
  // checks where its document can be read; only what depends on a broken spot is left out.
  const schemaBroken = new Set<string>();
  time('parse', () => {
    for (const p of parsed) {
      if (p.doc === undefined) continue;
      const found = expandShorthand(p);
      if (found.length) schemaBroken.add(p.file);
      diagnostics.push(...found);
    }
  });
  time('validate', () => {
    for (const p of parsed) {
      for (const rule of FILE_RULES) {
        if (p.doc === undefined) break;
        const found = rule.check(p.file, p.doc);
        for (const f of found) diagnostics.push({ code: f.code, message: f.message, hint: f.hint, pointer: f.pointer, file: p.file, ...positionOf(p, f.pointer, f.atKey) });
        if (found.length && rule.fatal) p.doc = undefined;
      }
    }
  });
  time('validate', () => {
    for (const p of parsed) {
      if (p.doc === undefined) continue;
      // An overlay may leave out what its base says; required fields are checked once merged.
      // In an overlay, null removes what the base says, so nulls are not values to check.
      const overlay = typeof (p.doc as { extends?: unknown }).extends === 'string';
      const checked = overlay ? { ...p, doc: withoutNulls(p.doc) } : p;
      const found = checkSchema(checked).filter((d) => !(overlay && d.code === 'missing-field'));
      if (found.length) schemaBroken.add(p.file);
      diagnostics.push(...found);
    }
  });

  const readable = parsed.filter((p) => p.doc !== undefined && typeof (p.doc as { id?: unknown }).id === 'string');
  const builtInIds = all.filter((p) => modules.has(p.file)).flatMap((p) => {
    const id = (p.doc as { id?: unknown } | undefined)?.id;
    return typeof id === 'string' ? [id] : [];
  });
  const { resolved, diagnostics: extendDiagnostics } = time('resolve', () => resolveAll(readable, builtInIds));
  diagnostics.push(...extendDiagnostics);

  time('validate', () => {
    for (const spec of resolved) {
      if (spec.chain.length === 1 || spec.chain.some((c) => schemaBroken.has(c.file))) continue;
      const merged = { file: spec.chain[0]!.file, doc: spec.doc, positions: new Map(), diagnostics: [] };
      const found = checkSchema(merged);
      if (found.length) schemaBroken.add(spec.chain[0]!.file);
      for (const d of found) diagnostics.push({ ...d, ...locate(spec, d.pointer) });
    }
  });

  const irs: SpecIR[] = [];
  const notes: Diagnostic[] = [];
  time('semantic', () => {
    for (const spec of resolved) {
      const broken = spec.chain.some((c) => schemaBroken.has(c.file));
      // Schema problems already said where a broken document is wrong: findings inside the object
      // that holds one would only echo it (a misspelt `parms` makes every param look missing).
      const brokenAt = diagnostics.filter((d) => spec.chain.some((c) => c.file === d.file)).map((d) => d.pointer.slice(0, Math.max(0, d.pointer.lastIndexOf('/'))));
      let ir: SpecIR;
      try {
        ir = buildIR(spec);
      } catch (error) {
        if (broken) continue;
        throw error;
      }
      for (const rule of SEMANTIC_RULES) {
        let findings;
        try {
          findings = rule.check(ir);
        } catch (error) {
          if (broken) continue;
          throw error;
        }
        for (const f of findings) {
          if (broken && brokenAt.some((b) => b === '' || f.pointer === b || f.pointer.startsWith(`${b}/`) || b.startsWith(`${f.pointer}/`))) continue;
          diagnostics.push({ code: f.code, message: f.message, hint: f.hint, pointer: f.pointer, ...locate(spec, f.pointer, f.atKey) });
        }
      }
      irs.push(ir);
      if (!modules.has(spec.chain[0]!.file)) for (const f of serveNotes(ir)) notes.push({ code: f.code, message: f.message, pointer: f.pointer, ...locate(spec, f.pointer) });
    }
  });
  if (diagnostics.length) return empty(diagnostics);

  const raw = time('emit', () => {
    const out = new Map<string, string>();
    const byId = new Map(irs.map((ir) => [ir.id, ir]));
    const moduleOf = (ir: SpecIR): string | undefined => modules.get(ir.files[0]!);
    const names = options.kitNames ?? kitNames();
    // The scope each module's readers hand its rule tables (shared rules), down the extends chain.
    const scopes = new Map<string, ScopeReads | undefined>();
    const scopeOf = (ir: SpecIR | undefined): ScopeReads | undefined => {
      if (!ir) return undefined;
      if (!scopes.has(ir.id)) {
        const base = ir.base ? byId.get(ir.base) : undefined;
        scopes.set(ir.id, moduleScope(ir, base, scopeOf(base)));
      }
      return scopes.get(ir.id);
    };
    for (const ir of irs) {
      if (moduleOf(ir) !== undefined) continue;
      const base = ir.base ? byId.get(ir.base) : undefined;
      out.set(`${ir.id}.ts`, emitModule(ir, base, { runtimeImport, kitNames: names, baseImport: base && (moduleOf(base) ?? `./${base.id}.js`), baseScope: scopeOf(base) }));
    }
    const own = irs.filter((ir) => moduleOf(ir) === undefined);
    const runtimeEntry = options.runtimeEntry ?? runtimeImport.replace(/adapter-kit\.js$/, 'index.js');
    const folder = own[0]?.files[0]?.replace(/[^/]*$/, '') ?? 'specs/';
    out.set('index.ts', emitIndex(own, { runtimeEntry, kitImport: runtimeImport, specs: `${folder}*.yaml`, builtIn: modules.size ? (options.builtInEntry ?? runtimeEntry) : undefined }));
    const serveEntry = options.serveEntry ?? runtimeImport.replace(/adapter-kit\.js$/, 'serve/index.js');
    if (!modules.size) out.set('loaders.ts', emitLoaders(own, `${folder}*.yaml`));
    out.set('serve.ts', emitServeIndex(own, { serveEntry, specs: `${folder}*.yaml`, builtIn: modules.size ? (options.builtInServes ?? serveEntry) : undefined }));
    return out;
  });
  const t0 = performance.now();
  const files = new Map<string, string>();
  for (const name of [...raw.keys()].sort()) files.set(name, await formatCode(raw.get(name)!));
  timings.format = performance.now() - t0;
  if (options.typeCheckAt) {
    const problems = time('typecheck', () => typeCheck(files, options.typeCheckAt!, irs));
    if (problems.length) return empty(problems);
  }
  const docs = time('docs', () => emitDocs(irs.filter((ir) => !modules.has(ir.files[0]!)), specSchema()));
  return { files, docs, diagnostics: [], notes: once(notes), irs, timings };
}

/** Notes in order, each once: a base's note is said where it comes from, not again for every overlay. */
function once(notes: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return sortDiagnostics(notes).filter((n) => {
    const key = `${n.file}:${n.line}:${n.col}:${n.message}`;
    return !seen.has(key) && (seen.add(key), true);
  });
}

/** The specs that are not modules, and the module specs their `extends` chains reach. */
function withNeededBases(parsed: ParsedSpec[], modules: Map<string, string>): ParsedSpec[] {
  const idOf = (p: ParsedSpec): unknown => (p.doc as { id?: unknown } | undefined)?.id;
  const extendsOf = (p: ParsedSpec): unknown => (p.doc as { extends?: unknown } | undefined)?.extends;
  // A spec of the user's shadows a module spec with the same id.
  const own = parsed.filter((p) => !modules.has(p.file));
  const ownIds = new Set(own.map(idOf));
  const byId = new Map(parsed.filter((p) => modules.has(p.file) && !ownIds.has(idOf(p))).map((p) => [idOf(p), p]));
  const needed = new Set<ParsedSpec>();
  for (const p of own) {
    for (let base = byId.get(extendsOf(p)); base && !needed.has(base); base = byId.get(extendsOf(base))) needed.add(base);
  }
  return parsed.filter((p) => !modules.has(p.file) || needed.has(p));
}

function withoutNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutNulls);
  if (typeof v !== 'object' || v === null) return v;
  return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null).map(([k, x]) => [k, withoutNulls(x)]));
}
