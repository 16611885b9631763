/**
 * The offline demo (`pnpm demo`): a mock server for every built-in spec, served from the specs
 * themselves, and one tool conversation through each (the model calls the tool it is offered,
 * the tool runs here, the model answers from its result): one line per spec, or streamed live with
 * --verbose. Then what sets wireforge apart: an Anthropic turn with thinking continued on Gemini
 * and on OpenAI Chat (with the warnings for what each cannot take), a 429 with retry-after
 * retried, and the official OpenAI SDK talking to Anthropic through the gateway. Nothing leaves
 * 127.0.0.1.
 */
import OpenAI from 'openai';
import { adapters, createClient, defineTool, streamTools, type ChatResponse, type ClientOptions, type ContentPart, type Message, type ProviderId } from '../generated/index.js';
import type { MockStep, RecordedCall } from '../generated/serve.js';
import { createMockServer, startGateway } from '../node/index.js';

const tty = process.stdout.isTTY === true;
const paint = (code: string) => (s: string) => (tty ? `\x1b[${code}m${s}\x1b[0m` : s);
const dim = paint('2');
const bold = paint('1');
const cyan = paint('36');
const green = paint('32');
const yellow = paint('33');
const write = (s: string) => process.stdout.write(s);

// A real tool: the model is offered it, calls it, and answers from what it returns.
const TEMPERATURES: Record<string, number> = { Paris: 18, Oslo: 4, Lagos: 31, Lima: 22 };
const weatherIn = (city: string) => {
  const celsius = TEMPERATURES[city] ?? 20;
  return { city, celsius, sky: celsius > 15 ? 'sunny' : 'cloudy' };
};
const weather = defineTool({
  description: 'Current temperature in a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  execute: ({ city }) => weatherIn(city),
});

/** The text of unified content (a string, or text parts). */
const textOf = (c: string | ContentPart[]): string => (typeof c === 'string' ? c : c.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join(' '));

/**
 * The mock's "model": it reads the request as the spec decoded it. Offered a tool and asked a
 * question, it calls that tool with the city it was asked about; given the tool's result, it
 * answers from it.
 */
function model(call: RecordedCall): MockStep {
  const req = call.request!;
  const last = req.messages.at(-1);
  const question = [...req.messages].reverse().find((m) => m.role === 'user');
  const asked = textOf(question?.content ?? '');
  const city = /([A-Z][a-z]+)\?*$/.exec(asked)?.[1] ?? 'Paris';
  const tool = req.tools?.flatMap((t) => (t.type === 'provider' ? [] : [t]))[0];
  if (last?.role === 'tool') {
    const result = JSON.parse(textOf(last.content) || '{}') as { city?: string; celsius?: number; sky?: string };
    return { reply: { thinking: { text: `The tool says ${result.celsius} °C.`, signature: 'demo-signature' }, text: `It is ${result.celsius} °C and ${result.sky} in ${result.city}.`, usage: { inputTokens: 64, outputTokens: 14 } } };
  }
  if (tool) return { reply: { thinking: { text: `I should look up ${city}.`, signature: 'demo-signature' }, toolCalls: [{ id: 'call_demo_1', name: tool.name, arguments: { city } }], usage: { inputTokens: 40, outputTokens: 9 } } };
  return { reply: { text: 'Ask me about the weather.' } };
}

const KEY = 'demo-key-not-real-0000';
const ids = Object.keys(adapters) as ProviderId[];
const started = performance.now();
// One line per spec; --verbose streams each conversation as it comes.
const verbose = process.argv.includes('--verbose');
let served = 0;

/** A client of `id` talking to a mock at `url` (cloud specs get made-up credentials, checked by no one here). */
function clientFor(id: ProviderId, url: string, extra: Partial<ClientOptions> = {}) {
  const adapter = adapters[id];
  return createClient(id, {
    apiKey: KEY,
    baseUrl: url,
    model: 'demo-model',
    maxRetries: 0,
    ...(adapter.endpoint.auth.from === 'token' ? { getToken: () => 'demo-access-token' } : {}),
    ...(adapter.endpoint.auth.sigv4 ? { aws: { accessKeyId: 'AKIDDEMO00000000', secretAccessKey: 'demo-secret-not-real' }, endpoint: { region: 'us-east-1' } } : {}),
    ...extra,
  });
}

console.log(bold(`wireforge demo: ${ids.length} specs, each served by a mock made from the spec, one tool conversation each\n`));
for (const [n, id] of ids.entries()) {
  const adapter = adapters[id];
  const mock = await createMockServer({ provider: id, script: model, chunk: 5, delayMs: tty && verbose ? 4 : 0 });
  try {
    const client = clientFor(id, mock.url);
    if (verbose) write(`${tty ? dim(`[${n + 1}/${ids.length}] `) : ''}${bold(id)} ${dim(`(${adapter.name})`)}\n  `);
    const stream = streamTools(client, { messages: [{ role: 'user', content: 'What is the weather in Oslo?' }] }, { tools: { get_weather: weather } });
    let thinking = false;
    let called = '';
    for await (const e of stream) {
      if (e.type === 'tool-execution-result') called = `${e.execution.call.name}(${e.execution.call.arguments})`;
      if (!verbose) continue;
      if (e.type === 'thinking-delta') {
        if (!thinking) write(dim('thinking: '));
        thinking = true;
        write(dim(e.delta));
      } else if (e.type === 'text-delta') {
        if (thinking) write('\n  ');
        thinking = false;
        write(e.delta);
      } else if (e.type === 'tool-execution-result') {
        if (thinking) write('\n  ');
        thinking = false;
        write(`${cyan(`→ ${called}`)} ${dim('=')} ${green(JSON.stringify(e.execution.result))}\n  `);
      }
    }
    const result = await stream.final();
    const u = result.usage;
    if (verbose) console.log(`\n  ${dim(`${result.steps.length} model calls, usage: ${u.inputTokens} in / ${u.outputTokens} out, ${mock.requests.length} requests decoded by the mock`)}`);
    else console.log(`${green('✓')} ${id.padEnd(19)} ${cyan(called)} ${dim('→')} ${result.response.text} ${dim(`(${result.steps.length} model calls, ${mock.requests.length} requests decoded)`)}`);
    served++;
  } finally {
    await mock.close();
  }
}

// A conversation moved between providers: Anthropic's thinking (signed for Anthropic only) goes
// on to Gemini and to OpenAI Chat; what each cannot take is dropped, with a warning saying so.
console.log(bold('\nOne conversation, three providers: an Anthropic turn with thinking, continued on Gemini and on OpenAI Chat'));
const question: Message = { role: 'user', content: 'Is it warmer in Lagos or in Oslo?' };
const thinker = await createMockServer({ provider: 'anthropic-messages', script: [{ reply: { thinking: { text: 'Lagos is near the equator; Oslo is not.', signature: 'sig-anthropic-demo' }, text: 'Lagos, by far.' } }] });
let first: ChatResponse;
try {
  first = await clientFor('anthropic-messages', thinker.url).chat({ messages: [question], reasoning: { budgetTokens: 1024 }, maxTokens: 2048 });
  console.log(`  ${bold('anthropic-messages')} ${dim(`thinking: ${first.thinking}`)}\n  ${' '.repeat(18)} ${first.text}`);
} finally {
  await thinker.close();
}
for (const next of ['gemini', 'openai-chat'] as const) {
  const mock = await createMockServer({ provider: next, script: [{ reply: { text: 'Lagos: about 31 °C against 4 °C.' } }] });
  try {
    const r = await clientFor(next, mock.url).chat({ messages: [question, first.message, { role: 'user', content: 'By how much?' }], reasoning: { budgetTokens: 1024 } });
    console.log(`  ${bold(next.padEnd(18))} ${r.text}`);
    for (const w of r.warnings) console.log(`  ${' '.repeat(18)} ${yellow('warning')} ${w.field}: ${dim(w.message)}`);
  } finally {
    await mock.close();
  }
}

// A fault and its retry: the mock answers 429 with retry-after once; the client waits and asks again.
console.log(bold('\nA 429 with retry-after, retried'));
const limited = await createMockServer({ provider: 'openai-chat', script: [{ fault: { status: 429, message: 'Rate limit reached, slow down', retryAfter: 1 }, times: 1 }, { reply: { text: 'Answered on the second attempt.' } }] });
try {
  const t0 = performance.now();
  const r = await clientFor('openai-chat', limited.url, { maxRetries: 2 }).chat({ messages: [{ role: 'user', content: 'hi' }] });
  const waited = ((performance.now() - t0) / 1000).toFixed(1);
  console.log(`  ${dim(`attempt 1: 429, retry-after: 1`)}\n  ${dim('attempt 2:')} ${r.text} ${dim(`(${limited.requests.length} requests, ${waited} s)`)}`);
} finally {
  await limited.close();
}

// The official OpenAI SDK, speaking Chat Completions to a gateway in front of an Anthropic mock.
console.log(bold('\nThe official OpenAI SDK → gateway (listens: openai-chat) → Anthropic Messages mock'));
const anthropic = await createMockServer({ provider: 'anthropic-messages', apiKey: 'sk-ant-demo-upstream-000', script: model, chunk: 5, delayMs: tty && verbose ? 4 : 0 });
const gateway = await startGateway({ listen: 'openai-chat', upstream: 'anthropic-messages', clientToken: KEY, client: { apiKey: 'sk-ant-demo-upstream-000', baseUrl: anthropic.url, maxRetries: 0 } });
try {
  const openai = new OpenAI({ apiKey: KEY, baseURL: gateway.url });
  const tools = [{ type: 'function' as const, function: { name: 'get_weather', description: 'Current temperature in a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } }];
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'What is the weather in Lima?' }];
  const first = await openai.chat.completions.create({ model: 'claude-sonnet-demo', messages, tools });
  const call = first.choices[0]!.message.tool_calls![0]! as { id: string; function: { name: string; arguments: string } };
  const args = JSON.parse(call.function.arguments) as { city: string };
  const output = weatherIn(args.city);
  write(`  ${cyan(`${call.function.name}(${call.function.arguments}) = ${JSON.stringify(output)}`)}\n  `);
  messages.push(first.choices[0]!.message, { role: 'tool', tool_call_id: call.id, content: JSON.stringify(output) });
  const stream = openai.chat.completions.stream({ model: 'claude-sonnet-demo', messages, tools });
  stream.on('content', (d) => write(d));
  const final = await stream.finalChatCompletion();
  console.log(`\n  ${dim(`finish_reason ${final.choices[0]!.finish_reason}; the Anthropic mock saw ${anthropic.requests.length} Messages requests (tool_result for ${call.id} in the last)`)}`);
} finally {
  await gateway.close();
  await anthropic.close();
}

const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(`\n${yellow(`${served} specs served and talked to, in ${seconds} s; nothing left 127.0.0.1.`)}`);
