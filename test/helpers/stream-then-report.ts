/**
 * Run as a child process by test/e2e/process-exit.test.ts: streams one turn from the server at
 * argv[2] (which keeps the response open after its terminal event), then reports which
 * resources are still alive. A process with none left exits by itself.
 */
import { adapters, createClientFor } from '../../generated/index.js';

const [, , baseUrl, id] = process.argv;
const client = createClientFor(adapters[id as keyof typeof adapters], { apiKey: 'sk-test-000000000000', baseUrl, maxRetries: 0 });
const final = await client.stream({ model: 'm', messages: [{ role: 'user', content: 'x' }] }).final();
// One turn of the event loop for closes already under way to finish.
await new Promise((resolve) => setImmediate(resolve));
process.stdout.write(JSON.stringify({ text: final.text, resources: process.getActiveResourcesInfo() }));
