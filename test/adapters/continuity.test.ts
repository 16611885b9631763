/**
 * Conversation continuity (issue 7, acceptance).
 *
 * 1. Per provider, a two-turn tool conversation: turn 1 streamed from a loopback server with
 *    reasoning and a tool call in the provider's documented wire format, turn 2 sent with
 *    [user, turn1.message, tool result]. The server remembers the opaque state it issued and
 *    checks every request the way the provider does (helpers/continuity-wire.ts), answering 400 in
 *    the provider's error shape otherwise — so a wrong request fails here as a ProviderError.
 *    The turn-2 continuity fields are also compared exactly with what the documentation requires,
 *    and the same flow with a blocking turn 1 must give the same turn-2 body.
 * 2. A conversation started on Anthropic with thinking and a tool call moves to OpenAI Chat, then
 *    Gemini, then back to Anthropic: every hop is checked by that provider's server, and each
 *    hop's warnings name what was dropped.
 * 3. apply-continuity through buildRequest: a message without origin goes as it is; OpenRouter's
 *    model scope drops reasoning_details from another model.
 */
import { describe, expect, it } from 'vitest';
import {
  KIT_VERSION,
  ProviderError,
  adapters,
  defineAdapter,
  type AssistantMessage,
  type ChatRequest,
  type ChatResponse,
  type Message,
  type ProviderId,
  type StreamEvent,
  type ThinkingPart,
  type ToolCall,
  type ToolSpec,
} from '../../generated/index.js';
import {
  Issued,
  SKIP_SIGNATURE,
  anthropicBlocksTurn,
  anthropicProblems,
  anthropicTurn,
  answerTurn,
  arr,
  chatProblems,
  deepseekProblems,
  deepseekTurn,
  geminiProblems,
  geminiTurn,
  obj,
  openrouterDetailsTurn,
  openrouterProblems,
  openrouterTurn,
  responsesProblems,
  responsesTurn,
  startCheckedProvider,
  withoutStreamFlags,
} from '../helpers/continuity-wire.js';
import { buildTurn, hasToolResults, wireFamilyOf, type WireBodies } from '../helpers/scripted-turns.js';
import { continuityRules } from '../../runtime/adapter-kit.js';

type Json = Record<string, unknown>;
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

const USER = 'What is the weather in Paris right now?';
const WEATHER_RESULT = '{"city":"Paris","tempC":18,"sky":"sunny"}';
const ANSWER = 'It is 18 °C and sunny in Paris.';
const WEATHER_ARGS = { city: 'Paris' };
const WEATHER_ARGS_TEXT = '{"city":"Paris"}';

const weatherTool: ToolSpec = {
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
};
const timeTool: ToolSpec = {
  name: 'get_time',
  description: 'Local time in an IANA time zone',
  parameters: { type: 'object', properties: { tz: { type: 'string' } }, required: ['tz'], additionalProperties: false },
};
const forecastTool: ToolSpec = {
  name: 'get_forecast',
  description: 'Forecast for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city', 'days'], additionalProperties: false },
};

// Opaque values as the providers hand them out (base64-ish, never to be touched).
const CLAUDE = 'claude-sonnet-4-5';
const CLAUDE_THINKING = {
  text: 'The user wants the current weather in Paris. I should call get_weather with city "Paris" and then summarise the result.',
  signature: 'EqQBCkYIBxgCKkDwf0rGe+wireforge/Anthropic/Signature/aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5bC7dE9fG1hJ3kL5mN7pQ9rS1tU3vW5xY7zA==',
};
const CLAUDE_CALL = { id: 'toolu_01A09q90qw90lq917835lq9', name: 'get_weather', args: WEATHER_ARGS };

const GPT = 'gpt-5';
const RS_ID = 'rs_0a1b2c3d4e5f60718293a4b5c6d7e8f9';
const RS_SUMMARY = '**Looking up the weather**\n\nThe user asks for the current weather in Paris, so I will call get_weather for Paris.';
const RS_ADDED = 'gAAAAABpAddedPartial-wireforge-0001==';
const RS_DONE = 'gAAAAABpDoneFinal-wireforge-ZXhhbXBsZSBlbmNyeXB0ZWQgcmVhc29uaW5nIHBheWxvYWQ=';
const RESPONSES_CALL = { id: 'call_Wf8kQ2mZ0tPaRis', itemId: 'fc_0a1b2c3d4e5f60718293a4b5c6d7e8fa', name: 'get_weather', args: WEATHER_ARGS };
/** The function_call item as the Responses wire has it when complete (docs/wire-facts.md#openai-responses). */
const RESPONSES_CALL_ITEM = { id: RESPONSES_CALL.itemId, type: 'function_call', status: 'completed', arguments: WEATHER_ARGS_TEXT, call_id: RESPONSES_CALL.id, name: 'get_weather' };

const DEEPSEEK_REASONING = 'The user wants the weather in Paris. I do not know it, so I need to call get_weather with city Paris.';
const DEEPSEEK_CALL = { id: 'call_00_wireforgeDeepSeek01', name: 'get_weather', args: WEATHER_ARGS };
/** An earlier exchange in the history: a plain assistant turn of the caller's own (no origin, no thinking). */
const EARLIER: Message[] = [
  { role: 'user', content: 'Hi!' },
  { role: 'assistant', content: 'Hello! How can I help you today?' },
];

const GEMINI = 'gemini-3-pro-preview';
const GEMINI_THOUGHT = {
  text: '**Checking the weather**\n\nThe user wants current conditions for Paris; the get_weather tool gives exactly that.',
  signature: 'CiQBVKhc7wireforgeGeminiThoughtSig/0001+AbCdEfGhIjKlMnOpQrStUvWxYz==',
};
const GEMINI_CALL_SIGNATURE = 'CiIBVKhc7wireforgeGeminiCallSig/0002+ZyXwVuTsRqPoNmLkJiHgFeDcBa==';

const OPENROUTER_MODEL = 'anthropic/claude-sonnet-4.5';
const OPENROUTER_THINKING = {
  text: 'The user wants the weather in Paris. I will call get_weather with city Paris.',
  signature: 'ErUBCkYIBxgCKkB+wireforge/OpenRouter/UpstreamClaudeSignature/0003==',
  format: 'anthropic-claude-v1',
};
const OPENROUTER_CALL = { id: 'toolu_vrtx_01WireforgeOpenRouter', name: 'get_weather', args: WEATHER_ARGS };

// ---------------------------------------------------------------------------------------------
// Scenarios

interface Scenario {
  name: string;
  id: ProviderId;
  model: string;
  /** Request fields besides messages and tools, the same on both turns. */
  extra: Partial<ChatRequest>;
  /** History before the user's question. */
  earlier?: Message[];
  issued: Issued;
  check(body: unknown): string[];
  turn1(body: unknown): WireBodies;
  /** turn1.message.thinking; undefined where the unified shape is not pinned (only the wire is). */
  thinking?: ThinkingPart[];
  call: ToolCall;
  /** The documented turn-2 continuity fields, exactly. */
  expectTurn2(body: Json): void;
  /** Turn-2 bodies the provider must reject: a way to break the accepted body. */
  mutations: Array<[string, (body: Json) => void]>;
  /** turn1.message with its state altered and no origin: sent as it is, then rejected by the provider. */
  tampered?(m: AssistantMessage): AssistantMessage;
}

const message = (body: Json, key: string, i: number): Json => obj(arr(body[key])[i]);

function anthropicScenario(): Scenario {
  const issued = new Issued();
  return {
    name: 'Anthropic Messages',
    id: 'anthropic-messages',
    model: CLAUDE,
    extra: { reasoning: { budgetTokens: 2048 } },
    issued,
    check: (b) => anthropicProblems(b, issued),
    turn1: () => anthropicTurn(issued, CLAUDE, CLAUDE_THINKING, CLAUDE_CALL),
    thinking: [{ text: CLAUDE_THINKING.text, signature: CLAUDE_THINKING.signature }],
    call: { id: CLAUDE_CALL.id, name: 'get_weather', arguments: WEATHER_ARGS_TEXT },
    expectTurn2(body) {
      expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
      expect(body.messages).toEqual([
        { role: 'user', content: USER },
        {
          role: 'assistant',
          content: [
            // Thinking first, unchanged, with its exact signature; then the tool_use with the same id.
            { type: 'thinking', thinking: CLAUDE_THINKING.text, signature: CLAUDE_THINKING.signature },
            { type: 'tool_use', id: CLAUDE_CALL.id, name: 'get_weather', input: WEATHER_ARGS },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: CLAUDE_CALL.id, content: WEATHER_RESULT }] },
      ]);
    },
    mutations: [
      ['thinking block left out', (b) => { obj(arr(b.messages)[1]).content = arr(message(b, 'messages', 1).content).slice(1); }],
      ['signature changed', (b) => { obj(arr(message(b, 'messages', 1).content)[0]).signature = 'EqQBCkYIBxgCKkDforged=='; }],
      ['signature missing', (b) => { delete obj(arr(message(b, 'messages', 1).content)[0]).signature; }],
      ['thinking text edited', (b) => { obj(arr(message(b, 'messages', 1).content)[0]).thinking = 'edited'; }],
      ['thinking after the tool_use', (b) => { message(b, 'messages', 1).content = arr(message(b, 'messages', 1).content).reverse(); }],
    ],
    tampered: (m) => ({ role: 'assistant', content: m.content, thinking: [{ text: m.thinking![0]!.text, signature: 'EqQBCkYIBxgCKkDforged==' }], toolCalls: m.toolCalls }),
  };
}

function responsesScenario(store: boolean | undefined, withSummary = true): Scenario {
  const issued = new Issued();
  const stateless = store === false;
  const summary = withSummary ? RS_SUMMARY : '';
  return {
    name: `OpenAI Responses (store ${store === undefined ? 'unset' : String(store)}${withSummary ? '' : ', no summary asked for'})`,
    id: 'openai-responses',
    model: GPT,
    extra: { reasoning: { effort: 'medium', ...(withSummary ? { summary: true } : {}) }, ...(store === undefined ? {} : { store }) },
    issued,
    check: (b) => responsesProblems(b, issued),
    // The encrypted reasoning comes back only when the request asked for it with include.
    turn1: (b) =>
      responsesTurn(issued, {
        responseId: 'resp_0a1b2c3d4e5f6071wireforge',
        model: `${GPT}-2025-08-07`,
        reasoning: { id: RS_ID, summary, addedEncrypted: RS_ADDED, doneEncrypted: RS_DONE },
        call: RESPONSES_CALL,
        withEncrypted: arr(obj(b).include).includes('reasoning.encrypted_content'),
        store: obj(b).store !== false,
      }),
    thinking: [{ text: summary, id: RS_ID, ...(stateless ? { signature: RS_DONE } : {}) }],
    // The history's call keeps the function_call item it came as (with its fc_… id) to send back.
    call: { id: RESPONSES_CALL.id, name: 'get_weather', arguments: WEATHER_ARGS_TEXT, wire: RESPONSES_CALL_ITEM },
    expectTurn2(body) {
      // A reasoning item without a summary goes back with `summary: []` (the field is required).
      const reasoning: Json = { type: 'reasoning', id: RS_ID, summary: withSummary ? [{ type: 'summary_text', text: RS_SUMMARY }] : [] };
      if (stateless) {
        expect(body.store).toBe(false);
        expect(body.include).toEqual(['reasoning.encrypted_content']);
        // The final value from output_item.done, not the one from output_item.added.
        reasoning.encrypted_content = RS_DONE;
      } else {
        expect(body.store).toBe(store);
        expect(body.include).toBeUndefined();
      }
      expect(body.input).toEqual([
        { role: 'user', content: USER },
        reasoning,
        // The function_call item as it came, its id included: without it the reasoning has no following item.
        RESPONSES_CALL_ITEM,
        { type: 'function_call_output', call_id: RESPONSES_CALL.id, output: WEATHER_RESULT },
      ]);
    },
    mutations: stateless
      ? [
          ['encrypted_content missing', (b) => { delete message(b, 'input', 1).encrypted_content; }],
          ['encrypted_content from output_item.added', (b) => { message(b, 'input', 1).encrypted_content = RS_ADDED; }],
          ['include missing', (b) => { delete b.include; }],
          ['reasoning item after its function_call', (b) => { b.input = [arr(b.input)[0], arr(b.input)[2], arr(b.input)[1], arr(b.input)[3]]; }],
        ]
      : [
          ['unknown reasoning id', (b) => { message(b, 'input', 1).id = 'rs_unknown'; }],
          ['reasoning item after its function_call', (b) => { b.input = [arr(b.input)[0], arr(b.input)[2], arr(b.input)[1], arr(b.input)[3]]; }],
          ['store false without encrypted content', (b) => { b.store = false; }],
        ],
    tampered: stateless
      ? (m) => ({ role: 'assistant', content: m.content, thinking: [{ ...m.thinking![0]!, signature: RS_ADDED }], toolCalls: m.toolCalls })
      : (m) => ({ role: 'assistant', content: m.content, thinking: [{ ...m.thinking![0]!, id: 'rs_00000000000000000000000000000000' }], toolCalls: m.toolCalls }),
  };
}

function deepseekScenario(model: 'deepseek-reasoner' | 'deepseek-chat'): Scenario {
  const issued = new Issued();
  const r1 = model === 'deepseek-reasoner';
  return {
    name: `DeepSeek ${model} (${r1 ? 'R1: no reasoning_content back' : 'V4 thinking: reasoning_content on every assistant turn'})`,
    id: 'deepseek',
    model,
    extra: {},
    earlier: EARLIER,
    issued,
    check: (b) => deepseekProblems(b, issued),
    turn1: () => deepseekTurn(issued, model, DEEPSEEK_REASONING, DEEPSEEK_CALL),
    thinking: [{ text: DEEPSEEK_REASONING }],
    call: { id: DEEPSEEK_CALL.id, name: 'get_weather', arguments: WEATHER_ARGS_TEXT },
    expectTurn2(body) {
      const earlier: Json = { role: 'assistant', content: 'Hello! How can I help you today?' };
      const turn: Json = { role: 'assistant', content: null, tool_calls: [{ id: DEEPSEEK_CALL.id, type: 'function', function: { name: 'get_weather', arguments: WEATHER_ARGS_TEXT } }] };
      if (!r1) {
        // A turn from the history without thinking gets an empty reasoning_content.
        earlier.reasoning_content = '';
        turn.reasoning_content = DEEPSEEK_REASONING;
      }
      expect(body.messages).toEqual([
        { role: 'user', content: 'Hi!' },
        earlier,
        { role: 'user', content: USER },
        turn,
        { role: 'tool', tool_call_id: DEEPSEEK_CALL.id, content: WEATHER_RESULT },
      ]);
      if (r1) for (const m of arr(body.messages)) expect(Object.keys(obj(m))).not.toContain('reasoning_content');
    },
    mutations: r1
      ? [
          ['reasoning_content sent back', (b) => { message(b, 'messages', 3).reasoning_content = DEEPSEEK_REASONING; }],
          ['empty reasoning_content on an earlier turn', (b) => { message(b, 'messages', 1).reasoning_content = ''; }],
        ]
      : [
          ['reasoning_content missing on the earlier turn', (b) => { delete message(b, 'messages', 1).reasoning_content; }],
          ['reasoning_content missing on the tool-call turn', (b) => { delete message(b, 'messages', 3).reasoning_content; }],
          ['reasoning_content empty on the tool-call turn', (b) => { message(b, 'messages', 3).reasoning_content = ''; }],
        ],
    // V4: a turn whose reasoning was lost goes out with an empty reasoning_content, which the tool loop rejects.
    tampered: r1 ? undefined : (m) => ({ role: 'assistant', content: m.content, toolCalls: m.toolCalls }),
  };
}

function geminiScenario(): Scenario {
  const issued = new Issued();
  return {
    name: 'Google Gemini',
    id: 'gemini',
    model: GEMINI,
    extra: { reasoning: { summary: true } },
    issued,
    check: (b) => geminiProblems(b, issued),
    turn1: () => geminiTurn(issued, GEMINI, GEMINI_THOUGHT, { id: '', name: 'get_weather', args: WEATHER_ARGS, signature: GEMINI_CALL_SIGNATURE }),
    thinking: [{ text: GEMINI_THOUGHT.text, signature: GEMINI_THOUGHT.signature }],
    // No ids on this wire: the adapter makes one from the response id and the call's position.
    call: { id: 'call_wfGm01_0', name: 'get_weather', arguments: WEATHER_ARGS_TEXT, signature: GEMINI_CALL_SIGNATURE },
    expectTurn2(body) {
      expect(body.contents).toEqual([
        { role: 'user', parts: [{ text: USER }] },
        {
          role: 'model',
          parts: [
            { text: GEMINI_THOUGHT.text, thought: true, thoughtSignature: GEMINI_THOUGHT.signature },
            { functionCall: { name: 'get_weather', args: WEATHER_ARGS }, thoughtSignature: GEMINI_CALL_SIGNATURE },
          ],
        },
        { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { output: WEATHER_RESULT } } }] },
      ]);
    },
    mutations: [
      ['call signature missing', (b) => { delete obj(arr(message(b, 'contents', 1).parts)[1]).thoughtSignature; }],
      ['call signature changed', (b) => { obj(arr(message(b, 'contents', 1).parts)[1]).thoughtSignature = 'CiIBforged=='; }],
      ['thought signature changed', (b) => { obj(arr(message(b, 'contents', 1).parts)[0]).thoughtSignature = 'CiQBforged=='; }],
      ['function response missing', (b) => { message(b, 'contents', 2).parts = []; }],
    ],
    tampered: (m) => ({ role: 'assistant', content: m.content, thinking: m.thinking, toolCalls: m.toolCalls!.map((c) => ({ ...c, signature: 'CiIBforged==' })) }),
  };
}

function openrouterScenario(): Scenario {
  const issued = new Issued();
  const detail = { type: 'reasoning.text', text: OPENROUTER_THINKING.text, signature: OPENROUTER_THINKING.signature, format: OPENROUTER_THINKING.format, index: 0 };
  return {
    name: 'OpenRouter (Claude upstream)',
    id: 'openrouter',
    model: OPENROUTER_MODEL,
    extra: { reasoning: { budgetTokens: 2048 } },
    issued,
    check: (b) => openrouterProblems(b, issued),
    turn1: () => openrouterTurn(issued, OPENROUTER_MODEL, OPENROUTER_THINKING, OPENROUTER_CALL),
    thinking: [{ text: OPENROUTER_THINKING.text, signature: OPENROUTER_THINKING.signature, format: OPENROUTER_THINKING.format }],
    call: { id: OPENROUTER_CALL.id, name: 'get_weather', arguments: WEATHER_ARGS_TEXT },
    expectTurn2(body) {
      expect(body.reasoning).toEqual({ max_tokens: 2048 });
      expect(body.messages).toEqual([
        { role: 'user', content: USER },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: OPENROUTER_CALL.id, type: 'function', function: { name: 'get_weather', arguments: WEATHER_ARGS_TEXT } }],
          // As it arrived: one reasoning.text detail, its fragments joined, signature and format kept.
          reasoning_details: [detail],
        },
        { role: 'tool', tool_call_id: OPENROUTER_CALL.id, content: WEATHER_RESULT },
      ]);
    },
    mutations: [
      ['reasoning_details left out', (b) => { delete message(b, 'messages', 1).reasoning_details; }],
      ['signature changed', (b) => { obj(arr(message(b, 'messages', 1).reasoning_details)[0]).signature = 'ErUBforged=='; }],
      ['text edited', (b) => { obj(arr(message(b, 'messages', 1).reasoning_details)[0]).text = 'edited'; }],
    ],
    tampered: (m) => ({ role: 'assistant', content: m.content, thinking: [{ ...m.thinking![0]!, signature: 'ErUBforged==' }], toolCalls: m.toolCalls }),
  };
}

const REDACTED = 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfWXGmKDxH4mPnZ5sQ7vB4URj+wireforge==';
const SECOND_THOUGHT = { text: 'Paris is unambiguous here, so one call is enough.', signature: 'EqQBCkYIBxgCKkBsecond+wireforge/Signature==' };

function anthropicRedactedScenario(): Scenario {
  const issued = new Issued();
  const base = anthropicScenario();
  return {
    ...base,
    name: 'Anthropic Messages (thinking, redacted_thinking, thinking)',
    issued,
    check: (b) => anthropicProblems(b, issued),
    turn1: () => anthropicBlocksTurn(issued, CLAUDE, [CLAUDE_THINKING, { redacted: REDACTED }, SECOND_THOUGHT], CLAUDE_CALL),
    thinking: [
      { text: CLAUDE_THINKING.text, signature: CLAUDE_THINKING.signature },
      { text: '', redacted: REDACTED },
      { text: SECOND_THOUGHT.text, signature: SECOND_THOUGHT.signature },
    ],
    expectTurn2(body) {
      expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
      expect(message(body, 'messages', 1).content).toEqual([
        { type: 'thinking', thinking: CLAUDE_THINKING.text, signature: CLAUDE_THINKING.signature },
        // Unchanged, in its place among the thinking blocks.
        { type: 'redacted_thinking', data: REDACTED },
        { type: 'thinking', thinking: SECOND_THOUGHT.text, signature: SECOND_THOUGHT.signature },
        { type: 'tool_use', id: CLAUDE_CALL.id, name: 'get_weather', input: WEATHER_ARGS },
      ]);
    },
    mutations: [
      ['redacted_thinking left out', (b) => { message(b, 'messages', 1).content = arr(message(b, 'messages', 1).content).filter((x) => obj(x).type !== 'redacted_thinking'); }],
      ['redacted data changed', (b) => { obj(arr(message(b, 'messages', 1).content)[1]).data = 'EmwKforged=='; }],
    ],
    tampered: undefined,
  };
}

/** OpenRouter routing to an OpenAI reasoning model: a summary detail and an encrypted detail, both with the item id. */
const OR_GPT = 'openai/gpt-5';
const OR_GPT_DETAILS = [
  { type: 'reasoning.summary', summary: '**Weather lookup**\n\nThe user asks for the weather in Paris; calling get_weather.', id: 'rs_0c2f9e1d7b6a5948wireforge', format: 'openai-responses-v1', index: 0 },
  { type: 'reasoning.encrypted', data: 'gAAAAABpOpenRouterUpstreamEncrypted-wireforge-0004==', id: 'rs_0c2f9e1d7b6a5948wireforge', format: 'openai-responses-v1', index: 1 },
];
const OR_GPT_CALL = { id: 'call_OrGpt5Wireforge01', name: 'get_weather', args: WEATHER_ARGS };

function openrouterOpenAIScenario(): Scenario {
  const issued = new Issued();
  return {
    name: 'OpenRouter (OpenAI upstream: reasoning.summary + reasoning.encrypted details)',
    id: 'openrouter',
    model: OR_GPT,
    extra: { reasoning: { effort: 'medium' } },
    issued,
    check: (b) => openrouterProblems(b, issued),
    turn1: () => openrouterDetailsTurn(issued, OR_GPT, OR_GPT_DETAILS, OR_GPT_CALL),
    // The unified shape for these is the runtime's choice; the wire must give them back as they came.
    thinking: undefined,
    call: { id: OR_GPT_CALL.id, name: 'get_weather', arguments: WEATHER_ARGS_TEXT },
    expectTurn2(body) {
      expect(body.reasoning).toEqual({ effort: 'medium' });
      expect(message(body, 'messages', 1)).toEqual({
        role: 'assistant',
        content: null,
        tool_calls: [{ id: OR_GPT_CALL.id, type: 'function', function: { name: 'get_weather', arguments: WEATHER_ARGS_TEXT } }],
        // OpenRouter: reasoning_details go back unchanged and in order (type, id, format, index).
        reasoning_details: OR_GPT_DETAILS,
      });
    },
    mutations: [
      ['summary detail turned into a text detail', (b) => { const d = obj(arr(message(b, 'messages', 1).reasoning_details)[0]); d.type = 'reasoning.text'; d.text = d.summary; delete d.summary; }],
      ['id dropped', (b) => { delete obj(arr(message(b, 'messages', 1).reasoning_details)[1]).id; }],
    ],
  };
}

const SCENARIOS: Scenario[] = [
  anthropicScenario(),
  responsesScenario(undefined),
  responsesScenario(true),
  responsesScenario(false),
  responsesScenario(undefined, false),
  deepseekScenario('deepseek-reasoner'),
  deepseekScenario('deepseek-chat'),
  geminiScenario(),
  openrouterScenario(),
  anthropicRedactedScenario(),
  openrouterOpenAIScenario(),
];

// ---------------------------------------------------------------------------------------------
// Running a two-turn conversation

interface Flow {
  turn1: ChatResponse;
  events: StreamEvent[];
  turn2: ChatResponse;
  /** Request bodies: [turn 1, turn 2]. */
  bodies: Json[];
}

async function drain(stream: AsyncIterable<StreamEvent> & { final(): Promise<ChatResponse> }, into: StreamEvent[] = []): Promise<ChatResponse> {
  for await (const e of stream) into.push(e);
  return stream.final();
}

async function twoTurns(s: Scenario, turn1Mode: 'stream' | 'blocking', adjust?: (m: AssistantMessage) => AssistantMessage): Promise<Flow> {
  const family = wireFamilyOf(s.id);
  const provider = await startCheckedProvider(
    s.id,
    s.model,
    (b) => s.check(b),
    (b) => (hasToolResults(family, b) ? answerTurn(s.id, ANSWER, s.model) : s.turn1(b)),
  );
  try {
    const client = provider.client();
    const base: Omit<ChatRequest, 'messages'> = { model: s.model, tools: [weatherTool], ...s.extra };
    const first: Message[] = [...(s.earlier ?? []), { role: 'user', content: USER }];
    const events: StreamEvent[] = [];
    const turn1 = turn1Mode === 'stream' ? await drain(client.stream({ ...base, messages: first }), events) : await client.chat({ ...base, messages: first });
    const call = turn1.toolCalls[0];
    if (!call) throw new Error(`${s.name}: turn 1 made no tool call`);
    const history: Message[] = [...first, adjust ? adjust(turn1.message) : turn1.message, { role: 'tool', toolCallId: call.id, content: WEATHER_RESULT }];
    // Turn 2 the same way as turn 1, so the bodies differ by the stream flags at most.
    const turn2 = turn1Mode === 'stream' ? await drain(client.stream({ ...base, messages: history })) : await client.chat({ ...base, messages: history });
    return { turn1, events, turn2, bodies: provider.bodies().map(obj) };
  } finally {
    await provider.close();
  }
}

describe('continuity: a two-turn tool conversation per provider, checked by a loopback provider', () => {
  for (const s of SCENARIOS) {
    describe(s.name, () => {
      it('streamed turn 1 carries the state; turn 2 sends it back exactly as the provider requires', async () => {
        const flow = await twoTurns(s, 'stream');
        expect(flow.turn1.warnings).toEqual([]);
        expect(flow.turn1.finishReason).toBe('tool_calls');
        expect(flow.turn1.message.origin).toEqual({ provider: s.id, model: s.model });
        expect(flow.turn1.message.toolCalls).toEqual([s.call]);
        if (s.thinking) {
          expect(flow.turn1.message).toEqual({
            role: 'assistant',
            content: null,
            thinking: s.thinking,
            toolCalls: [s.call],
            // The turn in wire order: reasoning first, then the call (with its signature, for the history).
            parts: [...s.thinking.map((t) => ({ type: 'thinking', ...t })), { type: 'tool-call', call: s.call }],
            origin: { provider: s.id, model: s.model },
          });
        }
        // What streamed as reasoning is the reasoning the message keeps.
        const deltas = flow.events.filter((e) => e.type === 'thinking-delta').map((e) => (e as { delta: string }).delta);
        expect(deltas.join('')).toBe((flow.turn1.message.thinking ?? []).map((t) => t.text).join(''));
        expect(flow.turn1.thinking ?? '').toBe(deltas.join(''));
        expect(flow.events.filter((e) => e.type === 'tool-call')).toHaveLength(1);

        expect(flow.turn2.text).toBe(ANSWER);
        expect(flow.turn2.warnings).toEqual([]);
        expect(flow.bodies).toHaveLength(2);
        // `origin` is the runtime's bookkeeping, never a wire field.
        for (const b of flow.bodies) expect(JSON.stringify(b)).not.toContain('"origin"');
        expect(s.check(flow.bodies[1])).toEqual([]);
        s.expectTurn2(flow.bodies[1]!);
      });

      it('a blocking turn 1 gives the same message and the same turn-2 body', async () => {
        const streamed = await twoTurns(s, 'stream');
        const blocking = await twoTurns(s, 'blocking');
        expect(blocking.turn1.message).toEqual(streamed.turn1.message);
        expect(blocking.turn2.warnings).toEqual(streamed.turn2.warnings);
        expect(blocking.bodies[1]).toEqual(withoutStreamFlags(streamed.bodies[1]));
        s.expectTurn2(blocking.bodies[1]!);
      });

      it('the loopback provider rejects a turn 2 whose continuity state is missing or wrong', async () => {
        const { bodies } = await twoTurns(s, 'stream');
        const accepted = bodies[1]!;
        expect(s.check(accepted)).toEqual([]);
        for (const [what, mutate] of s.mutations) {
          const broken = clone(accepted);
          mutate(broken);
          expect(s.check(broken), what).not.toEqual([]);
        }
      });

      if (s.tampered) {
        const tampered = s.tampered;
        it('a tampered message without origin is sent as it is, and the provider rejects it (ProviderError, 400)', async () => {
          const error = await twoTurns(s, 'stream', tampered).then(
            () => undefined,
            (e: unknown) => e,
          );
          expect(error).toBeInstanceOf(ProviderError);
          const pe = error as ProviderError;
          expect(pe.status).toBe(400);
          expect(pe.provider).toBe(s.id);
          expect(pe.providerMessage).not.toBe('');
          expect(pe.body).toBeTruthy();
        });
      }
    });
  }

  it('Anthropic: a tool turn continued without its thinking block leaves thinking off for that request (warning), instead of a 400', async () => {
    // The API rejects "Expected `thinking` or `redacted_thinking`, but found `tool_use`" when thinking is
    // on and the turn being continued has none; the spec's continuity rule drops the setting instead.
    const s = anthropicScenario();
    const { bodies, turn2 } = await twoTurns(s, 'stream', ({ origin: _o, thinking: _t, ...m }) => m);
    expect(bodies[1]!.thinking).toBeUndefined();
    expect(turn2.warnings.map((w) => [w.type, w.field])).toContainEqual(['dropped', 'reasoning.budgetTokens']);
  });

  it('Responses, store:false: turn 1 asks for the encrypted reasoning (include)', async () => {
    const { bodies } = await twoTurns(responsesScenario(false), 'stream');
    expect(bodies[0]!.store).toBe(false);
    expect(bodies[0]!.include).toEqual(['reasoning.encrypted_content']);
  });

  it('Responses, store:false: a reasoning item without encrypted_content is not sent (warning); the provider never sees one', async () => {
    const issued = new Issued();
    const scenario = responsesScenario(undefined);
    const provider = await startCheckedProvider(
      'openai-responses',
      GPT,
      (b) => responsesProblems(b, issued),
      (b) =>
        hasToolResults('openai-responses', b)
          ? answerTurn('openai-responses', ANSWER, GPT)
          : responsesTurn(issued, {
              responseId: 'resp_storedTurnWireforge',
              model: `${GPT}-2025-08-07`,
              reasoning: { id: RS_ID, summary: RS_SUMMARY, addedEncrypted: RS_ADDED, doneEncrypted: RS_DONE },
              call: RESPONSES_CALL,
              withEncrypted: false,
              store: true,
            }),
    );
    try {
      const client = provider.client();
      const base = { model: GPT, tools: [weatherTool], ...scenario.extra };
      // Turn 1 stored (no include): the reasoning item has an id but no encrypted content.
      const turn1 = await drain(client.stream({ ...base, messages: [{ role: 'user', content: USER }] }));
      expect(turn1.message.thinking).toEqual([{ text: RS_SUMMARY, id: RS_ID }]);
      // Turn 2 with store:false: the item would be "not found".
      const turn2 = await drain(
        client.stream({
          ...base,
          store: false,
          messages: [{ role: 'user', content: USER }, turn1.message, { role: 'tool', toolCallId: RESPONSES_CALL.id, content: WEATHER_RESULT }],
        }),
      );
      expect(turn2.text).toBe(ANSWER);
      expect(turn2.warnings.map((w) => [w.type, w.field])).toEqual([['dropped', 'messages[1].thinking']]);
      const body = obj(provider.bodies()[1]);
      expect(body.include).toEqual(['reasoning.encrypted_content']);
      expect(arr(body.input).filter((i) => obj(i).type === 'reasoning')).toEqual([]);
      expect(body.input).toEqual([
        { role: 'user', content: USER },
        { type: 'function_call', call_id: RESPONSES_CALL.id, name: 'get_weather', arguments: WEATHER_ARGS_TEXT },
        { type: 'function_call_output', call_id: RESPONSES_CALL.id, output: WEATHER_RESULT },
      ]);
    } finally {
      await provider.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Cross-provider

const CROSS_USER = 'What is the weather in Paris, the local time there, and the forecast for two days?';
const TIME_RESULT = '14:05 (Europe/Paris)';
const FORECAST_RESULT = '{"days":[{"tempC":19,"sky":"cloudy"},{"tempC":21,"sky":"sunny"}]}';
const CROSS_TOOLS = [weatherTool, timeTool, forecastTool];
const GPT_CHAT = 'gpt-4.1';
const OPENAI_CALL = { id: 'call_oaTime7Wireforge', name: 'get_time', args: { tz: 'Europe/Paris' } };
const G_THOUGHT = { text: '**Planning the forecast**\n\nWeather and time are known; I still need the two-day forecast.', signature: 'CiQBVKhc7wireforgeGeminiThoughtSig/hop2==' };
const G_CALL_SIGNATURE = 'CiIBVKhc7wireforgeGeminiCallSig/hop2==';
const REASONING_KEYS = ['reasoning_content', 'reasoning', 'reasoning_details', 'thinking'];

const fields = (r: ChatResponse) => r.warnings.map((w) => `${w.type} ${w.field}`).sort();

interface CrossState {
  anthropic: Issued;
  gemini: Issued;
  history: Message[];
  r0: ChatResponse;
  r1: ChatResponse;
  r2: ChatResponse;
  bodies: { openai: Json; gemini: Json };
}

/** Anthropic (thinking + tool call) → OpenAI Chat (tool call) → Gemini (thought + signed call). */
async function firstThreeHops(): Promise<CrossState> {
  const anthropicIssued = new Issued();
  const geminiIssued = new Issued();
  const history: Message[] = [{ role: 'user', content: CROSS_USER }];

  // Hop 0: Anthropic, streamed, with thinking and a tool call.
  const a0 = await startCheckedProvider('anthropic-messages', CLAUDE, (b) => anthropicProblems(b, anthropicIssued), () => anthropicTurn(anthropicIssued, CLAUDE, CLAUDE_THINKING, CLAUDE_CALL));
  let r0: ChatResponse;
  try {
    r0 = await drain(a0.client().stream({ messages: history, tools: CROSS_TOOLS, reasoning: { budgetTokens: 2048 } }));
  } finally {
    await a0.close();
  }
  expect(r0.message.origin).toEqual({ provider: 'anthropic-messages', model: CLAUDE });
  history.push(r0.message, { role: 'tool', toolCallId: CLAUDE_CALL.id, content: WEATHER_RESULT });

  // Hop 1: OpenAI Chat: no reasoning fields may reach it.
  const o1 = await startCheckedProvider('openai-chat', GPT_CHAT, (b) => chatProblems(b), () => buildTurn('openai-chat', { responseId: 'hop1', calls: [OPENAI_CALL] }, GPT_CHAT));
  let r1: ChatResponse;
  let openaiBody: Json;
  try {
    r1 = await o1.client().chat({ messages: history, tools: CROSS_TOOLS });
    openaiBody = obj(o1.bodies()[0]);
  } finally {
    await o1.close();
  }
  history.push(r1.message, { role: 'tool', toolCallId: OPENAI_CALL.id, content: TIME_RESULT });

  // Hop 2: Gemini, streamed: its own thought and a signed function call.
  const g2 = await startCheckedProvider('gemini', GEMINI, (b) => geminiProblems(b, geminiIssued), () =>
    geminiTurn(geminiIssued, GEMINI, G_THOUGHT, { id: '', name: 'get_forecast', args: { city: 'Paris', days: 2 }, signature: G_CALL_SIGNATURE }),
  );
  let r2: ChatResponse;
  let geminiBody: Json;
  try {
    r2 = await drain(g2.client().stream({ messages: history, tools: CROSS_TOOLS, reasoning: { summary: true } }));
    geminiBody = obj(g2.bodies()[0]);
  } finally {
    await g2.close();
  }
  history.push(r2.message, { role: 'tool', toolCallId: r2.toolCalls[0]!.id, content: FORECAST_RESULT });
  return { anthropic: anthropicIssued, gemini: geminiIssued, history, r0, r1, r2, bodies: { openai: openaiBody, gemini: geminiBody } };
}

describe('continuity across providers: Anthropic → OpenAI Chat → Gemini → Anthropic', () => {
  it('every hop sends a request its provider accepts, and warns about what it dropped', async () => {
    const st = await firstThreeHops();

    // Hop 1 (OpenAI Chat): the Anthropic thinking was dropped, with a warning.
    expect(fields(st.r1)).toEqual(['dropped messages[1].thinking']);
    expect(chatProblems(st.bodies.openai)).toEqual([]);
    const oaMessages = arr(st.bodies.openai.messages).map(obj);
    for (const m of oaMessages) for (const k of REASONING_KEYS) expect(Object.keys(m), `messages[].${k}`).not.toContain(k);
    expect(oaMessages[1]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: CLAUDE_CALL.id, type: 'function', function: { name: 'get_weather', arguments: WEATHER_ARGS_TEXT } }],
    });
    expect(st.r1.message.origin).toEqual({ provider: 'openai-chat', model: GPT_CHAT });

    // Hop 2 (Gemini): no thought parts from Anthropic; calls it did not sign carry the skip sentinel.
    expect(fields(st.r2)).toEqual(['dropped messages[1].thinking']);
    expect(geminiProblems(st.bodies.gemini, st.gemini)).toEqual([]);
    const contents = arr(st.bodies.gemini.contents).map(obj);
    expect(contents.map((c) => c.role)).toEqual(['user', 'model', 'user', 'model', 'user']);
    expect(contents[1]!.parts).toEqual([{ functionCall: { name: 'get_weather', args: WEATHER_ARGS }, thoughtSignature: SKIP_SIGNATURE }]);
    expect(contents[3]!.parts).toEqual([{ functionCall: { name: 'get_time', args: { tz: 'Europe/Paris' } }, thoughtSignature: SKIP_SIGNATURE }]);
    for (const c of contents) for (const p of arr(c.parts)) expect(obj(p).thought).toBeUndefined();
    expect(st.r2.message.origin).toEqual({ provider: 'gemini', model: GEMINI });
    expect(st.r2.message.thinking).toEqual([{ text: G_THOUGHT.text, signature: G_THOUGHT.signature }]);
    expect(st.r2.message.toolCalls?.[0]?.signature).toBe(G_CALL_SIGNATURE);

    // Hop 3: back on Anthropic (thinking not requested this turn).
    const a3 = await startCheckedProvider('anthropic-messages', CLAUDE, (b) => anthropicProblems(b, st.anthropic), () => answerTurn('anthropic-messages', ANSWER, CLAUDE));
    let r3: ChatResponse;
    let body: Json;
    try {
      r3 = await a3.client().chat({ messages: st.history, tools: CROSS_TOOLS });
      body = obj(a3.bodies()[0]);
    } finally {
      await a3.close();
    }
    expect(r3.text).toBe(ANSWER);
    // The Gemini turn's thought and its call signature are not valid here.
    expect(fields(r3)).toEqual(['dropped messages[5].thinking', 'dropped messages[5].toolCalls']);
    expect(anthropicProblems(body, st.anthropic)).toEqual([]);
    const msgs = arr(body.messages).map(obj);
    expect(msgs.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user']);
    // The Anthropic turn keeps its signed thinking block, first.
    expect(msgs[1]!.content).toEqual([
      { type: 'thinking', thinking: CLAUDE_THINKING.text, signature: CLAUDE_THINKING.signature },
      { type: 'tool_use', id: CLAUDE_CALL.id, name: 'get_weather', input: WEATHER_ARGS },
    ]);
    // The OpenAI and Gemini turns carry no thinking.
    expect(msgs[3]!.content).toEqual([{ type: 'tool_use', id: OPENAI_CALL.id, name: 'get_time', input: { tz: 'Europe/Paris' } }]);
    expect(msgs[5]!.content).toEqual([{ type: 'tool_use', id: st.r2.toolCalls[0]!.id, name: 'get_forecast', input: { city: 'Paris', days: 2 } }]);
    expect(msgs[6]!.content).toEqual([{ type: 'tool_result', tool_use_id: st.r2.toolCalls[0]!.id, content: FORECAST_RESULT }]);
  });

  it('back on Anthropic with thinking requested: the request is still one Anthropic accepts (the last tool-loop turn has no thinking block)', async () => {
    const st = await firstThreeHops();
    const a3 = await startCheckedProvider('anthropic-messages', CLAUDE, (b) => anthropicProblems(b, st.anthropic), () => answerTurn('anthropic-messages', ANSWER, CLAUDE));
    try {
      const r3 = await a3.client().chat({ messages: st.history, tools: CROSS_TOOLS, reasoning: { budgetTokens: 2048 } });
      expect(r3.text).toBe(ANSWER);
      // What could not be carried is reported: the Gemini state, and the thinking setting itself.
      expect(r3.warnings.map((w) => w.field)).toEqual(expect.arrayContaining(['messages[5].thinking', 'messages[5].toolCalls', 'reasoning.budgetTokens']));
    } finally {
      await a3.close();
    }
  });
});

describe('continuity across providers: Gemini tool turns continued on Anthropic', () => {
  it('two Gemini tool-call turns (no call ids on that wire) then Anthropic: tool_use ids are unique in the request', async () => {
    const geminiIssued = new Issued();
    const anthropicIssued = new Issued();
    const history: Message[] = [{ role: 'user', content: CROSS_USER }];
    const g = await startCheckedProvider('gemini', GEMINI, (b) => geminiProblems(b, geminiIssued), (_b, _r, i) =>
      i === 0
        ? geminiTurn(geminiIssued, GEMINI, GEMINI_THOUGHT, { id: '', name: 'get_weather', args: WEATHER_ARGS, signature: GEMINI_CALL_SIGNATURE })
        : geminiTurn(geminiIssued, GEMINI, G_THOUGHT, { id: '', name: 'get_time', args: { tz: 'Europe/Paris' }, signature: G_CALL_SIGNATURE }),
    );
    try {
      const first = await drain(g.client().stream({ messages: history, tools: CROSS_TOOLS }));
      history.push(first.message, { role: 'tool', toolCallId: first.toolCalls[0]!.id, content: WEATHER_RESULT });
      const second = await drain(g.client().stream({ messages: history, tools: CROSS_TOOLS }));
      history.push(second.message, { role: 'tool', toolCallId: second.toolCalls[0]!.id, content: TIME_RESULT });
      // Each tool result answers its own call.
      expect(second.warnings).toEqual([]);
    } finally {
      await g.close();
    }
    const a = await startCheckedProvider('anthropic-messages', CLAUDE, (b) => anthropicProblems(b, anthropicIssued), () => answerTurn('anthropic-messages', ANSWER, CLAUDE));
    try {
      const r = await a.client().chat({ messages: history, tools: CROSS_TOOLS });
      expect(r.text).toBe(ANSWER);
      const msgs = arr(obj(a.bodies()[0]).messages).map(obj);
      const uses = msgs.flatMap((m) => arr(m.content).map(obj).filter((x) => x.type === 'tool_use'));
      const results = msgs.flatMap((m) => arr(m.content).map(obj).filter((x) => x.type === 'tool_result'));
      expect(new Set(uses.map((u) => u.id)).size).toBe(2);
      expect(results.map((x) => x.tool_use_id)).toEqual(uses.map((u) => u.id));
    } finally {
      await a.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------
// apply-continuity through buildRequest

describe('apply-continuity through buildRequest', () => {
  const toolTurn = (extra: Partial<AssistantMessage>): AssistantMessage => ({
    role: 'assistant',
    content: null,
    toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: WEATHER_ARGS_TEXT }],
    ...extra,
  });
  const conversation = (m: AssistantMessage): Message[] => [{ role: 'user', content: USER }, m, { role: 'tool', toolCallId: 'call_1', content: WEATHER_RESULT }];

  it('a message without origin is the caller\'s own: sent as it is (Anthropic thinking with a signature it did not issue)', () => {
    const built = adapters['anthropic-messages'].buildRequest(
      { model: CLAUDE, messages: conversation(toolTurn({ thinking: [{ text: 'my own notes', signature: 'sig-from-somewhere' }, { text: '', redacted: 'EmwKAhgBEgy3va3pzix/LafPsn4a' }] })) },
      'blocking',
    );
    expect(built.warnings).toEqual([]);
    expect(obj(arr(built.body.messages)[1]).content).toEqual([
      { type: 'thinking', thinking: 'my own notes', signature: 'sig-from-somewhere' },
      { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix/LafPsn4a' },
      { type: 'tool_use', id: 'call_1', name: 'get_weather', input: WEATHER_ARGS },
    ]);
  });

  it('a message without origin is sent as it is (Gemini call signature, OpenRouter reasoning_details)', () => {
    const gemini = adapters.gemini.buildRequest(
      { model: GEMINI, messages: conversation(toolTurn({ toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: WEATHER_ARGS_TEXT, signature: 'sig-own' }] })) },
      'blocking',
    );
    expect(gemini.warnings).toEqual([]);
    expect(obj(arr(gemini.body.contents)[1]).parts).toEqual([{ functionCall: { name: 'get_weather', args: WEATHER_ARGS }, thoughtSignature: 'sig-own' }]);

    const openrouter = adapters.openrouter.buildRequest(
      { model: 'openai/gpt-5', messages: conversation(toolTurn({ thinking: [{ text: 'plan', signature: 'sig-own', format: 'anthropic-claude-v1' }] })) },
      'blocking',
    );
    expect(openrouter.warnings).toEqual([]);
    expect(obj(arr(openrouter.body.messages)[1]).reasoning_details).toEqual([{ type: 'reasoning.text', text: 'plan', signature: 'sig-own', format: 'anthropic-claude-v1', index: 0 }]);
  });

  it('a message from the same provider keeps its state; from another provider it is dropped with warnings', () => {
    const signed = toolTurn({
      thinking: [{ text: 'plan', signature: 'sig-1' }],
      toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: WEATHER_ARGS_TEXT, signature: 'gsig-1' }],
    });
    const own = adapters.gemini.buildRequest({ model: GEMINI, messages: conversation({ ...signed, origin: { provider: 'gemini', model: 'gemini-2.5-pro' } }) }, 'blocking');
    expect(own.warnings).toEqual([]);
    expect(obj(arr(own.body.contents)[1]).parts).toEqual([
      { text: 'plan', thought: true, thoughtSignature: 'sig-1' },
      { functionCall: { name: 'get_weather', args: WEATHER_ARGS }, thoughtSignature: 'gsig-1' },
    ]);
    const foreign = adapters.gemini.buildRequest({ model: GEMINI, messages: conversation({ ...signed, origin: { provider: 'openrouter', model: 'google/gemini-3-pro' } }) }, 'blocking');
    expect(foreign.warnings.map((w) => `${w.type} ${w.field}`).sort()).toEqual(['dropped messages[1].thinking', 'dropped messages[1].toolCalls']);
    expect(obj(arr(foreign.body.contents)[1]).parts).toEqual([{ functionCall: { name: 'get_weather', args: WEATHER_ARGS }, thoughtSignature: SKIP_SIGNATURE }]);
  });

  it('a wire with no place for another provider\'s state (OpenAI Chat) writes none of it, and says so for each: reasoning, call signatures, wire parts', () => {
    const gemini = toolTurn({
      content: 'Checking.',
      thinking: [{ text: 'plan', signature: 'sig-1' }],
      toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: WEATHER_ARGS_TEXT, signature: 'gsig-1' }],
      parts: [{ type: 'opaque', kind: 'code_execution', value: { code: 'x' }, wire: { executableCode: { code: 'x' } } }],
      origin: { provider: 'gemini', model: 'gemini-2.5-pro' },
    });
    const built = adapters['openai-chat'].buildRequest({ model: GPT, messages: conversation(gemini) }, 'blocking');
    expect(built.warnings.map((w) => `${w.type} ${w.field}`).sort()).toEqual(['dropped messages[1].parts[0]', 'dropped messages[1].thinking', 'dropped messages[1].toolCalls']);
    expect(built.warnings.find((w) => w.field === 'messages[1].toolCalls')?.message).toMatch(/no place for tool-call signatures/);
    const wire = JSON.parse(JSON.stringify(built.body)) as Json;
    expect(arr(wire.messages)[1]).toEqual({ role: 'assistant', content: 'Checking.', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: WEATHER_ARGS_TEXT } }] });
    // The same turn without origin (the caller's own) is warned about alike: the wire has no place for it either way.
    const own = adapters['openai-chat'].buildRequest({ model: GPT, messages: conversation({ ...gemini, origin: undefined }) }, 'blocking');
    expect(own.warnings.map((w) => w.field).sort()).toEqual(['messages[1].parts[0]', 'messages[1].thinking', 'messages[1].toolCalls']);
  });

  it("scope 'model' (OpenRouter): the same provider but another model drops reasoning_details with a warning", () => {
    const turn = toolTurn({
      thinking: [{ text: 'plan', signature: 'sig-claude', format: 'anthropic-claude-v1' }],
      origin: { provider: 'openrouter', model: OPENROUTER_MODEL },
    });
    const other = adapters.openrouter.buildRequest({ model: 'openai/gpt-5', messages: conversation(turn) }, 'blocking');
    expect(other.warnings.map((w) => [w.type, w.field])).toEqual([['dropped', 'messages[1].thinking']]);
    // What goes on the wire (unset fields are left out by JSON.stringify).
    const wire = obj(arr(JSON.parse(JSON.stringify(other.body)).messages)[1]);
    expect(wire).not.toHaveProperty('reasoning_details');
    expect(wire.tool_calls).toEqual([{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: WEATHER_ARGS_TEXT } }]);

    const same = adapters.openrouter.buildRequest({ model: OPENROUTER_MODEL, messages: conversation(turn) }, 'blocking');
    expect(same.warnings).toEqual([]);
    expect(obj(arr(same.body.messages)[1]).reasoning_details).toEqual([{ type: 'reasoning.text', text: 'plan', signature: 'sig-claude', format: 'anthropic-claude-v1', index: 0 }]);
  });

  it("scope 'provider' (Anthropic): another model of the same provider keeps the signed thinking", () => {
    const turn = toolTurn({ thinking: [{ text: 'plan', signature: 'sig-1' }], origin: { provider: 'anthropic-messages', model: 'claude-opus-4-1' } });
    const built = adapters['anthropic-messages'].buildRequest({ model: CLAUDE, messages: conversation(turn) }, 'blocking');
    expect(built.warnings).toEqual([]);
    expect(obj(arr(built.body.messages)[1]).content).toEqual([
      { type: 'thinking', thinking: 'plan', signature: 'sig-1' },
      { type: 'tool_use', id: 'call_1', name: 'get_weather', input: WEATHER_ARGS },
    ]);
  });

  it("foreignThinking 'text' (a spec that takes reasoning from elsewhere as text): it goes before the turn's text, with a warning; redacted blocks stay out", () => {
    const chat = adapters['openai-chat'];
    const profile = { ...chat.profile, continuity: { ...chat.profile.continuity, foreignThinking: 'text' as const } };
    const asText = defineAdapter(profile, { ...chat.codec, uses: { ...chat.codec.uses, continuity: continuityRules } }, { kit: KIT_VERSION });
    const turn = toolTurn({
      content: 'Checking.',
      thinking: [{ text: 'plan A', signature: 'sig-1' }, { text: '', redacted: 'opaque' }, { text: 'plan B' }],
      origin: { provider: 'anthropic-messages', model: CLAUDE },
    });
    const built = asText.buildRequest({ model: GPT, messages: conversation(turn) }, 'blocking');
    expect(built.warnings).toEqual([
      { type: 'dropped', field: 'messages[1].thinking', message: `reasoning from anthropic-messages (${CLAUDE}) cannot go back to openai-chat as reasoning; it was sent as text` },
    ]);
    expect(obj(arr(built.body.messages)[1]).content).toBe('plan A\n\nplan B\n\nChecking.');
    const onlyRedacted = asText.buildRequest({ model: GPT, messages: conversation({ ...turn, content: null, thinking: [{ text: '', redacted: 'opaque' }] }) }, 'blocking');
    expect(onlyRedacted.warnings.map((w) => w.message)).toEqual([`reasoning from anthropic-messages (${CLAUDE}) is not valid for openai-chat; it was not sent`]);
    expect(() => defineAdapter(profile, chat.codec, { kit: KIT_VERSION }).buildRequest({ model: GPT, messages: conversation(turn) }, 'blocking')).toThrow(/needs codec\.uses\.continuity/);
  });

  it('rules apply to messages without origin too: Responses store:false drops reasoning without encrypted content; DeepSeek fills reasoning_content', () => {
    const responses = adapters['openai-responses'].buildRequest(
      { model: GPT, store: false, messages: conversation(toolTurn({ thinking: [{ text: 'summary', id: 'rs_1' }] })) },
      'blocking',
    );
    expect(responses.warnings.map((w) => [w.type, w.field])).toEqual([['dropped', 'messages[1].thinking']]);
    expect(responses.body.include).toEqual(['reasoning.encrypted_content']);
    expect(arr(responses.body.input).map((i) => obj(i).type ?? obj(i).role)).toEqual(['user', 'function_call', 'function_call_output']);

    const v4 = adapters.deepseek.buildRequest({ model: 'deepseek-chat', messages: conversation(toolTurn({})) }, 'blocking');
    expect(v4.warnings).toEqual([]);
    expect(obj(arr(v4.body.messages)[1]).reasoning_content).toBe('');
    const r1 = adapters.deepseek.buildRequest({ model: 'deepseek-reasoner', messages: conversation(toolTurn({ thinking: [{ text: 'old reasoning' }] })) }, 'blocking');
    expect(obj(arr(JSON.parse(JSON.stringify(r1.body)).messages)[1])).not.toHaveProperty('reasoning_content');
  });
});
