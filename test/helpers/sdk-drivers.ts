/**
 * The official SDKs as callers: for each of the four main protocols, the same four calls (text,
 * a stream through the SDK's own stream helper, a tool round, an error), each returning what the
 * caller saw. Used against the mock servers directly and through the gateway; the script below
 * is what every upstream answers with.
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import type { MockStep } from '../../generated/serve.js';

export const SDK_KEY = 'sk-mock-test-key-0001';
export const WEATHER = { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] };
export const GREETING = 'Hello there, this is the mock speaking.';
export const ANSWER = 'It is 18 degrees in Paris.';

/** The same script for every protocol: a tool call first, the answer once its result is back. */
export const script = (): MockStep[] => [
  { when: { lastUserText: 'fail please' }, fault: { status: 429, message: 'slow down', retryAfter: 1 } },
  { when: { toolResultFor: 'call_w1' }, reply: { text: ANSWER, usage: { inputTokens: 40, outputTokens: 9 } } },
  { when: { lastUserText: 'weather' }, reply: { toolCalls: [{ id: 'call_w1', name: 'get_weather', arguments: { city: 'Paris' } }], usage: { inputTokens: 30, outputTokens: 12 } } },
  { reply: { text: GREETING, thinking: { text: 'A greeting is due.', signature: 'sig-abc' }, usage: { inputTokens: 12, outputTokens: 8 } } },
];

export interface Seen {
  text: string | undefined;
  /** Text deltas the SDK's stream helper reported (stream only). */
  deltas?: number;
  usage?: { input?: number | undefined; output?: number | undefined };
}

export interface ToolRound {
  call: { name: string; args: unknown };
  answer: string | undefined;
}

export interface ErrorSeen {
  status: number | undefined;
  message: string;
  /** The SDK's own class for the status. */
  typed: boolean;
}

export interface Driver {
  text(url: string): Promise<Seen>;
  stream(url: string): Promise<Seen>;
  tools(url: string): Promise<ToolRound>;
  error(url: string): Promise<ErrorSeen>;
}

const Q = 'What is the weather in Paris?';

const openaiChat: Driver = {
  async text(url) {
    const r = await new OpenAI({ apiKey: SDK_KEY, baseURL: url, maxRetries: 0 }).chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] });
    return { text: r.choices[0]?.message.content ?? undefined, usage: { input: r.usage?.prompt_tokens, output: r.usage?.completion_tokens } };
  },
  async stream(url) {
    const s = new OpenAI({ apiKey: SDK_KEY, baseURL: url, maxRetries: 0 }).chat.completions.stream({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }], stream_options: { include_usage: true } });
    let deltas = 0;
    s.on('content', () => deltas++);
    const f = await s.finalChatCompletion();
    return { text: f.choices[0]?.message.content ?? undefined, deltas, usage: { input: f.usage?.prompt_tokens, output: f.usage?.completion_tokens } };
  },
  async tools(url) {
    const client = new OpenAI({ apiKey: SDK_KEY, baseURL: url, maxRetries: 0 });
    const tools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: WEATHER } }];
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: Q }];
    const first = await client.chat.completions.stream({ model: 'gpt-test', messages, tools }).finalChatCompletion();
    const call = first.choices[0]!.message.tool_calls![0]! as { id: string; function: { name: string; arguments: string } };
    messages.push(first.choices[0]!.message, { role: 'tool', tool_call_id: call.id, content: '18C' });
    const second = await client.chat.completions.create({ model: 'gpt-test', messages, tools });
    return { call: { name: call.function.name, args: JSON.parse(call.function.arguments) }, answer: second.choices[0]?.message.content ?? undefined };
  },
  async error(url) {
    const e = await new OpenAI({ apiKey: SDK_KEY, baseURL: url, maxRetries: 0 }).chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'fail please' }] }).catch((x: unknown) => x);
    return { status: (e as { status?: number }).status, message: String((e as Error).message), typed: e instanceof OpenAI.RateLimitError };
  },
};

const openaiResponses: Driver = {
  async text(url) {
    const r = await new OpenAI({ apiKey: SDK_KEY, baseURL: url, maxRetries: 0 }).responses.create({ model: 'gpt-test', input: 'hi' });
    return { text: r.output_text, usage: { input: r.usage?.input_tokens, output: r.usage?.output_tokens } };
  },
  async stream(url) {
    const s = new OpenAI({ apiKey: SDK_KEY, baseURL: url, maxRetries: 0 }).responses.stream({ model: 'gpt-test', input: [{ role: 'user', content: 'hi' }] });
    let deltas = 0;
    s.on('response.output_text.delta', () => deltas++);
    const f = await s.finalResponse();
    return { text: f.output_text, deltas, usage: { input: f.usage?.input_tokens, output: f.usage?.output_tokens } };
  },
  async tools(url) {
    const client = new OpenAI({ apiKey: SDK_KEY, baseURL: url, maxRetries: 0 });
    const tools = [{ type: 'function' as const, name: 'get_weather', parameters: WEATHER, strict: false }];
    const first = await client.responses.create({ model: 'gpt-test', input: Q, tools });
    const call = first.output.find((o) => o.type === 'function_call') as { call_id: string; name: string; arguments: string };
    const second = await client.responses.create({
      model: 'gpt-test',
      tools,
      input: [{ role: 'user', content: Q }, ...(first.output as OpenAI.Responses.ResponseInputItem[]), { type: 'function_call_output', call_id: call.call_id, output: '18C' }],
    });
    return { call: { name: call.name, args: JSON.parse(call.arguments) }, answer: second.output_text };
  },
  async error(url) {
    const e = await new OpenAI({ apiKey: SDK_KEY, baseURL: url, maxRetries: 0 }).responses.create({ model: 'gpt-test', input: 'fail please' }).catch((x: unknown) => x);
    return { status: (e as { status?: number }).status, message: String((e as Error).message), typed: e instanceof OpenAI.RateLimitError };
  },
};

const textOf = (content: Anthropic.ContentBlock[]) => content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('') || undefined;

const anthropic: Driver = {
  async text(url) {
    const r = await new Anthropic({ apiKey: SDK_KEY, baseURL: url, maxRetries: 0 }).messages.create({ model: 'claude-test', max_tokens: 256, messages: [{ role: 'user', content: 'hi' }] });
    return { text: textOf(r.content), usage: { input: r.usage.input_tokens, output: r.usage.output_tokens } };
  },
  async stream(url) {
    const s = new Anthropic({ apiKey: SDK_KEY, baseURL: url, maxRetries: 0 }).messages.stream({ model: 'claude-test', max_tokens: 256, messages: [{ role: 'user', content: 'hi' }] });
    let deltas = 0;
    s.on('text', () => deltas++);
    const f = await s.finalMessage();
    return { text: textOf(f.content), deltas, usage: { input: f.usage.input_tokens, output: f.usage.output_tokens } };
  },
  async tools(url) {
    const client = new Anthropic({ apiKey: SDK_KEY, baseURL: url, maxRetries: 0 });
    const tools = [{ name: 'get_weather', input_schema: WEATHER }];
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: Q }];
    const first = await client.messages.stream({ model: 'claude-test', max_tokens: 256, messages, tools }).finalMessage();
    const call = first.content.find((b) => b.type === 'tool_use') as Anthropic.ToolUseBlock;
    messages.push({ role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: '18C' }] });
    const second = await client.messages.create({ model: 'claude-test', max_tokens: 256, messages, tools });
    return { call: { name: call.name, args: call.input }, answer: textOf(second.content) };
  },
  async error(url) {
    const e = await new Anthropic({ apiKey: SDK_KEY, baseURL: url, maxRetries: 0 }).messages.create({ model: 'claude-test', max_tokens: 10, messages: [{ role: 'user', content: 'fail please' }] }).catch((x: unknown) => x);
    return { status: (e as { status?: number }).status, message: String((e as Error).message), typed: e instanceof Anthropic.RateLimitError };
  },
};

const gemini: Driver = {
  async text(url) {
    const r = await new GoogleGenAI({ apiKey: SDK_KEY, httpOptions: { baseUrl: url } }).models.generateContent({ model: 'gemini-test', contents: 'hi' });
    return { text: r.text, usage: { input: r.usageMetadata?.promptTokenCount, output: (r.usageMetadata?.candidatesTokenCount ?? 0) + (r.usageMetadata?.thoughtsTokenCount ?? 0) } };
  },
  async stream(url) {
    const s = await new GoogleGenAI({ apiKey: SDK_KEY, httpOptions: { baseUrl: url } }).models.generateContentStream({ model: 'gemini-test', contents: 'hi' });
    let text = '';
    let deltas = 0;
    let usage: Seen['usage'];
    for await (const chunk of s) {
      if (chunk.text) (text += chunk.text), deltas++;
      if (chunk.usageMetadata) usage = { input: chunk.usageMetadata.promptTokenCount, output: (chunk.usageMetadata.candidatesTokenCount ?? 0) + (chunk.usageMetadata.thoughtsTokenCount ?? 0) };
    }
    return { text, deltas, ...(usage ? { usage } : {}) };
  },
  async tools(url) {
    const ai = new GoogleGenAI({ apiKey: SDK_KEY, httpOptions: { baseUrl: url } });
    const config = { tools: [{ functionDeclarations: [{ name: 'get_weather', parametersJsonSchema: WEATHER }] }] };
    const first = await ai.models.generateContent({ model: 'gemini-test', contents: Q, config });
    const call = first.functionCalls![0]!;
    const second = await ai.models.generateContent({
      model: 'gemini-test',
      config,
      contents: [{ role: 'user', parts: [{ text: Q }] }, first.candidates![0]!.content!, { role: 'user', parts: [{ functionResponse: { name: call.name!, response: { output: '18C' } } }] }],
    });
    return { call: { name: call.name!, args: call.args }, answer: second.text };
  },
  async error(url) {
    const e = await new GoogleGenAI({ apiKey: SDK_KEY, httpOptions: { baseUrl: url } }).models.generateContent({ model: 'gemini-test', contents: 'fail please' }).catch((x: unknown) => x);
    return { status: (e as { status?: number }).status, message: String((e as Error).message), typed: e instanceof Error && (e as { status?: number }).status === 429 };
  },
};

export const DRIVERS = { 'openai-chat': openaiChat, 'openai-responses': openaiResponses, 'anthropic-messages': anthropic, gemini } as const;
export type MainProtocol = keyof typeof DRIVERS;
export const MAIN_PROTOCOLS = Object.keys(DRIVERS) as MainProtocol[];
