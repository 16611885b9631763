/**
 * The names the runtime kit exports, read from its source (runtime/adapter-kit.ts) or, in a user's
 * project, from the declarations the installed package ships: generated modules import exactly the
 * ones they use, from the kit they will run against.
 */
import { readFileSync } from 'node:fs';
import { ts } from 'ts-morph';

const cached = new Map<string, ReadonlySet<string>>();

export function kitNames(file: string | URL = new URL('../../runtime/adapter-kit.ts', import.meta.url)): ReadonlySet<string> {
  const key = String(file);
  const hit = cached.get(key);
  if (hit) return hit;
  const sf = ts.createSourceFile('adapter-kit.ts', readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, false);
  const names = new Set<string>();
  for (const st of sf.statements) {
    if (ts.isExportDeclaration(st) && st.exportClause && ts.isNamedExports(st.exportClause)) {
      for (const el of st.exportClause.elements) names.add(el.name.text);
    } else if ((ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st) || ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st)) && st.name) {
      if (st.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) names.add(st.name.text);
    } else if (ts.isVariableStatement(st) && st.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) {
      // `export const list = (…) => …` (and `export declare const` in shipped declarations).
      for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name)) names.add(d.name.text);
    }
  }
  cached.set(key, names);
  return names;
}
