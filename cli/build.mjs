// Builds the CLI package: the generator compiled (with the few runtime modules it shares: the
// profile's tables, the kit version), its doc templates and the spec schema it validates with.
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';

const here = new URL('./', import.meta.url);
const root = new URL('../', import.meta.url);
rmSync(new URL('dist', here), { recursive: true, force: true });
const tsc = createRequire(new URL('package.json', root)).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', new URL('tsconfig.build.json', here).pathname], { stdio: 'inherit' });
cpSync(new URL('generator/emit/templates', root), new URL('dist/generator/emit/templates', here), { recursive: true });
cpSync(new URL('specs/spec.schema.json', root), new URL('dist/specs/spec.schema.json', here));
cpSync(new URL('LICENSE', root), new URL('LICENSE', here));
