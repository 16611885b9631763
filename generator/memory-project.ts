/**
 * A ts-morph project kept in memory for the process, for the in-memory type check and `gen --js`:
 * reused while the files it read from disk (the runtime the emitted modules import) are unchanged,
 * so the lib and runtime declarations are parsed once (a test suite runs the generator dozens of
 * times). Each run replaces the previous run's emitted files with its own.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Project, type SourceFile, type ts } from 'ts-morph';

export interface ProjectRun {
  project: Project;
  /** The run's files, in the order given. */
  sources: SourceFile[];
  program: ts.Program;
}

export function memoryProject(options: ts.CompilerOptions): (files: Iterable<[string, string]>, outDir: string) => ProjectRun {
  let shared: { project: Project; emitted: SourceFile[]; read: Map<string, string> } | undefined;
  return (files, outDir) => {
    const fresh = shared !== undefined && [...shared.read].every(([file, text]) => existsSync(file) && readFileSync(file, 'utf8') === text);
    if (!fresh) shared = { project: new Project({ compilerOptions: options, skipAddingFilesFromTsConfig: true }), emitted: [], read: new Map() };
    const { project, emitted, read } = shared!;
    for (const sf of emitted.splice(0)) project.removeSourceFile(sf);
    const sources = [...files].map(([name, text]) => project.createSourceFile(join(outDir, name), text, { overwrite: true }));
    emitted.push(...sources);
    const program = project.getProgram().compilerObject;
    // What it read besides the run's own files and the default lib: a change there makes a new project.
    const mine = new Set(sources.map((sf) => sf.compilerNode.fileName));
    read.clear();
    for (const sf of program.getSourceFiles()) if (!mine.has(sf.fileName) && !program.isSourceFileDefaultLibrary(sf) && existsSync(sf.fileName)) read.set(sf.fileName, sf.text);
    return { project, sources, program };
  };
}
