// Bundles worker.ts into one ES module (dist/worker.js) for workerd or wrangler, from the package's
// TypeScript source (esbuild reads it as is). Fails on any Node built-in.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');

/** Refuses Node built-ins: the runtime is web-standard, and one in the bundle is a bug, not something to polyfill. */
const webOnly = {
  name: 'web-only',
  setup(b) {
    b.onResolve({ filter: /^node:|^(fs|path|http|https|net|tls|crypto|stream|buffer|os|child_process|worker_threads|zlib|events|util|url)$/ }, (args) => ({
      errors: [{ text: `the Worker bundle must not import the Node built-in "${args.path}" (from ${path.relative(root, args.importer)})` }],
    }));
  },
};

export async function buildWorker(outfile = path.join(here, 'dist/worker.js'), { minify = true } = {}) {
  const result = await build({
    entryPoints: [path.join(here, 'worker.ts')],
    outfile,
    bundle: true,
    minify,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    conditions: ['workerd', 'worker', 'browser'],
    plugins: [webOnly],
    metafile: true,
    logLevel: 'silent',
  });
  return { outfile, bytes: Object.values(result.metafile.outputs)[0].bytes };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { outfile, bytes } = await buildWorker();
  console.log(`${path.relative(process.cwd(), outfile)}: ${bytes} bytes`);
}
