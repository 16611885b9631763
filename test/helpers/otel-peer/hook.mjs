// A module resolve hook for a child process: every resolution of @opentelemetry/api is written to
// WF_OTEL_LOG, and with WF_OTEL=missing it fails as for a package that is not installed.
import { appendFileSync } from 'node:fs';

export async function resolve(specifier, context, next) {
  if (specifier === '@opentelemetry/api' || specifier.startsWith('@opentelemetry/api/')) {
    appendFileSync(process.env.WF_OTEL_LOG, `${specifier}\n`);
    if (process.env.WF_OTEL === 'missing') throw Object.assign(new Error(`Cannot find package '${specifier}'`), { code: 'ERR_MODULE_NOT_FOUND' });
  }
  return next(specifier, context);
}
