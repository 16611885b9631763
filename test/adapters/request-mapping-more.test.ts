/**
 * Request mapping, table-driven, for the specs beyond openai-chat and anthropic-messages: OpenAI
 * Responses, Gemini, Ollama, and the OpenAI-compatible overlays. Every expected body is written
 * from the wire facts in docs/wire-facts.md (#openai-responses, #google-gemini, #ollama,
 * #openai-compatible-providers and #mistral), not from what the adapters emit.
 *
 * `warnings` lists the exact set of warning fields a case must produce (none when omitted); an
 * entry may also be `{ type, field }` to pin the warning type.
 */
import { describe, expect, it } from 'vitest';
import { checkCase, JPEG_B64, PNG_B64, TIME_SCHEMA, TOOL_HISTORY, USER_HI, WEATHER_SCHEMA, wire, type Case, type Table } from '../helpers/request-table.js';
import { adapter as responses } from '../../generated/openai-responses.js';
import { adapter as gemini } from '../../generated/gemini.js';
import { adapter as ollama } from '../../generated/ollama.js';
import { adapter as deepseek } from '../../generated/deepseek.js';
import { adapter as openrouter } from '../../generated/openrouter.js';
import { adapter as vllm } from '../../generated/vllm.js';
import { adapter as groq } from '../../generated/groq.js';
import { adapter as mistral } from '../../generated/mistral.js';
import { adapter as xai } from '../../generated/xai.js';
import { adapter as together } from '../../generated/together.js';
import { adapter as openaiCompatible } from '../../generated/openai-compatible.js';
import { createClient } from '../../generated/index.js';
import type { ProviderAdapter } from '../../runtime/contract/adapter.js';
import type { ChatRequest } from '../../runtime/contract/unified-model.js';



/** Tools with no `strict` flag: for wires that have no such flag (Gemini, Ollama). */
const WEATHER_TOOL = { name: 'get_weather', description: 'Weather for a city', parameters: WEATHER_SCHEMA };
const TIME_TOOL = { name: 'get_time', parameters: TIME_SCHEMA };
const STRICT_WEATHER_TOOL = { ...WEATHER_TOOL, strict: true };


/** The same round with both results succeeding (for wires with no error flag on a result). */
const TOOL_HISTORY_OK: ChatRequest['messages'] = TOOL_HISTORY.map((m) =>
  m.role === 'tool' && m.isError ? { role: 'tool', toolCallId: m.toolCallId, content: '09:00' } : m,
);

const SCHEMA_FORMAT = {
  type: 'json_schema',
  name: 'weather_report',
  schema: { type: 'object', properties: { summary: { type: 'string' } }, required: ['summary'], additionalProperties: false },
  strict: true,
} as const;

const MIXED_USER_CONTENT: ChatRequest['messages'] = [
  {
    role: 'user',
    content: [
      { type: 'text', text: 'What is in these?' },
      { type: 'image', url: 'https://example.com/cat.png', mediaType: 'image/png' },
      { type: 'image', data: JPEG_B64, mediaType: 'image/jpeg' },
      { type: 'image', url: `data:image/png;base64,${PNG_B64}` },
    ],
  },
];

// ───────────────────────────── OpenAI Responses (docs/wire-facts.md#openai-responses) ─────────────────────────────

const GPT = 'gpt-5';
const R_HI = { role: 'user', content: 'Hi' };

/** An assistant turn with reasoning (id + encrypted content), text and a tool call, then its result. */
const REASONING_HISTORY: ChatRequest['messages'] = [
  { role: 'user', content: 'Time in Tokyo?' },
  {
    role: 'assistant',
    content: 'Let me check.',
    thinking: [{ id: 'rs_01', text: 'Need the clock tool.', signature: 'gAAAAABencrypted…' }],
    toolCalls: [{ id: 'call_7', name: 'get_time', arguments: '{"tz":"Asia/Tokyo"}' }],
  },
  { role: 'tool', toolCallId: 'call_7', toolName: 'get_time', content: '09:00' },
  { role: 'user', content: 'And in Paris?' },
];

const RESPONSES: Table = [
  [
    'plain user text → input item {role:user, content}',
    {
      given: { model: GPT, messages: [USER_HI] },
      want: { model: GPT, input: [R_HI] },
    },
  ],
  [
    'request-level system → instructions',
    {
      given: { model: GPT, system: 'Be terse.', messages: [USER_HI] },
      want: { model: GPT, instructions: 'Be terse.', input: [R_HI] },
    },
  ],
  [
    'several system texts (request + system-role messages) join into instructions with a blank line',
    {
      given: {
        model: GPT,
        system: 'Be terse.',
        messages: [{ role: 'system', content: 'Answer in French.' }, USER_HI, { role: 'system', content: 'Cite sources.' }, { role: 'user', content: 'Again' }],
      },
      want: {
        model: GPT,
        instructions: 'Be terse.\n\nAnswer in French.\n\nCite sources.',
        input: [R_HI, { role: 'user', content: 'Again' }],
      },
    },
  ],
  [
    'multi-part user content: input_text, input_image by URL, base64 and data: URL as data URLs',
    {
      given: { model: GPT, messages: MIXED_USER_CONTENT },
      want: {
        model: GPT,
        input: [
          {
            role: 'user',
            content: [
              { type: 'input_text', text: 'What is in these?' },
              { type: 'input_image', image_url: 'https://example.com/cat.png' },
              { type: 'input_image', image_url: `data:image/jpeg;base64,${JPEG_B64}` },
              { type: 'input_image', image_url: `data:image/png;base64,${PNG_B64}` },
            ],
          },
        ],
      },
    },
  ],
  [
    'user name has no field on a Responses input item: dropped with a warning',
    {
      given: { model: GPT, messages: [{ role: 'user', content: 'Hi', name: 'alice' }] },
      want: { model: GPT, input: [R_HI] },
      warnings: [{ type: 'dropped', field: 'messages[0].name' }],
    },
  ],
  [
    'assistant history: reasoning, message and function_call are separate top-level items, in that order; then function_call_output',
    {
      given: { model: GPT, messages: REASONING_HISTORY },
      want: {
        model: GPT,
        input: [
          { role: 'user', content: 'Time in Tokyo?' },
          {
            type: 'reasoning',
            id: 'rs_01',
            summary: [{ type: 'summary_text', text: 'Need the clock tool.' }],
            encrypted_content: 'gAAAAABencrypted…',
          },
          { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Let me check.' }] },
          { type: 'function_call', call_id: 'call_7', name: 'get_time', arguments: '{"tz":"Asia/Tokyo"}' },
          { type: 'function_call_output', call_id: 'call_7', output: '09:00' },
          { role: 'user', content: 'And in Paris?' },
        ],
      },
    },
  ],
  [
    'a reasoning item that came back with an empty summary is replayed with summary [] (as the API returned it)',
    {
      given: {
        model: GPT,
        messages: [
          USER_HI,
          { role: 'assistant', content: 'Hello!', thinking: [{ id: 'rs_02', text: '', signature: 'gAAAAABopaque…' }] },
          { role: 'user', content: 'Bye' },
        ],
      },
      want: {
        model: GPT,
        input: [
          R_HI,
          { type: 'reasoning', id: 'rs_02', summary: [], encrypted_content: 'gAAAAABopaque…' },
          { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Hello!' }] },
          { role: 'user', content: 'Bye' },
        ],
      },
    },
  ],
  [
    'parallel function calls (content null) → one function_call item each, arguments byte-exact; results → function_call_output',
    {
      given: { model: GPT, messages: TOOL_HISTORY_OK },
      want: {
        model: GPT,
        input: [
          { role: 'user', content: 'Weather in Paris and the time in Tokyo?' },
          { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
          { type: 'function_call', call_id: 'call_2', name: 'get_time', arguments: '{"tz":"Asia/Tokyo"}' },
          { type: 'function_call_output', call_id: 'call_1', output: '{"temp_c":18}' },
          { type: 'function_call_output', call_id: 'call_2', output: '09:00' },
          { role: 'user', content: 'Thanks, and tomorrow?' },
        ],
      },
    },
  ],
  [
    'tools are flat {type:function, name, description, parameters, strict}',
    {
      given: { model: GPT, messages: [USER_HI], tools: [STRICT_WEATHER_TOOL] },
      want: {
        model: GPT,
        input: [R_HI],
        tools: [{ type: 'function', name: 'get_weather', description: 'Weather for a city', parameters: WEATHER_SCHEMA, strict: true }],
      },
    },
  ],
  [
    'a tool with strict unset is sent strict:false (Responses functions are strict by default; TIME_SCHEMA is not strict-compatible)',
    {
      given: { model: GPT, messages: [USER_HI], tools: [TIME_TOOL] },
      want: {
        model: GPT,
        input: [R_HI],
        tools: [{ type: 'function', name: 'get_time', parameters: TIME_SCHEMA, strict: false }],
      },
    },
  ],
  ...(
    [
      ['auto', 'auto'],
      ['none', 'none'],
      ['required', 'required'],
      [{ name: 'get_weather' }, { type: 'function', name: 'get_weather' }],
    ] as const
  ).map(([choice, wireChoice]): [string, Case] => [
    `toolChoice ${JSON.stringify(choice)} → tool_choice ${JSON.stringify(wireChoice)}`,
    {
      given: { model: GPT, messages: [USER_HI], tools: [STRICT_WEATHER_TOOL], toolChoice: choice },
      want: {
        model: GPT,
        input: [R_HI],
        tools: [{ type: 'function', name: 'get_weather', description: 'Weather for a city', parameters: WEATHER_SCHEMA, strict: true }],
        tool_choice: wireChoice,
      },
    },
  ]),
  [
    'parallelToolCalls false → parallel_tool_calls false',
    {
      given: { model: GPT, messages: [USER_HI], tools: [STRICT_WEATHER_TOOL], parallelToolCalls: false },
      want: {
        model: GPT,
        input: [R_HI],
        tools: [{ type: 'function', name: 'get_weather', description: 'Weather for a city', parameters: WEATHER_SCHEMA, strict: true }],
        parallel_tool_calls: false,
      },
    },
  ],
  [
    'maxTokens → max_output_tokens; temperature, top_p',
    {
      given: { model: 'gpt-4.1', messages: [USER_HI], maxTokens: 256, temperature: 0.2, topP: 0.9 },
      want: { model: 'gpt-4.1', input: [R_HI], max_output_tokens: 256, temperature: 0.2, top_p: 0.9 },
    },
  ],
  [
    'reasoning.effort → reasoning.effort; reasoning.summary true → reasoning.summary "auto"',
    {
      given: { model: GPT, messages: [USER_HI], reasoning: { effort: 'high', summary: true } },
      want: { model: GPT, input: [R_HI], reasoning: { effort: 'high', summary: 'auto' } },
    },
  ],
  [
    'reasoning.summary false sends no summary; reasoning.budgetTokens is dropped with a warning',
    {
      given: { model: GPT, messages: [USER_HI], reasoning: { effort: 'low', budgetTokens: 2048, summary: false } },
      want: { model: GPT, input: [R_HI], reasoning: { effort: 'low' } },
      warnings: [{ type: 'dropped', field: 'reasoning.budgetTokens' }],
    },
  ],
  [
    'responseFormat json_schema → text.format {type:json_schema, name, schema, strict} (flat, no json_schema wrapper)',
    {
      given: { model: GPT, messages: [USER_HI], responseFormat: SCHEMA_FORMAT },
      want: {
        model: GPT,
        input: [R_HI],
        text: { format: { type: 'json_schema', name: 'weather_report', schema: SCHEMA_FORMAT.schema, strict: true } },
      },
    },
  ],
  [
    'responseFormat json → text.format json_object',
    {
      given: { model: GPT, messages: [USER_HI], responseFormat: { type: 'json' } },
      want: { model: GPT, input: [R_HI], text: { format: { type: 'json_object' } } },
    },
  ],
  [
    'previousResponseId → previous_response_id; store, metadata, user carried',
    {
      given: { model: GPT, messages: [USER_HI], previousResponseId: 'resp_123', store: false, metadata: { run: 'r1' }, user: 'u-42' },
      // store:false also asks for encrypted reasoning, so the next turn can send it back (continuity rule).
      want: { model: GPT, input: [R_HI], previous_response_id: 'resp_123', store: false, metadata: { run: 'r1' }, user: 'u-42', include: ['reasoning.encrypted_content'] },
    },
  ],
  [
    'stop has no Responses field: dropped with a warning',
    {
      given: { model: GPT, messages: [USER_HI], stop: ['END'] },
      want: { model: GPT, input: [R_HI] },
      warnings: [{ type: 'dropped', field: 'stop' }],
    },
  ],
  [
    'streaming mode: stream true (no stream_options.include_usage: usage rides on response.completed)',
    {
      given: { model: GPT, messages: [USER_HI] },
      mode: 'stream',
      want: { model: GPT, input: [R_HI], stream: true },
    },
  ],
  [
    'blocking mode has no stream field',
    {
      given: { model: GPT, messages: [USER_HI], maxTokens: 10 },
      mode: 'blocking',
      want: { model: GPT, input: [R_HI], max_output_tokens: 10 },
    },
  ],
  [
    'providerOptions add top-level fields (include); a standard field set by the request wins with an overridden warning',
    {
      given: {
        model: GPT,
        messages: [USER_HI],
        maxTokens: 100,
        providerOptions: { include: ['reasoning.encrypted_content'], truncation: 'auto', max_output_tokens: 5 },
      },
      want: { model: GPT, input: [R_HI], max_output_tokens: 100, include: ['reasoning.encrypted_content'], truncation: 'auto' },
      warnings: [{ type: 'overridden', field: 'providerOptions.max_output_tokens' }],
    },
  ],
];

// ───────────────────────────── Gemini (docs/wire-facts.md#google-gemini) ─────────────────────────────

const FLASH = 'gemini-2.5-flash';
const G_HI = { role: 'user', parts: [{ text: 'Hi' }] };

const GEMINI: Table = [
  [
    'plain user text → contents[{role:user, parts:[{text}]}]; the model goes in the path, not the body',
    {
      given: { model: FLASH, messages: [USER_HI] },
      want: { contents: [G_HI] },
    },
  ],
  [
    'request-level system → systemInstruction {parts:[{text}]}',
    {
      given: { model: FLASH, system: 'Be terse.', messages: [USER_HI] },
      want: { systemInstruction: { parts: [{ text: 'Be terse.' }] }, contents: [G_HI] },
    },
  ],
  [
    'several system texts join with a blank line; the user turns around them merge into one content',
    {
      given: {
        model: FLASH,
        system: 'Be terse.',
        messages: [{ role: 'system', content: 'Answer in French.' }, USER_HI, { role: 'system', content: 'Cite sources.' }, { role: 'user', content: 'Again' }],
      },
      want: {
        systemInstruction: { parts: [{ text: 'Be terse.\n\nAnswer in French.\n\nCite sources.' }] },
        contents: [{ role: 'user', parts: [{ text: 'Hi' }, { text: 'Again' }] }],
      },
    },
  ],
  [
    'multi-part user content: text, fileData for an image URL, inlineData for base64 and data: URLs',
    {
      given: { model: FLASH, messages: MIXED_USER_CONTENT },
      want: {
        contents: [
          {
            role: 'user',
            parts: [
              { text: 'What is in these?' },
              { fileData: { mimeType: 'image/png', fileUri: 'https://example.com/cat.png' } },
              { inlineData: { mimeType: 'image/jpeg', data: JPEG_B64 } },
              { inlineData: { mimeType: 'image/png', data: PNG_B64 } },
            ],
          },
        ],
      },
    },
  ],
  [
    'user name cannot be carried: dropped with a warning',
    {
      given: { model: FLASH, messages: [{ role: 'user', content: 'Hi', name: 'alice' }] },
      want: { contents: [G_HI] },
      warnings: [{ type: 'dropped', field: 'messages[0].name' }],
    },
  ],
  [
    'assistant history → role model: thought part with signature, text part, functionCall (args object) with its thoughtSignature',
    {
      given: {
        model: FLASH,
        messages: [
          { role: 'user', content: 'Time in Tokyo?' },
          {
            role: 'assistant',
            content: 'Let me check.',
            thinking: [{ text: 'Need the clock tool.', signature: 'CiQB0e2Kb…thought' }],
            toolCalls: [{ id: 'call_0', name: 'get_time', arguments: '{"tz":"Asia/Tokyo"}', signature: 'CiwB0e2Kb…call' }],
          },
          { role: 'tool', toolCallId: 'call_0', toolName: 'get_time', content: '09:00' },
        ],
      },
      want: {
        contents: [
          { role: 'user', parts: [{ text: 'Time in Tokyo?' }] },
          {
            role: 'model',
            parts: [
              { text: 'Need the clock tool.', thought: true, thoughtSignature: 'CiQB0e2Kb…thought' },
              { text: 'Let me check.' },
              { functionCall: { name: 'get_time', args: { tz: 'Asia/Tokyo' } }, thoughtSignature: 'CiwB0e2Kb…call' },
            ],
          },
          { role: 'user', parts: [{ functionResponse: { name: 'get_time', response: { output: '09:00' } } }] },
        ],
      },
    },
  ],
  [
    'parallel calls; results → ONE user content: functionResponse (name filled from the call when toolName is absent), error as response.error, then the text',
    {
      given: { model: FLASH, messages: TOOL_HISTORY },
      want: {
        contents: [
          { role: 'user', parts: [{ text: 'Weather in Paris and the time in Tokyo?' }] },
          {
            role: 'model',
            parts: [
              // Calls without a signature get Google's documented "skip" sentinel (Gemini 3 requires one).
              { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'skip_thought_signature_validator' },
              { functionCall: { name: 'get_time', args: { tz: 'Asia/Tokyo' } }, thoughtSignature: 'skip_thought_signature_validator' },
            ],
          },
          {
            role: 'user',
            parts: [
              { functionResponse: { name: 'get_weather', response: { output: '{"temp_c":18}' } } },
              { functionResponse: { name: 'get_time', response: { error: 'tz database unavailable' } } },
              { text: 'Thanks, and tomorrow?' },
            ],
          },
        ],
      },
    },
  ],
  [
    'tools → tools[{functionDeclarations:[{name, description, parametersJsonSchema}]}]',
    {
      given: { model: FLASH, messages: [USER_HI], tools: [WEATHER_TOOL, TIME_TOOL] },
      want: {
        contents: [G_HI],
        tools: [
          {
            functionDeclarations: [
              { name: 'get_weather', description: 'Weather for a city', parametersJsonSchema: WEATHER_SCHEMA },
              { name: 'get_time', parametersJsonSchema: TIME_SCHEMA },
            ],
          },
        ],
      },
    },
  ],
  ...(
    [
      ['auto', { mode: 'AUTO' }],
      ['none', { mode: 'NONE' }],
      ['required', { mode: 'ANY' }],
      [{ name: 'get_time' }, { mode: 'ANY', allowedFunctionNames: ['get_time'] }],
    ] as const
  ).map(([choice, wireChoice]): [string, Case] => [
    `toolChoice ${JSON.stringify(choice)} → toolConfig.functionCallingConfig ${JSON.stringify(wireChoice)}`,
    {
      given: { model: FLASH, messages: [USER_HI], tools: [TIME_TOOL], toolChoice: choice },
      want: {
        contents: [G_HI],
        tools: [{ functionDeclarations: [{ name: 'get_time', parametersJsonSchema: TIME_SCHEMA }] }],
        toolConfig: { functionCallingConfig: wireChoice },
      },
    },
  ]),
  [
    'maxTokens, temperature, topP, stop → generationConfig maxOutputTokens, temperature, topP, stopSequences',
    {
      given: { model: FLASH, messages: [USER_HI], maxTokens: 512, temperature: 0.2, topP: 0.9, stop: ['END', '###'] },
      want: {
        contents: [G_HI],
        generationConfig: { maxOutputTokens: 512, temperature: 0.2, topP: 0.9, stopSequences: ['END', '###'] },
      },
    },
  ],
  [
    'reasoning.budgetTokens + summary → generationConfig.thinkingConfig {thinkingBudget, includeThoughts:true}',
    {
      given: { model: FLASH, messages: [USER_HI], reasoning: { budgetTokens: 2048, summary: true } },
      want: { contents: [G_HI], generationConfig: { thinkingConfig: { thinkingBudget: 2048, includeThoughts: true } } },
    },
  ],
  [
    'reasoning.effort low → generationConfig.thinkingConfig.thinkingLevel LOW',
    {
      given: { model: 'gemini-3-pro-preview', messages: [USER_HI], reasoning: { effort: 'low' } },
      want: { contents: [G_HI], generationConfig: { thinkingConfig: { thinkingLevel: 'LOW' } } },
    },
  ],
  [
    'reasoning.effort high + summary false → thinkingLevel HIGH, includeThoughts false',
    {
      given: { model: 'gemini-3-pro-preview', messages: [USER_HI], reasoning: { effort: 'high', summary: false } },
      want: { contents: [G_HI], generationConfig: { thinkingConfig: { thinkingLevel: 'HIGH', includeThoughts: false } } },
    },
  ],
  [
    'responseFormat json_schema → responseMimeType + responseJsonSchema in the SAME generationConfig as maxOutputTokens',
    {
      given: { model: FLASH, messages: [USER_HI], maxTokens: 300, responseFormat: SCHEMA_FORMAT },
      want: {
        contents: [G_HI],
        generationConfig: { maxOutputTokens: 300, responseMimeType: 'application/json', responseJsonSchema: SCHEMA_FORMAT.schema },
      },
    },
  ],
  [
    'responseFormat json → generationConfig.responseMimeType application/json',
    {
      given: { model: FLASH, messages: [USER_HI], responseFormat: { type: 'json' } },
      want: { contents: [G_HI], generationConfig: { responseMimeType: 'application/json' } },
    },
  ],
  [
    'parallelToolCalls, user, store, metadata, previousResponseId have no Gemini field: dropped with warnings',
    {
      given: {
        model: FLASH,
        messages: [USER_HI],
        parallelToolCalls: false,
        user: 'u-42',
        store: true,
        metadata: { run: 'r1' },
        previousResponseId: 'resp_1',
      },
      want: { contents: [G_HI] },
      warnings: [
        { type: 'dropped', field: 'parallelToolCalls' },
        { type: 'dropped', field: 'user' },
        { type: 'dropped', field: 'store' },
        { type: 'dropped', field: 'metadata' },
        { type: 'dropped', field: 'previousResponseId' },
      ],
    },
  ],
  [
    'streaming mode: same body (streaming is the :streamGenerateContent path, no body flag)',
    {
      given: { model: FLASH, messages: [USER_HI], temperature: 0 },
      mode: 'stream',
      want: { contents: [G_HI], generationConfig: { temperature: 0 } },
    },
  ],
  [
    'providerOptions add top-level fields (safetySettings); generationConfig keys merge beside the mapped ones',
    {
      given: {
        model: FLASH,
        messages: [USER_HI],
        maxTokens: 64,
        providerOptions: {
          safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
          generationConfig: { topK: 40, maxOutputTokens: 9 },
        },
      },
      want: {
        contents: [G_HI],
        safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
        generationConfig: { topK: 40, maxOutputTokens: 64 },
      },
      warnings: [{ type: 'overridden', field: 'providerOptions.generationConfig.maxOutputTokens' }],
    },
  ],
];

// ───────────────────────────── Ollama native /api/chat (docs/wire-facts.md#ollama) ─────────────────────────────

const LLAMA = 'llama3.2';
const O_HI = { role: 'user', content: 'Hi' };

const OLLAMA: Table = [
  [
    'plain user text; blocking mode sends stream:false (Ollama streams by default)',
    {
      given: { model: LLAMA, messages: [USER_HI] },
      want: { model: LLAMA, messages: [O_HI], stream: false },
    },
  ],
  [
    'streaming mode: stream true',
    {
      given: { model: LLAMA, messages: [USER_HI] },
      mode: 'stream',
      want: { model: LLAMA, messages: [O_HI], stream: true },
    },
  ],
  [
    'request-level system → first message role system; system-role messages stay in place',
    {
      given: { model: LLAMA, system: 'Be terse.', messages: [USER_HI, { role: 'system', content: 'Now in German.' }, { role: 'user', content: 'Again' }] },
      want: {
        model: LLAMA,
        messages: [
          { role: 'system', content: 'Be terse.' },
          O_HI,
          { role: 'system', content: 'Now in German.' },
          { role: 'user', content: 'Again' },
        ],
        stream: false,
      },
    },
  ],
  [
    'images are bare base64 strings in `images` beside the text (base64 and data: URL)',
    {
      given: {
        model: LLAMA,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is in these?' },
              { type: 'image', data: JPEG_B64, mediaType: 'image/jpeg' },
              { type: 'image', url: `data:image/png;base64,${PNG_B64}` },
            ],
          },
        ],
      },
      want: { model: LLAMA, messages: [{ role: 'user', content: 'What is in these?', images: [JPEG_B64, PNG_B64] }], stream: false },
    },
  ],
  [
    'an image URL cannot be sent (base64 only): dropped with a warning',
    {
      given: { model: LLAMA, messages: MIXED_USER_CONTENT },
      want: {
        model: LLAMA,
        messages: [{ role: 'user', content: 'What is in these?', images: [JPEG_B64, PNG_B64] }],
        stream: false,
      },
      warnings: [{ type: 'dropped', field: 'messages[0].content[1]' }],
    },
  ],
  [
    'assistant tool_calls {id, function:{name, arguments:<object>}}, content a string; results role tool with tool_name (filled from the call) and tool_call_id',
    {
      given: { model: LLAMA, messages: TOOL_HISTORY },
      want: {
        model: LLAMA,
        messages: [
          { role: 'user', content: 'Weather in Paris and the time in Tokyo?' },
          {
            role: 'assistant',
            content: '',
            tool_calls: [
              { id: 'call_1', function: { name: 'get_weather', arguments: { city: 'Paris' } } },
              { id: 'call_2', function: { name: 'get_time', arguments: { tz: 'Asia/Tokyo' } } },
            ],
          },
          { role: 'tool', tool_name: 'get_weather', tool_call_id: 'call_1', content: '{"temp_c":18}' },
          { role: 'tool', tool_name: 'get_time', tool_call_id: 'call_2', content: 'tz database unavailable' },
          { role: 'user', content: 'Thanks, and tomorrow?' },
        ],
        stream: false,
      },
    },
  ],
  [
    'assistant thinking → `thinking` string beside content',
    {
      given: {
        model: 'qwen3',
        messages: [USER_HI, { role: 'assistant', content: 'Hello!', thinking: [{ text: 'They greet me; greet back.' }] }, { role: 'user', content: 'Bye' }],
      },
      want: {
        model: 'qwen3',
        messages: [O_HI, { role: 'assistant', content: 'Hello!', thinking: 'They greet me; greet back.' }, { role: 'user', content: 'Bye' }],
        stream: false,
      },
    },
  ],
  [
    'tools OpenAI-style {type:function, function:{name, description, parameters}}',
    {
      given: { model: LLAMA, messages: [USER_HI], tools: [WEATHER_TOOL, TIME_TOOL] },
      want: {
        model: LLAMA,
        messages: [O_HI],
        tools: [
          { type: 'function', function: { name: 'get_weather', description: 'Weather for a city', parameters: WEATHER_SCHEMA } },
          { type: 'function', function: { name: 'get_time', parameters: TIME_SCHEMA } },
        ],
        stream: false,
      },
    },
  ],
  [
    'toolChoice has no Ollama field: dropped with a warning',
    {
      given: { model: LLAMA, messages: [USER_HI], tools: [TIME_TOOL], toolChoice: 'required' },
      want: {
        model: LLAMA,
        messages: [O_HI],
        tools: [{ type: 'function', function: { name: 'get_time', parameters: TIME_SCHEMA } }],
        stream: false,
      },
      warnings: [{ type: 'dropped', field: 'toolChoice' }],
    },
  ],
  [
    'maxTokens, temperature, topP, stop → options.num_predict, temperature, top_p, stop',
    {
      given: { model: LLAMA, messages: [USER_HI], maxTokens: 128, temperature: 0.2, topP: 0.9, stop: ['END'] },
      want: { model: LLAMA, messages: [O_HI], options: { num_predict: 128, temperature: 0.2, top_p: 0.9, stop: ['END'] }, stream: false },
    },
  ],
  [
    'reasoning.effort → top-level think level',
    {
      given: { model: 'gpt-oss:20b', messages: [USER_HI], reasoning: { effort: 'medium' } },
      want: { model: 'gpt-oss:20b', messages: [O_HI], think: 'medium', stream: false },
    },
  ],
  [
    'responseFormat json → format "json"',
    {
      given: { model: LLAMA, messages: [USER_HI], responseFormat: { type: 'json' } },
      want: { model: LLAMA, messages: [O_HI], format: 'json', stream: false },
    },
  ],
  [
    'responseFormat json_schema → format <schema>',
    {
      given: { model: LLAMA, messages: [USER_HI], responseFormat: SCHEMA_FORMAT },
      want: { model: LLAMA, messages: [O_HI], format: SCHEMA_FORMAT.schema, stream: false },
    },
  ],
  [
    'parallelToolCalls, budgetTokens, summary, user, store, previousResponseId, metadata are dropped with warnings',
    {
      given: {
        model: LLAMA,
        messages: [USER_HI],
        parallelToolCalls: true,
        reasoning: { budgetTokens: 1024, summary: true },
        user: 'u-42',
        store: false,
        previousResponseId: 'resp_1',
        metadata: { run: 'r1' },
      },
      want: { model: LLAMA, messages: [O_HI], stream: false },
      warnings: [
        { type: 'dropped', field: 'parallelToolCalls' },
        { type: 'dropped', field: 'reasoning.budgetTokens' },
        { type: 'dropped', field: 'reasoning.summary' },
        { type: 'dropped', field: 'user' },
        { type: 'dropped', field: 'store' },
        { type: 'dropped', field: 'previousResponseId' },
        { type: 'dropped', field: 'metadata' },
      ],
    },
  ],
  [
    'providerOptions add keep_alive; options keys merge beside the mapped ones',
    {
      given: { model: LLAMA, messages: [USER_HI], maxTokens: 50, providerOptions: { keep_alive: '5m', options: { num_ctx: 8192, seed: 7 } } },
      want: { model: LLAMA, messages: [O_HI], keep_alive: '5m', options: { num_ctx: 8192, seed: 7, num_predict: 50 }, stream: false },
    },
  ],
];

// ───────────────────────────── OpenAI-compatible family (docs/wire-facts.md#openai-compatible-providers) ─────────────────────────────

const M = 'some-model';
const C_HI = { role: 'user', content: 'Hi' };
const STREAM_WITH_USAGE = { stream: true, stream_options: { include_usage: true } };

const DEEPSEEK: Table = [
  [
    'maxTokens → max_tokens (not max_completion_tokens)',
    {
      given: { model: 'deepseek-chat', messages: [USER_HI], maxTokens: 256 },
      want: { model: 'deepseek-chat', messages: [C_HI], max_tokens: 256 },
    },
  ],
  [
    'responseFormat json_schema is not supported (json_object only): dropped with a warning',
    {
      given: { model: 'deepseek-chat', messages: [USER_HI], responseFormat: SCHEMA_FORMAT },
      want: { model: 'deepseek-chat', messages: [C_HI] },
      warnings: [{ type: 'dropped', field: 'responseFormat' }],
    },
  ],
  [
    'responseFormat json → response_format json_object',
    {
      given: { model: 'deepseek-chat', messages: [USER_HI], responseFormat: { type: 'json' } },
      want: { model: 'deepseek-chat', messages: [C_HI], response_format: { type: 'json_object' } },
    },
  ],
  [
    'reasoning.effort dropped (reasoning by model choice), as are user, store, metadata',
    {
      given: { model: 'deepseek-reasoner', messages: [USER_HI], reasoning: { effort: 'high' }, user: 'u', store: true, metadata: { a: 'b' } },
      want: { model: 'deepseek-reasoner', messages: [C_HI] },
      warnings: [
        { type: 'dropped', field: 'reasoning.effort' },
        { type: 'dropped', field: 'user' },
        { type: 'dropped', field: 'store' },
        { type: 'dropped', field: 'metadata' },
      ],
    },
  ],
  [
    'streaming mode: stream + stream_options.include_usage (usage rides on the finish chunk)',
    {
      given: { model: 'deepseek-chat', messages: [USER_HI] },
      mode: 'stream',
      want: { model: 'deepseek-chat', messages: [C_HI], ...STREAM_WITH_USAGE },
    },
  ],
];

const OPENROUTER: Table = [
  [
    'maxTokens → max_tokens',
    {
      given: { model: 'openai/gpt-4o', messages: [USER_HI], maxTokens: 256 },
      want: { model: 'openai/gpt-4o', messages: [C_HI], max_tokens: 256 },
    },
  ],
  [
    'reasoning.effort → reasoning.effort (not reasoning_effort)',
    {
      given: { model: 'anthropic/claude-sonnet-4.5', messages: [USER_HI], reasoning: { effort: 'high' } },
      want: { model: 'anthropic/claude-sonnet-4.5', messages: [C_HI], reasoning: { effort: 'high' } },
    },
  ],
  [
    'reasoning.budgetTokens → reasoning.max_tokens (no warning)',
    {
      given: { model: 'anthropic/claude-sonnet-4.5', messages: [USER_HI], reasoning: { budgetTokens: 2048 } },
      want: { model: 'anthropic/claude-sonnet-4.5', messages: [C_HI], reasoning: { max_tokens: 2048 } },
    },
  ],
  [
    'store dropped with a warning',
    {
      given: { model: 'openai/gpt-4o', messages: [USER_HI], store: true },
      want: { model: 'openai/gpt-4o', messages: [C_HI] },
      warnings: [{ type: 'dropped', field: 'store' }],
    },
  ],
];

const VLLM: Table = [
  [
    'maxTokens → max_tokens',
    {
      given: { model: M, messages: [USER_HI], maxTokens: 64 },
      want: { model: M, messages: [C_HI], max_tokens: 64 },
    },
  ],
  [
    'user, store, metadata dropped with warnings; reasoning_effort kept',
    {
      given: { model: M, messages: [USER_HI], user: 'u', store: true, metadata: { a: 'b' }, reasoning: { effort: 'low' } },
      want: { model: M, messages: [C_HI], reasoning_effort: 'low' },
      warnings: ['user', 'store', 'metadata'],
    },
  ],
  [
    'streaming mode: stream + stream_options.include_usage',
    {
      given: { model: M, messages: [USER_HI] },
      mode: 'stream',
      want: { model: M, messages: [C_HI], ...STREAM_WITH_USAGE },
    },
  ],
];

const GROQ: Table = [
  [
    'maxTokens → max_completion_tokens (kept from the base)',
    {
      given: { model: 'llama-3.3-70b-versatile', messages: [USER_HI], maxTokens: 64 },
      want: { model: 'llama-3.3-70b-versatile', messages: [C_HI], max_completion_tokens: 64 },
    },
  ],
  [
    'store and metadata dropped with warnings; user kept',
    {
      given: { model: 'llama-3.3-70b-versatile', messages: [USER_HI], store: true, metadata: { a: 'b' }, user: 'u-1' },
      want: { model: 'llama-3.3-70b-versatile', messages: [C_HI], user: 'u-1' },
      warnings: ['store', 'metadata'],
    },
  ],
];

const MISTRAL: Table = [
  [
    'maxTokens → max_tokens',
    {
      given: { model: 'mistral-small-latest', messages: [USER_HI], maxTokens: 64 },
      want: { model: 'mistral-small-latest', messages: [C_HI], max_tokens: 64 },
    },
  ],
  [
    'tool results carry the function `name` (filled from the call when toolName is absent)',
    {
      given: { model: 'mistral-small-latest', messages: TOOL_HISTORY },
      want: {
        model: 'mistral-small-latest',
        messages: [
          { role: 'user', content: 'Weather in Paris and the time in Tokyo?' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
              { id: 'call_2', type: 'function', function: { name: 'get_time', arguments: '{"tz":"Asia/Tokyo"}' } },
            ],
          },
          { role: 'tool', name: 'get_weather', tool_call_id: 'call_1', content: '{"temp_c":18}' },
          { role: 'tool', name: 'get_time', tool_call_id: 'call_2', content: 'tz database unavailable' },
          { role: 'user', content: 'Thanks, and tomorrow?' },
        ],
      },
    },
  ],
  [
    'image_url is a plain string (URL or data URL), not an object',
    {
      given: { model: 'pixtral-12b', messages: MIXED_USER_CONTENT },
      want: {
        model: 'pixtral-12b',
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is in these?' },
              { type: 'image_url', image_url: 'https://example.com/cat.png' },
              { type: 'image_url', image_url: `data:image/jpeg;base64,${JPEG_B64}` },
              { type: 'image_url', image_url: `data:image/png;base64,${PNG_B64}` },
            ],
          },
        ],
      },
    },
  ],
  [
    'toolChoice required → "any"',
    {
      given: { model: 'mistral-small-latest', messages: [USER_HI], tools: [TIME_TOOL], toolChoice: 'required' },
      want: {
        model: 'mistral-small-latest',
        messages: [C_HI],
        tools: [{ type: 'function', function: { name: 'get_time', parameters: TIME_SCHEMA } }],
        tool_choice: 'any',
      },
    },
  ],
  [
    'named toolChoice → {type:function, function:{name}}',
    {
      given: { model: 'mistral-small-latest', messages: [USER_HI], tools: [TIME_TOOL], toolChoice: { name: 'get_time' } },
      want: {
        model: 'mistral-small-latest',
        messages: [C_HI],
        tools: [{ type: 'function', function: { name: 'get_time', parameters: TIME_SCHEMA } }],
        tool_choice: { type: 'function', function: { name: 'get_time' } },
      },
    },
  ],
  [
    'streaming mode: stream true and NO stream_options (usage comes on the final chunk anyway)',
    {
      given: { model: 'mistral-small-latest', messages: [USER_HI] },
      mode: 'stream',
      want: { model: 'mistral-small-latest', messages: [C_HI], stream: true },
    },
  ],
  [
    'reasoning.effort, user, store, metadata dropped with warnings',
    {
      given: { model: 'magistral-medium-latest', messages: [USER_HI], reasoning: { effort: 'high' }, user: 'u', store: true, metadata: { a: 'b' } },
      want: { model: 'magistral-medium-latest', messages: [C_HI] },
      warnings: ['reasoning.effort', 'user', 'store', 'metadata'],
    },
  ],
];

const XAI: Table = [
  [
    'maxTokens → max_completion_tokens; reasoning.effort → reasoning_effort (kept from the base)',
    {
      given: { model: 'grok-3-mini', messages: [USER_HI], maxTokens: 64, reasoning: { effort: 'high' } },
      want: { model: 'grok-3-mini', messages: [C_HI], max_completion_tokens: 64, reasoning_effort: 'high' },
    },
  ],
  [
    'store and metadata dropped with warnings',
    {
      given: { model: 'grok-4', messages: [USER_HI], store: true, metadata: { a: 'b' } },
      want: { model: 'grok-4', messages: [C_HI] },
      warnings: ['store', 'metadata'],
    },
  ],
  [
    'streaming mode: stream + stream_options.include_usage',
    {
      given: { model: 'grok-4', messages: [USER_HI] },
      mode: 'stream',
      want: { model: 'grok-4', messages: [C_HI], ...STREAM_WITH_USAGE },
    },
  ],
];

const TOGETHER: Table = [
  [
    'maxTokens → max_tokens',
    {
      given: { model: 'meta-llama/Llama-3.3-70B-Instruct-Turbo', messages: [USER_HI], maxTokens: 64 },
      want: { model: 'meta-llama/Llama-3.3-70B-Instruct-Turbo', messages: [C_HI], max_tokens: 64 },
    },
  ],
  [
    'reasoning.effort, user, store, metadata dropped with warnings',
    {
      given: { model: 'deepseek-ai/DeepSeek-R1', messages: [USER_HI], reasoning: { effort: 'low' }, user: 'u', store: true, metadata: { a: 'b' } },
      want: { model: 'deepseek-ai/DeepSeek-R1', messages: [C_HI] },
      warnings: ['reasoning.effort', 'user', 'store', 'metadata'],
    },
  ],
];

const OPENAI_COMPATIBLE: Table = [
  [
    'maxTokens → max_tokens (widest-supported name)',
    {
      given: { model: M, messages: [USER_HI], maxTokens: 64 },
      want: { model: M, messages: [C_HI], max_tokens: 64 },
    },
  ],
  [
    'everything else as openai-chat: system message, tools, tool_choice, reasoning_effort',
    {
      given: { model: M, system: 'Be terse.', messages: [USER_HI], tools: [TIME_TOOL], toolChoice: 'required', reasoning: { effort: 'low' } },
      want: {
        model: M,
        messages: [{ role: 'system', content: 'Be terse.' }, C_HI],
        tools: [{ type: 'function', function: { name: 'get_time', parameters: TIME_SCHEMA } }],
        tool_choice: 'required',
        reasoning_effort: 'low',
      },
    },
  ],
  [
    'streaming mode: stream + stream_options.include_usage',
    {
      given: { model: M, messages: [USER_HI] },
      mode: 'stream',
      want: { model: M, messages: [C_HI], ...STREAM_WITH_USAGE },
    },
  ],
];

// ───────────────────────────── the tests ─────────────────────────────



const PROVIDERS = [
  ['openai-responses', responses, RESPONSES, 12],
  ['gemini', gemini, GEMINI, 12],
  ['ollama', ollama, OLLAMA, 10],
  ['deepseek', deepseek, DEEPSEEK, 2],
  ['openrouter', openrouter, OPENROUTER, 2],
  ['vllm', vllm, VLLM, 2],
  ['groq', groq, GROQ, 2],
  ['mistral', mistral, MISTRAL, 2],
  ['xai', xai, XAI, 2],
  ['together', together, TOGETHER, 2],
  ['openai-compatible', openaiCompatible, OPENAI_COMPATIBLE, 2],
] as const;

describe.each(PROVIDERS)('%s request mapping', (id, adapter, table, minShapes) => {
  it(`has at least ${minShapes} request shapes`, () => {
    expect(adapter.id).toBe(id);
    expect(table.length).toBeGreaterThanOrEqual(minShapes);
  });

  it.each(table)('%s', (_name, c) => {
    checkCase(adapter as ProviderAdapter, c);
  });
});

describe('gemini model placement', () => {
  it.each(['blocking', 'stream'] as const)('the model is a path parameter and never in the body (%s)', (mode) => {
    const built = gemini.buildRequest({ model: FLASH, messages: [USER_HI] }, mode);
    expect(built.pathParams).toEqual({ model: FLASH });
    expect(built.body).not.toHaveProperty('model');
  });
});

describe('gemini thinkingBudget vs thinkingLevel', () => {
  // docs/wire-facts.md#gemini-request: thinkingConfig takes thinkingBudget OR thinkingLevel; the API
  // rejects a request that sets both. With both effort and budgetTokens set, the adapter must send
  // only one (reporting the other as dropped) or reject the request up front.
  it('never sends both thinkingBudget and thinkingLevel', () => {
    let built;
    try {
      built = gemini.buildRequest({ model: 'gemini-3-pro-preview', messages: [USER_HI], reasoning: { effort: 'high', budgetTokens: 2048 } }, 'blocking');
    } catch {
      return; // rejected up front: acceptable
    }
    const cfg = (wire(built.body) as { generationConfig?: { thinkingConfig?: Record<string, unknown> } }).generationConfig?.thinkingConfig ?? {};
    const sent = ['thinkingBudget', 'thinkingLevel'].filter((k) => k in cfg);
    expect(sent).toHaveLength(1);
    const droppedField = sent[0] === 'thinkingBudget' ? 'reasoning.effort' : 'reasoning.budgetTokens';
    expect(built.warnings).toContainEqual(expect.objectContaining({ type: 'dropped', field: droppedField }));
  });
});

describe('openai-compatible needs a base URL', () => {
  it('createClient without baseUrl throws an error that names baseUrl', () => {
    expect(() => createClient('openai-compatible', {})).toThrow(/baseUrl/);
  });

  it('createClient with a baseUrl succeeds', () => {
    const client = createClient('openai-compatible', { baseUrl: 'http://localhost:1234/v1' });
    expect(client.provider).toBe('openai-compatible');
  });
});
