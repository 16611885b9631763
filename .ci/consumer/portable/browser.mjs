// Headless Chromium (Debian's, driven by playwright-core) runs the portability checks in a page
// served with a strict CSP: `script-src 'self'` (no eval, no inline script). The page's script is
// the installed package bundled by esbuild; nothing is fetched beyond 127.0.0.1.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { chromium } from 'playwright-core';

const CSP = "default-src 'self'; script-src 'self'";
const files = {
  '/': ['text/html', '<!doctype html><meta charset="utf-8"><title>wireforge</title><pre id="result">running</pre><script type="module" src="/page.js"></script>'],
  '/page.js': ['text/javascript', readFileSync(new URL('./dist/page.js', import.meta.url), 'utf8')],
};
const server = createServer((req, res) => {
  const file = files[req.url];
  if (!file) return void res.writeHead(404).end();
  res.writeHead(200, { 'content-type': file[0], 'content-security-policy': CSP });
  res.end(file[1]);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
try {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`http://127.0.0.1:${server.address().port}/`);
  const result = page.locator('#result');
  await page.waitForFunction(() => document.getElementById('result')?.dataset.status, null, { timeout: 30_000 });
  const [status, text] = [await result.getAttribute('data-status'), await result.textContent()];
  if (status !== 'ok' || errors.length) throw new Error(`the page failed: ${text}\n${errors.join('\n')}`);
  console.log(`Chromium ${browser.version()} under "${CSP}": ${text}: ok`);
} finally {
  await browser.close();
  server.close();
}
