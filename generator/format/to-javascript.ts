/**
 * `wireforge gen --js`: the emitted TypeScript compiled to ES modules (`.js`) and declarations
 * (`.d.ts`) by the TypeScript compiler the generator already carries, for a JavaScript project
 * that plain Node imports. Compiled in memory against the runtime the modules import (so the
 * declarations name its types), then formatted like every emitted file: the same specs give the
 * same bytes.
 */
import { ts } from 'ts-morph';
import { memoryProject } from '../memory-project.js';
import { formatCode } from './format-code.js';

const OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
  strict: true,
  skipLibCheck: true,
  declaration: true,
  removeComments: false,
  newLine: ts.NewLineKind.LineFeed,
  types: [],
};

const run = memoryProject(OPTIONS);

/** `name.ts` → `name.js` and `name.d.ts`; a message per file the compiler could not emit. */
export async function toJavaScript(files: ReadonlyMap<string, string>, outDir: string): Promise<{ files: Map<string, string>; problems: string[] }> {
  const names = [...files.keys()];
  const { project, sources: emitted } = run(files, outDir);
  const sources = emitted.map((sf, i) => [names[i]!, sf] as const);
  const out = new Map<string, string>();
  const problems: string[] = [];
  for (const [name, sf] of sources) {
    // One file at a time: the runtime's sources (reached from this repository) are not emitted.
    const result = project.emitToMemory({ targetSourceFile: sf });
    for (const d of result.getDiagnostics()) problems.push(`${name}: ${ts.flattenDiagnosticMessageText(d.compilerObject.messageText, ' ')}`);
    const stem = name.replace(/\.ts$/, '');
    for (const f of result.getFiles()) {
      const ext = f.filePath.endsWith('.d.ts') ? '.d.ts' : f.filePath.endsWith('.js') ? '.js' : undefined;
      if (ext) out.set(`${stem}${ext}`, f.text);
    }
    if (!out.has(`${stem}.js`) || !out.has(`${stem}.d.ts`)) problems.push(`${name}: the compiler wrote no ${out.has(`${stem}.js`) ? 'declarations' : 'JavaScript'}`);
  }
  const formatted = new Map<string, string>();
  for (const name of [...out.keys()].sort()) formatted.set(name, withBanner(await formatCode(out.get(name)!), files.get(name.replace(/\.(d\.ts|js)$/, '.ts'))!));
  return { files: formatted, problems };
}

/** The TypeScript file's opening comment (what generated it, not to edit), where the compiler left it out. */
function withBanner(text: string, source: string): string {
  const banner = /^\/\*\*[\s\S]*?\*\/\n/.exec(source)?.[0];
  return banner && !text.startsWith(banner) ? `${banner}${text}` : text;
}
