/**
 * The emitted files, type-checked in memory against the runtime they import, before anything
 * is written: a spec whose code does not type-check is a generator error naming the spec, not
 * something `tsc` finds later.
 */
import { ts } from 'ts-morph';
import { memoryProject } from '../memory-project.js';
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

const run = memoryProject(OPTIONS);

export function typeCheck(files: Map<string, string>, outDir: string, irs: SpecIR[]): Diagnostic[] {
  const { sources, program } = run(files, outDir);
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
