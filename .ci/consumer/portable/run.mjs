// Deno and Bun: the portability checks (checks.mjs) against the installed package.
import { runChecks } from './checks.mjs';

const runtime = globalThis.Deno ? `Deno ${globalThis.Deno.version.deno}` : globalThis.Bun ? `Bun ${globalThis.Bun.version}` : `Node ${process.version}`;
const done = await runChecks();
console.log(`${runtime}: ${done.join(', ')}: ok`);
