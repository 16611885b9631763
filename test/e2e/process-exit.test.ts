/**
 * A finished stream leaves no handle open, so a process that only streamed one turn can exit:
 * the client runs in a child process against a server here that never ends its response
 * after the terminal event. The child must exit by itself, with no socket or timer alive.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { sseResponse, startLoopbackServer, type LoopbackServer } from '../helpers/loopback-server.js';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const event = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
const TURN = [
  event('message_start', { type: 'message_start', message: { id: 'msg_exit', model: 'claude-x', content: [], usage: { input_tokens: 3, output_tokens: 0 } } }),
  event('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
  event('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Bye' } }),
  event('content_block_stop', { type: 'content_block_stop', index: 0 }),
  event('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 1 } }),
  event('message_stop', { type: 'message_stop' }),
].join('');

describe('a process that streamed one turn can exit', () => {
  it('no socket or timer outlives the stream (the child exits by itself)', async () => {
    server = await startLoopbackServer(sseResponse(TURN, { keepOpen: true }));
    const script = fileURLToPath(new URL('../helpers/stream-then-report.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', script, server.url, 'anthropic-messages'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => {
        child.kill();
        resolve(null);
      }, 20_000);
      child.on('exit', (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    expect(err).toBe('');
    expect(code, `the child did not exit by itself; it reported ${out}`).toBe(0);
    const report = JSON.parse(out) as { text: string; resources: string[] };
    expect(report.text).toBe('Bye');
    // No timer is left (the socket may still be closing at that moment: the exit above proves it closed).
    expect(report.resources.filter((r) => r === 'Timeout')).toEqual([]);
  }, 30_000);
});
