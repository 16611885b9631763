import * as esbuild from '/work/main/bench/node_modules/esbuild/lib/main.js';
import { gzipSync } from 'node:zlib';
const entry = process.argv[2] ?? `export { createClientFor } from './runtime/index.js'; export { adapter } from './generated/openai-chat.js';`;
const r = await esbuild.build({ stdin: { contents: entry, resolveDir: '/work/main', loader: 'ts', sourcefile: 'e.ts' }, bundle: true, minify: true, format: 'esm', platform: 'browser', target: 'es2022', write: false, metafile: true, logLevel: 'silent', external: process.argv[3] ? [process.argv[3]] : [] });
const code = r.outputFiles[0].contents;
console.log('total', (code.length/1024).toFixed(1), 'gz', (gzipSync(code,{level:9}).length/1024).toFixed(1));
const inputs = Object.values(r.metafile.outputs)[0].inputs;
for (const [f, v] of Object.entries(inputs).sort((a,b)=>b[1].bytesInOutput-a[1].bytesInOutput)) console.log(String(v.bytesInOutput).padStart(6), f);
