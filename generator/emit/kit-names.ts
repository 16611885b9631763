/**
 * The names the runtime kit exports, read from its source (runtime/adapter-kit.ts): generated
 * modules import exactly the ones they use.
 */
import { readFileSync } from 'node:fs';
import { ts } from 'ts-morph';

let cached: ReadonlySet<string> | undefined;

export function kitNames(): ReadonlySet<string> {
  if (cached) return cached;
  const file = new URL('../../runtime/adapter-kit.ts', import.meta.url);
  const sf = ts.createSourceFile('adapter-kit.ts', readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, false);
  const names = new Set<string>();
  for (const st of sf.statements) {
    if (ts.isExportDeclaration(st) && st.exportClause && ts.isNamedExports(st.exportClause)) {
      for (const el of st.exportClause.elements) names.add(el.name.text);
    } else if ((ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st) || ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st)) && st.name) {
      if (st.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) names.add(st.name.text);
    }
  }
  return (cached = names);
}
