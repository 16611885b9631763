/**
 * The emitted files, type-checked in memory against the runtime they import, before anything
 * is written: a spec whose code does not type-check is a generator error naming the spec, not
 * something `tsc` finds later.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Project, ts, type SourceFile } from 'ts-morph';
import type { Diagnostic } from '../diagnostics.js';
import type { SpecIR } from '../ir/types.js';

const OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
  // As strict as a demanding user's project, which compiles the modules generated for its specs.
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  skipLibCheck: true,
  noEmit: true,
  types: [],
};

// One project per process, kept between runs while nothing it read from disk has changed: the
// lib and runtime files are parsed once (a test suite runs the generator dozens of times).
let shared: { project: Project; emitted: SourceFile[]; read: Map<string, string> } | undefined;

function projectFor(): NonNullable<typeof shared> {
  const fresh = shared !== undefined && [...shared.read].every(([file, text]) => existsSync(file) && readFileSync(file, 'utf8') === text);
  if (!fresh) shared = { project: new Project({ compilerOptions: OPTIONS, skipAddingFilesFromTsConfig: true }), emitted: [], read: new Map() };
  for (const sf of shared!.emitted.splice(0)) shared!.project.removeSourceFile(sf);
  return shared!;
}

export function typeCheck(files: Map<string, string>, outDir: string, irs: SpecIR[]): Diagnostic[] {
  const { project, emitted, read } = projectFor();
  const sources = [...files].map(([name, text]) => project.createSourceFile(join(outDir, name), text, { overwrite: true }));
  emitted.push(...sources);
  const program = project.getProgram().compilerObject;
  const mine = new Set(sources.map((sf) => sf.compilerNode.fileName));
  read.clear();
  for (const sf of program.getSourceFiles()) if (!mine.has(sf.fileName) && !program.isSourceFileDefaultLibrary(sf) && existsSync(sf.fileName)) read.set(sf.fileName, sf.text);
  const out: Diagnostic[] = [];
  for (const sf of sources) {
    const name = sf.getBaseName();
    const ir = irs.find((i) => `${i.id}.ts` === name);
    for (const d of [...program.getSyntacticDiagnostics(sf.compilerNode), ...program.getSemanticDiagnostics(sf.compilerNode)]) {
      const pos = d.start === undefined ? undefined : sf.compilerNode.getLineAndCharacterOfPosition(d.start);
      out.push({
        code: 'generated-type-error',
        file: ir?.files[0] ?? name,
        line: 1,
        col: 1,
        pointer: '',
        message: `the code generated for ${name} does not type-check: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}${pos ? ` (generated ${name}:${pos.line + 1}:${pos.character + 1})` : ''}`,
        hint: 'a generator bug or a template the runtime cannot take; report it with the spec',
      });
    }
  }
  return out;
}
