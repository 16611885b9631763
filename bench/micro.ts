/**
 * µs per call of the adapter work around one typical blocking call: building the wire request
 * (adapter.buildRequest + JSON.stringify of the body) and parsing the blocking response
 * (JSON.parse + readResponse into a TurnAssembler + result()). `client.chat()` over an
 * injected fetch is shown too, for context: it adds Response, body reading, timers and redaction.
 */
import { TurnAssembler } from '../runtime/assemble/turn-assembler.js';
import { adapters, createClientFor, type ChatRequest, type ProviderAdapter } from '../generated/index.js';
import { PROTOCOLS, type Protocol } from './bodies.js';
import { API_KEY, MODEL } from './methods.js';

export interface MicroJob {
  mode: 'micro';
  /** Timed rounds; the median is reported. */
  rounds: number;
  /** Calls per round. */
  calls: number;
  /** One protocol per process, so the shared runtime code sees one adapter's shapes, as in an application using one provider. */
  only?: Protocol;
}

export interface MicroRow {
  protocol: Protocol;
  ok: boolean;
  /** µs per call */
  build: number;
  parse: number;
  jsonParseOnly: number;
  jsonStringifyOnly: number;
  chat: number;
  error?: string;
}

export const TYPICAL_REQUEST: ChatRequest = {
  system: 'You are a concise assistant. Use the tools when a question needs live data.',
  messages: [
    { role: 'user', content: 'What is the weather in Paris right now, and should I take an umbrella?' },
    { role: 'assistant', content: null, toolCalls: [{ id: 'call_Xq3bT9', name: 'get_weather', arguments: '{"city":"Paris","unit":"celsius"}' }] },
    { role: 'tool', toolCallId: 'call_Xq3bT9', toolName: 'get_weather', content: '{"temp":18,"sky":"light rain","wind_kmh":14}' },
    { role: 'user', content: 'And in Lisbon tomorrow?' },
  ],
  tools: [
    {
      name: 'get_weather',
      description: 'Current weather or forecast for a city.',
      parameters: {
        type: 'object',
        properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] }, day: { type: 'string', description: 'ISO date' } },
        required: ['city'],
      },
    },
    {
      name: 'search_docs',
      description: 'Search the travel guide.',
      parameters: { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'integer' } }, required: ['query'] },
    },
  ],
  maxTokens: 1024,
  temperature: 0.3,
};

/** A typical blocking response per protocol: a sentence and one tool call, with usage. */
export const TYPICAL_RESPONSE: Record<Protocol, unknown> = {
  'openai-chat': {
    id: 'chatcmpl-BbXq0mY7Qe1r6TzKpL3nV8sWcD2fA',
    object: 'chat.completion',
    created: 1747823502,
    model: 'gpt-4o-2024-08-06',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: 'I will look up the forecast for Lisbon tomorrow.',
          refusal: null,
          tool_calls: [{ id: 'call_bsv3fbQD2WgYHQV5On4n1B8r', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Lisbon","day":"2025-06-13"}' } }],
          annotations: [],
        },
        logprobs: null,
        finish_reason: 'tool_calls',
      },
    ],
    usage: {
      prompt_tokens: 182,
      completion_tokens: 31,
      total_tokens: 213,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    },
    service_tier: 'default',
    system_fingerprint: 'fp_2271e36314',
  },
  'anthropic-messages': {
    id: 'msg_01qXH16dzRtpl3NzJIag4FJV',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-5-20250929',
    content: [
      { type: 'text', text: 'I will look up the forecast for Lisbon tomorrow.' },
      { type: 'tool_use', id: 'toolu_01A09q90qw90lq917835lq9', name: 'get_weather', input: { city: 'Lisbon', day: '2025-06-13' } },
    ],
    stop_reason: 'tool_use',
    stop_sequence: null,
    usage: { input_tokens: 412, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 64, service_tier: 'standard' },
  },
  'openai-responses': {
    id: 'resp_68ca896a7703819d93534a5806527bb6463844b2b87a469f',
    object: 'response',
    created_at: 1758103914,
    status: 'completed',
    error: null,
    incomplete_details: null,
    model: 'gpt-4.1-2025-04-14',
    output: [
      {
        id: 'msg_68ca7ed43014819f46605f31d49ba0ad32f4319939a3ff78',
        type: 'message',
        status: 'completed',
        content: [{ type: 'output_text', annotations: [], logprobs: [], text: 'I will look up the forecast for Lisbon tomorrow.' }],
        role: 'assistant',
      },
      {
        id: 'fc_68ca896de635819dc472e8e7008f197a463844b2b87a469f',
        type: 'function_call',
        status: 'completed',
        arguments: '{"city":"Lisbon","day":"2025-06-13"}',
        call_id: 'call_nfqVWIl9XX3vthCe5k6NZIRX',
        name: 'get_weather',
      },
    ],
    parallel_tool_calls: true,
    store: true,
    temperature: 0.3,
    tool_choice: 'auto',
    usage: { input_tokens: 182, input_tokens_details: { cached_tokens: 0 }, output_tokens: 31, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 213 },
    metadata: {},
  },
  gemini: {
    candidates: [
      {
        content: { parts: [{ text: 'I will look up the forecast for Lisbon tomorrow.' }, { functionCall: { name: 'get_weather', args: { city: 'Lisbon', day: '2025-06-13' } } }], role: 'model' },
        finishReason: 'STOP',
        index: 0,
      },
    ],
    usageMetadata: { promptTokenCount: 164, candidatesTokenCount: 31, totalTokenCount: 195, promptTokensDetails: [{ modality: 'TEXT', tokenCount: 164 }] },
    modelVersion: 'gemini-2.5-flash',
    responseId: '9ZSEh28RheZCPSZev3zTfOT',
  },
  ollama: {
    model: 'qwen3:8b',
    created_at: '2025-06-12T09:33:11.039933925Z',
    message: {
      role: 'assistant',
      content: 'I will look up the forecast for Lisbon tomorrow.',
      tool_calls: [{ id: 'call_2mm4919e', function: { index: 0, name: 'get_weather', arguments: { city: 'Lisbon', day: '2025-06-13' } } }],
    },
    done_reason: 'stop',
    done: true,
    total_duration: 1256164158,
    load_duration: 43975994,
    prompt_eval_count: 241,
    prompt_eval_duration: 16758417,
    eval_count: 58,
    eval_duration: 1192287000,
  },
};

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1]!;
}

/** µs per call of f, median over rounds. */
async function perCall(job: MicroJob, f: () => unknown, calls = job.calls): Promise<number> {
  for (let i = 0; i < calls; i++) f(); // warm-up
  const rounds: number[] = [];
  for (let r = 0; r < job.rounds; r++) {
    const t0 = performance.now();
    for (let i = 0; i < calls; i++) f();
    rounds.push(((performance.now() - t0) * 1000) / calls);
  }
  return median(rounds);
}

async function perCallAsync(job: MicroJob, f: () => Promise<unknown>, calls: number): Promise<number> {
  for (let i = 0; i < calls; i++) await f();
  const rounds: number[] = [];
  for (let r = 0; r < job.rounds; r++) {
    const t0 = performance.now();
    for (let i = 0; i < calls; i++) await f();
    rounds.push(((performance.now() - t0) * 1000) / calls);
  }
  return median(rounds);
}

export async function micro(job: MicroJob): Promise<MicroRow[]> {
  const rows: MicroRow[] = [];
  for (const p of PROTOCOLS) {
    if (job.only !== undefined && p !== job.only) continue;
    const adapter = adapters[p] as ProviderAdapter;
    const request: ChatRequest = { ...TYPICAL_REQUEST, model: MODEL[p] };
    const text = JSON.stringify(TYPICAL_RESPONSE[p]);
    try {
      const build = () => JSON.stringify(adapter.buildRequest(request, 'blocking').body);
      const parse = () => {
        const a = new TurnAssembler(adapter.rules, { streaming: false, warnings: [] });
        adapter.readResponse(a, JSON.parse(text) as never);
        a.closeAll();
        return a.result();
      };
      const check = parse();
      const wireBody = adapter.buildRequest(request, 'blocking').body;
      const ok = check.text === 'I will look up the forecast for Lisbon tomorrow.' && check.toolCalls.length === 1 && build().length > 100;
      const fetch = (async () => new Response(text, { status: 200, headers: { 'content-type': 'application/json' } })) as typeof globalThis.fetch;
      const client = createClientFor(adapter, { apiKey: API_KEY, model: MODEL[p], baseUrl: 'http://127.0.0.1:9', fetch, maxRetries: 0 });
      rows.push({
        protocol: p,
        ok,
        build: await perCall(job, build),
        parse: await perCall(job, parse),
        jsonParseOnly: await perCall(job, () => JSON.parse(text)),
        jsonStringifyOnly: await perCall(job, () => JSON.stringify(wireBody)),
        chat: await perCallAsync(job, () => client.chat(request), Math.max(200, job.calls >> 3)),
      });
    } catch (e) {
      rows.push({ protocol: p, ok: false, build: NaN, parse: NaN, jsonParseOnly: NaN, jsonStringifyOnly: NaN, chat: NaN, error: e instanceof Error ? e.message : String(e) });
    }
  }
  return rows;
}
