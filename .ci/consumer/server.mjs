// A loopback server for the consumer checks: OpenAI Chat Completions (a blocking answer and a
// stream) and Tern, the made-up NDJSON protocol of project/specs/tern.yaml. Records each request.
import { createServer } from 'node:http';

export async function start() {
  const requests = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw);
      requests.push({ url: req.url, headers: req.headers, body });
      if (req.url === '/tern/reply') {
        res.writeHead(200, { 'content-type': 'application/x-ndjson' });
        const lines = [
          { say: 'hello', ref: 't-1', engine: body.engine },
          { say: 'words', bit: 'Hello ' },
          { say: 'words', bit: 'from the tern.' },
          { say: 'bye', why: 'done', spent: { in: 7, out: 5 } },
        ];
        res.end(lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
        return;
      }
      if (body.stream !== true) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: 'c1', model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'Hello from loopback.' }, finish_reason: 'stop' }], usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const piece of ['Hello ', 'from ', 'loopback.']) res.write(`data: ${JSON.stringify({ id: 'c1', model: 'm', choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] })}\n\n`);
      res.write(`data: ${JSON.stringify({ id: 'c1', model: 'm', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`);
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  return { url: `${base}/v1`, ternUrl: base, requests, close: () => new Promise((r) => server.close(r)) };
}
