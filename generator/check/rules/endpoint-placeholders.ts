/**
 * Every `{name}` in the endpoint (base URL, paths, queries, option defaults) is the request's
 * model or an endpoint option the spec declares, and SigV4's region names one: otherwise every
 * request would fail at run time for want of a value no one can give.
 */
import { didYouMean } from '../../diagnostics.js';
import { escapePointer } from '../../load/parse-spec.js';
import type { Finding, SemanticRule } from './rule.js';

export const endpointPlaceholders: SemanticRule = {
  name: 'endpoint-placeholders',
  check(ir) {
    const ep = ir.profile.endpoint;
    const names = ['model', ...Object.keys(ep.options ?? {})];
    const out: Finding[] = [];
    const look = (text: string | undefined, pointer: string) => {
      for (const m of (text ?? '').matchAll(/\{(\w+)\}/g)) {
        if (names.includes(m[1]!)) continue;
        out.push({
          code: 'unknown-placeholder',
          pointer,
          message: `{${m[1]}} is neither the model nor an endpoint option of this spec`,
          hint: didYouMean(m[1]!, names) ?? `declare it under endpoint.options (it has ${names.join(', ')})`,
        });
      }
    };
    look(ep.baseUrl, '/endpoint/baseUrl');
    look(ep.path, '/endpoint/path');
    look(ep.streamPath, '/endpoint/streamPath');
    for (const [k, v] of Object.entries(ep.query ?? {})) look(v, `/endpoint/query/${escapePointer(k)}`);
    for (const [k, v] of Object.entries(ep.streamQuery ?? {})) look(v, `/endpoint/streamQuery/${escapePointer(k)}`);
    for (const [k, o] of Object.entries(ep.options ?? {})) {
      look(o.default, `/endpoint/options/${escapePointer(k)}/default`);
      if (!o.cases) continue;
      if (!ep.options?.[o.cases.on]) out.push({ code: 'unknown-placeholder', pointer: `/endpoint/options/${escapePointer(k)}/cases/on`, message: `"${o.cases.on}" is not an endpoint option of this spec`, hint: didYouMean(o.cases.on, Object.keys(ep.options ?? {})) ?? 'name one of the options it declares' });
      for (const [v, text] of Object.entries(o.cases.values)) look(text, `/endpoint/options/${escapePointer(k)}/cases/values/${escapePointer(v)}`);
    }
    // Defaults may use each other in any order, but not in a circle.
    const refs = (n: string) => {
      const o = ep.options?.[n];
      const texts = [o?.default ?? '', ...Object.values(o?.cases?.values ?? {}), o?.cases ? `{${o.cases.on}}` : ''];
      return texts.flatMap((t) => [...t.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)).filter((x) => ep.options?.[x]);
    };
    for (const start of Object.keys(ep.options ?? {})) {
      const seen = new Set<string>();
      const walk = (n: string): boolean => n === start && seen.size > 0 ? true : seen.has(n) ? false : (seen.add(n), refs(n).some(walk));
      if (refs(start).some(walk)) {
        out.push({ code: 'unknown-placeholder', pointer: `/endpoint/options/${escapePointer(start)}/default`, message: `the default of "${start}" leads back to itself through other options' defaults`, hint: 'give one of them a value that uses no other option' });
        break;
      }
    }
    const { sigv4 } = ep.auth;
    if (sigv4 && !ep.options?.[sigv4.region]) {
      out.push({ code: 'unknown-placeholder', pointer: '/endpoint/auth/sigv4', message: `SigV4 takes its region from the endpoint option "${sigv4.region}", which this spec does not declare`, hint: `declare endpoint.options.${sigv4.region} (e.g. { env: AWS_REGION })` });
    }
    return out;
  },
};
