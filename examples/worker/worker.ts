/**
 * The gateway for teams as a Cloudflare Worker (docs/serving.md#as-a-worker): the config is an
 * object, its keys and tokens come from the Worker's bindings (secrets and vars), and the handler
 * is the same web-standard fetch handler `startGateway` serves on node:http.
 *
 * Only the specs the config names are imported, so the bundle holds only their adapters.
 */
// In your project: 'wireforge/serve' and 'wireforge/providers/<id>' (README.md beside this file).
import { createGateway, type GatewayConfig } from '../../generated/serve.js';
import * as anthropicMessages from '../../generated/anthropic-messages.js';
import * as openaiChat from '../../generated/openai-chat.js';

/** The Worker's bindings: set the keys with `wrangler secret put`, the base URLs as plain vars if you need them. */
export interface Env {
  OPENAI_API_KEY?: string;
  ANTHROPIC_API_KEY?: string;
  GATEWAY_TOKEN?: string;
  OPENAI_BASE_URL?: string;
  ANTHROPIC_BASE_URL?: string;
}

const specs = {
  'openai-chat': { adapter: openaiChat.adapter, serve: openaiChat.serve },
  'anthropic-messages': { adapter: anthropicMessages.adapter, serve: anthropicMessages.serve },
};

/** The config: `smart` tries OpenAI first and falls back to Anthropic; `claude-*` goes to Anthropic. */
function config(env: Env): GatewayConfig {
  const openai = { spec: 'openai-chat', key: { env: 'OPENAI_API_KEY' }, ...(env.OPENAI_BASE_URL ? { baseUrl: env.OPENAI_BASE_URL } : {}) };
  const anthropic = { spec: 'anthropic-messages', key: { env: 'ANTHROPIC_API_KEY' }, ...(env.ANTHROPIC_BASE_URL ? { baseUrl: env.ANTHROPIC_BASE_URL } : {}) };
  return {
    listen: [
      { spec: 'openai-chat', path: '/openai' },
      { spec: 'anthropic-messages', path: '/anthropic' },
    ],
    clients: [{ name: 'team', token: { env: 'GATEWAY_TOKEN' }, limits: { requestsPerMinute: 600, concurrentStreams: 16 } }],
    routes: [
      { model: 'smart', targets: [{ ...openai, model: 'gpt-4.1' }, { ...anthropic, model: 'claude-sonnet-4-5' }] },
      { model: 'claude-*', list: ['claude-haiku-4-5', 'claude-sonnet-4-5'], targets: [anthropic] },
    ],
    timeoutMs: 30_000,
  };
}

// The bindings are only known at the first request; the gateway (config checked once) is kept per
// isolate and made anew only if the bindings object changes. Limits count per isolate.
let made: { env: Env; handler: (request: Request) => Promise<Response> } | undefined;

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    if (made?.env !== env) made = { env, handler: createGateway(config(env), { specs, env: env as Record<string, string | undefined> }) };
    return made.handler(request);
  },
};
