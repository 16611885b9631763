/**
 * The tool loop over every spec id (issue 4, acceptance): the same scripted two-step conversation
 * (step 1: two parallel tool calls, step 2: a text answer) runs through runTools and streamTools
 * against a loopback node:http server speaking the spec's wire family, and both give equal results.
 *
 * The server picks the turn from the request (does it carry tool results?) and checks every
 * request in the provider's wire shape: the tools declared from the definitions, and on the
 * follow-up the assistant turn (Anthropic thinking + signature, Gemini thoughtSignature, argument
 * text byte-exact where the wire carries a string) and one result per call linked by id or name.
 * A request that is wrong gets a 400 in the provider's error-body shape.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adapters,
  createClient,
  defineTool,
  ProviderError,
  runTools,
  streamTools,
  type ChatRequest,
  type ProviderAdapter,
  type ProviderId,
  type RunToolsResult,
  type ToolLoopEvent,
  type Usage,
} from '../../generated/index.js';
import { startLoopbackServer, type LoopbackServer } from '../helpers/loopback-server.js';
import { comparable } from '../helpers/replay.js';
import {
  checkFirstRequest,
  checkFollowUp,
  checkTools,
  expectedArguments,
  hasToolResults,
  historyOf,
  isStreamingRequest,
  respondWith,
  familySpecIds, specIds,
  startScriptedModel,
  wireError,
  wireFamilyOf,
  type ScriptedTurn,
  type WireFamily,
} from '../helpers/scripted-turns.js';

const KEY = 'sk-tool-loop-providers-0123456789';
const MODEL = 'm-1';
const USER = 'What is the weather and the local time in Paris?';
const THINKING = { text: 'The user wants the weather and the local time in Paris. I can ask for both at once.', signature: 'ErUBCkYIBxgCKkDwireforgeSignature+1/AbC==' };
const GEMINI_SIGNATURE = 'CiIBVKhc7wireforgeThoughtSignature+2/XyZ==';
const ANSWER = 'In Paris it is 18 °C and sunny, and the local time is 14:05.';

const weatherSchema = {
  type: 'object',
  properties: { city: { type: 'string', description: 'City name' } },
  required: ['city'],
  additionalProperties: false,
} as const;
const timeSchema = {
  type: 'object',
  properties: { tz: { type: 'string', description: 'IANA time zone' } },
  required: ['tz'],
  additionalProperties: false,
} as const;

const tools = {
  get_weather: defineTool({
    description: 'Current weather for a city',
    parameters: weatherSchema,
    execute: async ({ city }) => ({ city, tempC: 18, sky: 'sunny' }),
  }),
  get_time: defineTool({
    description: 'Local time in a time zone',
    parameters: timeSchema,
    execute: ({ tz }) => `14:05 (${tz})`,
  }),
};
const RESULTS = [
  { name: 'get_weather', content: '{"city":"Paris","tempC":18,"sky":"sunny"}', result: { city: 'Paris', tempC: 18, sky: 'sunny' } },
  { name: 'get_time', content: '14:05 (Europe/Paris)', result: '14:05 (Europe/Paris)' },
] as const;

const USAGE_1 = { input: 120, output: 40 };
const USAGE_2 = { input: 180, output: 25 };

function turn1(family: WireFamily): ScriptedTurn {
  const ids =
    family === 'anthropic-messages'
      ? ['toolu_01A09q90qw90lq917835lq9', 'toolu_01B8Zr3kQm5Tn2Vw7Xc4Yp6']
      : family === 'ollama'
        ? ['call_k3x9q2ab', 'call_7hd02mzq']
        : ['call_pWx8Yb2TqKs1Lm0N', 'call_R4nZ7mLs0Vd3Qe5T'];
  return {
    responseId: 'wfturn1',
    ...(family === 'anthropic-messages' ? { thinking: THINKING } : {}),
    calls: [
      // Where the wire carries argument text, it has the model's spacing: it must come back byte-exact.
      { id: ids[0]!, name: 'get_weather', args: { city: 'Paris' }, argsText: '{"city": "Paris"}', ...(family === 'gemini' ? { signature: GEMINI_SIGNATURE } : {}) },
      { id: ids[1]!, name: 'get_time', args: { tz: 'Europe/Paris' }, argsText: '{"tz": "Europe/Paris"}' },
    ],
    usage: USAGE_1,
  };
}
const TURN2: ScriptedTurn = { responseId: 'wfturn2', text: ANSWER, usage: USAGE_2 };

type Mode = 'blocking' | 'stream';
interface Seen {
  id: string;
  mode: Mode;
  turn: 1 | 2;
  problems: string[];
  body: unknown;
}
const seen: Seen[] = [];
let server: LoopbackServer;

beforeAll(async () => {
  server = await startLoopbackServer((req) => {
    // Base URL = <server>/<id>/<mode>: the prefix tells which spec and which kind of run.
    const [id, mode] = req.url.split('/').slice(1, 3) as [string, Mode];
    const family = wireFamilyOf(id);
    const streaming = isStreamingRequest(id, req);
    const turn = hasToolResults(family, req.body) ? 2 : 1;
    // The key (or token) where the spec's endpoint says, as the provider's auth check would want it.
    const { header, scheme } = (adapters as Record<string, ProviderAdapter>)[id]!.endpoint.auth;
    const auth = req.headers[header];
    const problems = [
      ...(auth === (scheme ? `${scheme} ${KEY}` : KEY) ? [] : [`auth header ${header} is ${auth === undefined ? 'missing' : 'not the key'}`]),
      ...(streaming === (mode === 'stream') ? [] : [`a ${mode} run sent a ${streaming ? 'streaming' : 'blocking'} request`]),
      ...checkTools(family, req.body, tools),
      ...(turn === 1
        ? checkFirstRequest(family, req.body, USER)
        : checkFollowUp(id, req.body, { userText: USER, assistant: turn1(family), results: RESULTS.map((r) => ({ content: r.content })) })),
    ];
    seen.push({ id, mode, turn, problems, body: req.body });
    if (problems.length > 0) return wireError(family, 400, `wire check failed (turn ${turn}): ${problems.join('; ')}`);
    return respondWith(id, turn === 1 ? turn1(family) : TURN2, streaming, MODEL);
  });
});
afterAll(() => server.close());

function clientFor(id: string, mode: Mode) {
  // Token specs (Vertex AI) get their token from getToken(), asked for before every request.
  const token = (adapters as Record<string, ProviderAdapter>)[id]!.endpoint.auth.from === 'token';
  return createClient(id as ProviderId, { ...(token ? { getToken: async () => KEY } : { apiKey: KEY }), model: MODEL, baseUrl: `${server.url}/${id}/${mode}`, maxRetries: 0 });
}

/** What must agree between the blocking and the streaming loop (durations and raw bodies left out). */
function summary(r: RunToolsResult) {
  return {
    stoppedBy: r.stoppedBy,
    response: { ...comparable(r.response), warnings: r.response.warnings },
    messages: r.messages,
    usage: r.usage,
    steps: r.steps.map((s) => ({
      step: s.step,
      response: comparable(s.response),
      executions: s.executions.map((e) => ({ call: e.call, content: e.content, isError: e.isError, result: e.result })),
    })),
  };
}

function sumUsage(list: Array<Usage | null>): Usage {
  const out: Usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  for (const u of list) {
    if (!u) continue;
    out.inputTokens += u.inputTokens;
    out.outputTokens += u.outputTokens;
    out.totalTokens += u.totalTokens;
    for (const k of ['cachedInputTokens', 'cacheWriteTokens', 'reasoningTokens'] as const) if (u[k] !== undefined) out[k] = (out[k] ?? 0) + u[k]!;
  }
  return out;
}

const LOOP_EVENTS = new Set(['step-start', 'step-finish', 'tool-execution-start', 'tool-execution-result']);

it('covers every spec id in specs/ and in the registry', () => {
  expect(specIds()).toEqual(Object.keys(adapters).sort());
  expect(specIds().length).toBeGreaterThan(5);
});

describe.each(familySpecIds().map((id) => [id, wireFamilyOf(id)] as const))('%s (%s wire)', (id, family) => {
  const request: ChatRequest = { messages: [{ role: 'user', content: USER }] };
  let blocking: RunToolsResult;
  let streamed: RunToolsResult;
  const events: ToolLoopEvent[] = [];

  beforeAll(async () => {
    blocking = await runTools(clientFor(id, 'blocking'), request, { tools });
    const stream = streamTools(clientFor(id, 'stream'), request, { tools });
    for await (const e of stream) events.push(e);
    streamed = await stream.final();
  });

  it('runTools and streamTools().final() give equal results', () => {
    expect(summary(streamed)).toEqual(summary(blocking));
  });

  it.each(['blocking', 'stream'] as const)('%s: two steps, stopped by the answer, tools run with their results', (mode) => {
    const r = mode === 'blocking' ? blocking : streamed;
    const script = turn1(family);
    expect(r.stoppedBy).toBe('answer');
    expect(r.steps.map((s) => s.step)).toEqual([1, 2]);

    const [s1, s2] = r.steps as [RunToolsResult['steps'][0], RunToolsResult['steps'][0]];
    expect(s1.response.finishReason).toBe('tool_calls');
    expect(s1.response.toolCalls.map((c) => [c.name, c.arguments])).toEqual(script.calls!.map((c) => [c.name, expectedArguments(family, c)]));
    const ids = s1.response.toolCalls.map((c) => c.id);
    if (family === 'gemini') expect(new Set(ids).size).toBe(2);
    else expect(ids).toEqual(script.calls!.map((c) => c.id));
    // The calls the loop runs are the history copies (message.toolCalls: Gemini's signature included).
    expect(s1.response.message.toolCalls?.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments }))).toEqual(s1.response.toolCalls);
    expect(s1.executions.map((e) => ({ call: e.call, content: e.content, isError: e.isError, result: e.result }))).toEqual(
      RESULTS.map((res, k) => ({ call: s1.response.message.toolCalls![k], content: res.content, isError: false, result: res.result })),
    );
    for (const e of s1.executions) expect(e.durationMs).toBeGreaterThanOrEqual(0);

    expect(s2.executions).toEqual([]);
    expect(s2.response.text).toBe(ANSWER);
    expect(s2.response.finishReason).toBe('stop');
    expect(s2.response.toolCalls).toEqual([]);
    expect(r.response).toBe(s2.response);
  });

  it.each(['blocking', 'stream'] as const)('%s: the history is the user message, the assistant turn as returned, one tool result per call', (mode) => {
    const r = mode === 'blocking' ? blocking : streamed;
    const s1 = r.steps[0]!;
    expect(r.messages.slice(0, 4)).toEqual([
      request.messages[0],
      s1.response.message,
      ...s1.response.toolCalls.map((c, k) => ({ role: 'tool', toolCallId: c.id, toolName: c.name, content: RESULTS[k]!.content })),
    ]);
    expect(r.messages[1]).toBe(s1.response.message);

    const assistant = r.messages[1]!;
    if (assistant.role !== 'assistant') throw new Error('unreachable');
    expect(assistant.toolCalls?.map((c) => c.name)).toEqual(['get_weather', 'get_time']);
    if (family === 'anthropic-messages') expect(assistant.thinking).toEqual([expect.objectContaining({ text: THINKING.text, signature: THINKING.signature })]);
    if (family === 'gemini') expect(assistant.toolCalls?.[0]?.signature).toBe(GEMINI_SIGNATURE);
  });

  it.each(['blocking', 'stream'] as const)('%s: the history ends with the final answer, ready to continue the conversation', (mode) => {
    const r = mode === 'blocking' ? blocking : streamed;
    expect(r.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant']);
    expect(r.messages[4]).toEqual(r.steps[1]!.response.message);
  });

  it.each(['blocking', 'stream'] as const)('%s: usage is summed over both steps', (mode) => {
    const r = mode === 'blocking' ? blocking : streamed;
    expect(r.usage).toEqual(sumUsage(r.steps.map((s) => s.response.usage)));
    expect(r.usage).toMatchObject({
      inputTokens: USAGE_1.input + USAGE_2.input,
      outputTokens: USAGE_1.output + USAGE_2.output,
      totalTokens: USAGE_1.input + USAGE_1.output + USAGE_2.input + USAGE_2.output,
    });
  });

  it('the server saw valid requests in the wire shape, and both runs sent the same follow-up history', () => {
    const mine = seen.filter((s) => s.id === id);
    expect(mine.map((s) => `${s.mode}:${s.turn}`)).toEqual(['blocking:1', 'blocking:2', 'stream:1', 'stream:2']);
    expect(mine.flatMap((s) => s.problems.map((p) => `${s.mode} turn ${s.turn}: ${p}`))).toEqual([]);
    expect(historyOf(family, mine[3]!.body)).toEqual(historyOf(family, mine[1]!.body));
  });

  it('the wire check is not vacuous: a follow-up with a broken link or lost signature is refused', () => {
    const good = seen.find((s) => s.id === id && s.turn === 2)!.body;
    const exp = { userText: USER, assistant: turn1(family), results: RESULTS.map((r) => ({ content: r.content })) };
    expect(checkFollowUp(id, good, exp)).toEqual([]);
    const broken = structuredClone(good) as Record<string, unknown>;
    const h = historyOf(family, broken) as Array<Record<string, any>>;
    switch (family) {
      case 'openai-chat':
        h[3]!.tool_call_id = h[2]!.tool_call_id;
        break;
      case 'anthropic-messages':
        delete h[1]!.content[0].signature;
        break;
      case 'openai-responses':
        h[4]!.call_id = h[3]!.call_id;
        break;
      case 'gemini':
        delete h[1]!.parts[0].thoughtSignature;
        break;
      case 'ollama':
        h[3]!.tool_name = h[2]!.tool_name;
        break;
    }
    expect(checkFollowUp(id, broken, exp)).not.toEqual([]);
    // Results in the wrong order are refused too.
    const swapped = structuredClone(good) as Record<string, unknown>;
    const hs = historyOf(family, swapped) as Array<Record<string, any>>;
    const last = family === 'anthropic-messages' || family === 'gemini' ? (family === 'gemini' ? hs[2]!.parts : hs[2]!.content) : hs;
    last.push(last.splice(last.length - 2, 1)[0]);
    expect(checkFollowUp(id, swapped, exp)).not.toEqual([]);
  });

  it("a refused request surfaces as a ProviderError with the server's message (the error body is in the provider's shape)", async () => {
    const refusing = await startLoopbackServer(wireError(family, 400, 'wire check failed: example'));
    try {
      const client = createClient(id as ProviderId, { apiKey: KEY, model: MODEL, baseUrl: refusing.url, maxRetries: 0 });
      const error = await client.chat(request).then(() => undefined, (e: unknown) => e);
      // A 400 is the BadRequestError subclass (runtime/errors.ts providerErrorFor).
      expect(error).toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({ name: 'BadRequestError', status: 400, providerMessage: 'wire check failed: example' });
    } finally {
      await refusing.close();
    }
  });

  it.each(['blocking', 'stream'] as const)('%s: an error result (a tool that throws) goes back in the wire shape, marked as an error', async (mode) => {
    const failing = {
      ...tools,
      get_time: defineTool({
        parameters: timeSchema,
        execute: (): string => {
          throw new Error('the clock is broken');
        },
      }),
    };
    const problems: string[] = [];
    const m = await startScriptedModel(id as ProviderId, [
      turn1(family),
      (req) => {
        problems.push(
          ...checkFollowUp(id, req.body, {
            userText: USER,
            assistant: turn1(family),
            results: [{ content: RESULTS[0].content }, { content: 'the clock is broken', isError: true }],
          }),
        );
        return problems.length > 0 ? wireError(family, 400, problems.join('; ')) : respondWith(id, TURN2, isStreamingRequest(id, req), MODEL);
      },
    ], MODEL);
    try {
      const client = m.client();
      const r = mode === 'blocking' ? await runTools(client, request, { tools: failing }) : await streamTools(client, request, { tools: failing }).final();
      expect(problems).toEqual([]);
      expect(r.stoppedBy).toBe('answer');
      expect(r.steps[0]!.executions.map((e) => [e.content, e.isError])).toEqual([
        [RESULTS[0].content, false],
        ['the clock is broken', true],
      ]);
      expect(r.messages[3]).toMatchObject({ role: 'tool', content: 'the clock is broken', isError: true });
    } finally {
      await m.close();
    }
  });

  it('streamTools yields step boundaries, every step event, tool executions, and the answer as text deltas', () => {
    const loop = events.filter((e) => LOOP_EVENTS.has(e.type)).map((e) => `${e.type}:${e.step}`);
    expect(loop).toEqual([
      'step-start:1',
      'tool-execution-start:1',
      'tool-execution-start:1',
      'tool-execution-result:1',
      'tool-execution-result:1',
      'step-finish:1',
      'step-start:2',
      'step-finish:2',
    ]);
    expect(events[0]).toEqual({ type: 'step-start', step: 1 });
    expect(events.at(-1)).toMatchObject({ type: 'step-finish', step: 2 });

    // Every provider event sits between its step's start and finish.
    let current = 0;
    let open = false;
    for (const e of events) {
      if (e.type === 'step-start') {
        expect(open).toBe(false);
        current = e.step;
        open = true;
      } else {
        expect(open).toBe(true);
        expect(e.step).toBe(current);
        if (e.type === 'step-finish') open = false;
      }
    }

    const s1 = events.filter((e) => e.step === 1);
    const types1 = s1.map((e) => e.type);
    expect(types1.filter((t) => t === 'start')).toHaveLength(1);
    expect(types1.indexOf('start')).toBe(1);
    expect(types1.indexOf('finish')).toBeLessThan(types1.indexOf('tool-execution-start'));
    const calls = streamed.steps[0]!.response.toolCalls;
    expect(s1.flatMap((e) => (e.type === 'tool-call' ? [{ id: e.call.id, name: e.call.name, arguments: e.call.arguments }] : []))).toEqual(
      calls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })),
    );
    expect(s1.flatMap((e) => (e.type === 'tool-execution-start' ? [e.call] : []))).toEqual(streamed.steps[0]!.response.message.toolCalls);
    expect(s1.flatMap((e) => (e.type === 'tool-execution-result' ? [e.execution] : []))).toEqual(streamed.steps[0]!.executions);
    expect(s1.some((e) => e.type === 'text-delta')).toBe(false);

    const s2 = events.filter((e) => e.step === 2);
    const deltas = s2.flatMap((e) => (e.type === 'text-delta' ? [e.delta] : []));
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe(ANSWER);
    expect(s2.map((e) => e.type).filter((t) => t === 'start' || t === 'finish')).toEqual(['start', 'finish']);
    expect(s2.some((e) => e.type.startsWith('tool-'))).toBe(false);

    const finishes = events.flatMap((e) => (e.type === 'step-finish' ? [e.response] : []));
    expect(finishes).toEqual(streamed.steps.map((s) => s.response));
  });
});
