/** Ad-hoc profiling: floor vs wireforge decode vs stream() for one body in one process. `cd bench && ../node_modules/.bin/tsx profile.ts anthropic-messages text 30` */
import { makeBody, type Kind, type Protocol } from './bodies.js';
import { chunk, prepare } from './methods.js';

const [protocol = 'anthropic-messages', kind = 'text', runs = '30'] = process.argv.slice(2);
const body = makeBody(protocol as Protocol, kind as Kind, { events: 22_000 });
for (const method of ['floor', 'wf-decode', 'wf-stream'] as const) {
  const run = await prepare(method, body, chunk(body.bytes));
  for (let i = 0; i < 5; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < Number(runs); i++) {
    const t0 = performance.now();
    await run();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  console.log(method.padEnd(10), (times[times.length >> 1] ?? 0).toFixed(2), 'ms');
}
