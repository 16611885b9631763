/** A resolved spec (after extends) must say everything an adapter needs. */
import type { SpecDocument } from '../../load/spec-document.js';
import type { SemanticRule } from './rule.js';

const REQUIRED: Array<[string, (d: SpecDocument) => unknown]> = [
  ['/endpoint/path', (d) => d.endpoint?.path],
  ['/endpoint/auth', (d) => d.endpoint?.auth ?? d.endpoint?.apiKeyOptional],
  ['/request/messages', (d) => d.request?.messages],
  ['/request/messages/roles/user', (d) => d.request?.messages?.roles?.user],
  ['/request/messages/roles/assistant', (d) => d.request?.messages?.roles?.assistant],
  ['/request/messages/roles/tool', (d) => d.request?.messages?.roles?.tool],
  ['/request/system', (d) => d.request?.system],
  ['/response', (d) => d.response],
  ['/stream', (d) => d.stream],
  ['/finish', (d) => d.finish],
  ['/usage/inputTokens', (d) => d.usage?.inputTokens],
  ['/usage/outputTokens', (d) => d.usage?.outputTokens],
];

export const specComplete: SemanticRule = {
  name: 'spec-complete',
  check(ir) {
    const findings = REQUIRED.filter(([, get]) => get(ir.doc) === undefined).map(([pointer]) => ({
      code: 'incomplete-spec' as const,
      pointer: pointer.slice(0, pointer.lastIndexOf('/')),
      message: `Missing ${pointer}: every spec (with what it extends) must say this`,
    }));
    const d = ir.doc;
    if (d.endpoint && d.endpoint.baseUrl === undefined && d.endpoint.baseUrlRequired !== true) {
      findings.push({ code: 'incomplete-spec', pointer: '/endpoint', message: 'Missing /endpoint/baseUrl', hint: 'give a baseUrl, or set baseUrlRequired: true so users must supply one' } as never);
    }
    if (d.request?.system?.placement === 'field' && d.request.system.to === undefined) {
      findings.push({ code: 'incomplete-spec', pointer: '/request/system', message: 'system placement "field" needs `to`' } as never);
    }
    if (d.request?.system?.placement === 'message' && d.request?.messages?.roles?.system === undefined) {
      findings.push({ code: 'incomplete-spec', pointer: '/request/messages/roles', message: 'system placement "message" needs a roles.system template' } as never);
    }
    return findings;
  },
};
