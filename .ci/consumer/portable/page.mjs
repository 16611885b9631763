// The browser page's script (bundled with esbuild, served under `script-src 'self'`): the
// portability checks, with proof that the page really may not evaluate strings.
import { runChecks } from './checks.mjs';

const out = document.getElementById('result');
let evalBlocked = false;
try {
  new Function('return 1')();
} catch {
  evalBlocked = true;
}
runChecks().then(
  (done) => {
    out.dataset.status = evalBlocked ? 'ok' : 'failed';
    out.textContent = evalBlocked ? done.join(', ') : 'the page could evaluate a string: the CSP is not in force';
  },
  (e) => {
    out.dataset.status = 'failed';
    out.textContent = e && e.stack ? e.stack : String(e);
  },
);
