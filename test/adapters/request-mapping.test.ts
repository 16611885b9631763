/**
 * Request mapping, table-driven: unified ChatRequest → wire body for OpenAI Chat Completions and
 * Anthropic Messages. Every expected body is written from the wire facts in docs/wire-facts.md
 * (#openai-chat-completions, #anthropic-messages), not from what the adapter emits.
 *
 * `warnings` lists the exact set of warning fields a case must produce (none when omitted); an
 * entry may also be `{ type, field }` to pin the warning type.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { checkCase, JPEG_B64, PNG_B64, TIME_SCHEMA, TOOL_HISTORY, USER_HI, WEATHER_SCHEMA, wire, type Case, type Table } from '../helpers/request-table.js';
import { adapter as openai } from '../../generated/openai-chat.js';
import { adapter as anthropic } from '../../generated/anthropic-messages.js';
import type { ChatRequest } from '../../runtime/contract/unified-model.js';



const TOOLS: ChatRequest['tools'] = [
  { name: 'get_weather', description: 'Weather for a city', parameters: WEATHER_SCHEMA, strict: true },
  { name: 'get_time', parameters: TIME_SCHEMA },
];


const SCHEMA_FORMAT = {
  type: 'json_schema',
  name: 'weather_report',
  schema: { type: 'object', properties: { summary: { type: 'string' } }, required: ['summary'], additionalProperties: false },
  strict: true,
} as const;

// ───────────────────────────── OpenAI Chat Completions (docs/wire-facts.md#openai-chat-completions) ─────────────────────────────

const OPENAI: Table = [
  [
    'plain user text',
    {
      given: { model: 'gpt-4o', messages: [USER_HI] },
      want: { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] },
    },
  ],
  [
    'request-level system becomes the first message with role system',
    {
      given: { model: 'gpt-4o', system: 'Be terse.', messages: [USER_HI] },
      want: {
        model: 'gpt-4o',
        messages: [
          { role: 'system', content: 'Be terse.' },
          { role: 'user', content: 'Hi' },
        ],
      },
    },
  ],
  [
    'system-role messages stay in place after the request-level system',
    {
      given: {
        model: 'gpt-4o',
        system: 'Be terse.',
        messages: [{ role: 'system', content: 'Answer in French.' }, USER_HI, { role: 'system', content: 'Now in German.' }, { role: 'user', content: 'Again' }],
      },
      want: {
        model: 'gpt-4o',
        messages: [
          { role: 'system', content: 'Be terse.' },
          { role: 'system', content: 'Answer in French.' },
          { role: 'user', content: 'Hi' },
          { role: 'system', content: 'Now in German.' },
          { role: 'user', content: 'Again' },
        ],
      },
    },
  ],
  [
    'multi-part user content: text, image URL, base64 image, data: URL image',
    {
      given: {
        model: 'gpt-4o',
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is in these?' },
              { type: 'image', url: 'https://example.com/cat.png' },
              { type: 'image', data: JPEG_B64, mediaType: 'image/jpeg' },
              { type: 'image', url: `data:image/png;base64,${PNG_B64}` },
            ],
          },
        ],
      },
      want: {
        model: 'gpt-4o',
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is in these?' },
              { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
              { type: 'image_url', image_url: { url: `data:image/jpeg;base64,${JPEG_B64}` } },
              { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_B64}` } },
            ],
          },
        ],
      },
    },
  ],
  [
    'user name is kept',
    {
      given: { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi', name: 'alice' }] },
      want: { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi', name: 'alice' }] },
    },
  ],
  [
    'tools nest under function with name, description, parameters, strict',
    {
      given: { model: 'gpt-4o', messages: [USER_HI], tools: TOOLS },
      want: {
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'Hi' }],
        tools: [
          { type: 'function', function: { name: 'get_weather', description: 'Weather for a city', parameters: WEATHER_SCHEMA, strict: true } },
          { type: 'function', function: { name: 'get_time', parameters: TIME_SCHEMA } },
        ],
      },
    },
  ],
  ...(
    [
      ['auto', 'auto'],
      ['none', 'none'],
      ['required', 'required'],
      [{ name: 'get_weather' }, { type: 'function', function: { name: 'get_weather' } }],
    ] as const
  ).map(([choice, wireChoice]): [string, Case] => [
    `toolChoice ${JSON.stringify(choice)} → tool_choice ${JSON.stringify(wireChoice)}`,
    {
      given: { model: 'gpt-4o', messages: [USER_HI], tools: [TOOLS![0]!], toolChoice: choice },
      want: {
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'Hi' }],
        tools: [{ type: 'function', function: { name: 'get_weather', description: 'Weather for a city', parameters: WEATHER_SCHEMA, strict: true } }],
        tool_choice: wireChoice,
      },
    },
  ]),
  [
    'parallelToolCalls false → parallel_tool_calls false',
    {
      given: { model: 'gpt-4o', messages: [USER_HI], tools: [TOOLS![1]!], parallelToolCalls: false },
      want: {
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'Hi' }],
        tools: [{ type: 'function', function: { name: 'get_time', parameters: TIME_SCHEMA } }],
        parallel_tool_calls: false,
      },
    },
  ],
  [
    'assistant tool calls (content null, arguments string) then one role:tool message per result',
    {
      given: { model: 'gpt-4o', messages: TOOL_HISTORY },
      want: {
        model: 'gpt-4o',
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
          { role: 'tool', tool_call_id: 'call_1', content: '{"temp_c":18}' },
          { role: 'tool', tool_call_id: 'call_2', content: 'tz database unavailable' },
          { role: 'user', content: 'Thanks, and tomorrow?' },
        ],
      },
    },
  ],
  [
    'assistant text beside tool calls; tool arguments are passed byte-exact',
    {
      given: {
        model: 'gpt-4o',
        messages: [
          USER_HI,
          { role: 'assistant', content: 'Checking.', toolCalls: [{ id: 'call_9', name: 'get_time', arguments: '{ "tz" : "UTC" }' }] },
          { role: 'tool', toolCallId: 'call_9', content: [{ type: 'text', text: '12:00' }] },
        ],
      },
      want: {
        model: 'gpt-4o',
        messages: [
          { role: 'user', content: 'Hi' },
          {
            role: 'assistant',
            content: 'Checking.',
            tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'get_time', arguments: '{ "tz" : "UTC" }' } }],
          },
          { role: 'tool', tool_call_id: 'call_9', content: [{ type: 'text', text: '12:00' }] },
        ],
      },
    },
  ],
  [
    'maxTokens → max_completion_tokens',
    {
      given: { model: 'gpt-4o', messages: [USER_HI], maxTokens: 256 },
      want: { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }], max_completion_tokens: 256 },
    },
  ],
  [
    'temperature, topP, stop',
    {
      given: { model: 'gpt-4o', messages: [USER_HI], temperature: 0.2, topP: 0.9, stop: ['END', '###'] },
      want: { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }], temperature: 0.2, top_p: 0.9, stop: ['END', '###'] },
    },
  ],
  [
    'reasoning.effort → reasoning_effort',
    {
      given: { model: 'o4-mini', messages: [USER_HI], reasoning: { effort: 'high' } },
      want: { model: 'o4-mini', messages: [{ role: 'user', content: 'Hi' }], reasoning_effort: 'high' },
    },
  ],
  [
    'responseFormat json_schema → response_format json_schema {name, schema, strict}',
    {
      given: { model: 'gpt-4o', messages: [USER_HI], responseFormat: SCHEMA_FORMAT },
      want: {
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'Hi' }],
        response_format: {
          type: 'json_schema',
          json_schema: { name: 'weather_report', schema: SCHEMA_FORMAT.schema, strict: true },
        },
      },
    },
  ],
  [
    'responseFormat json → response_format json_object',
    {
      given: { model: 'gpt-4o', messages: [USER_HI], responseFormat: { type: 'json' } },
      want: { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }], response_format: { type: 'json_object' } },
    },
  ],
  [
    'user, store, metadata are carried',
    {
      given: { model: 'gpt-4o', messages: [USER_HI], user: 'u-42', store: true, metadata: { run: 'r1' } },
      want: { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }], user: 'u-42', store: true, metadata: { run: 'r1' } },
    },
  ],
  [
    'streaming mode: stream true and stream_options.include_usage true',
    {
      given: { model: 'gpt-4o', messages: [USER_HI] },
      mode: 'stream',
      want: { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }], stream: true, stream_options: { include_usage: true } },
    },
  ],
  [
    'streaming mode: providerOptions stream_options merge beside include_usage',
    {
      given: { model: 'gpt-4o', messages: [USER_HI], providerOptions: { stream_options: { include_obfuscation: false } } },
      mode: 'stream',
      want: {
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'Hi' }],
        stream: true,
        stream_options: { include_usage: true, include_obfuscation: false },
      },
    },
  ],
  [
    'blocking mode has no stream field',
    {
      given: { model: 'gpt-4o', messages: [USER_HI], maxTokens: 10 },
      mode: 'blocking',
      want: { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }], max_completion_tokens: 10 },
    },
  ],
  [
    'providerOptions add top-level fields; a standard field set by the request wins with an overridden warning',
    {
      given: { model: 'gpt-4o', messages: [USER_HI], temperature: 0.5, providerOptions: { seed: 7, service_tier: 'flex', temperature: 1.5 } },
      want: { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }], seed: 7, service_tier: 'flex', temperature: 0.5 },
      warnings: [{ type: 'overridden', field: 'providerOptions.temperature' }],
    },
  ],
  [
    'previousResponseId, reasoning.budgetTokens, reasoning.summary are dropped with warnings',
    {
      given: {
        model: 'o4-mini',
        messages: [USER_HI],
        previousResponseId: 'resp_123',
        reasoning: { effort: 'low', budgetTokens: 2048, summary: true },
      },
      want: { model: 'o4-mini', messages: [{ role: 'user', content: 'Hi' }], reasoning_effort: 'low' },
      warnings: [
        { type: 'dropped', field: 'previousResponseId' },
        { type: 'dropped', field: 'reasoning.budgetTokens' },
        { type: 'dropped', field: 'reasoning.summary' },
      ],
    },
  ],
  [
    'assistant thinking has no place on the Chat wire: dropped with a warning',
    {
      given: {
        model: 'gpt-4o',
        messages: [USER_HI, { role: 'assistant', content: 'Hello!', thinking: [{ text: 'greet back', signature: 'sig' }] }, { role: 'user', content: 'Bye' }],
      },
      want: {
        model: 'gpt-4o',
        messages: [
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Hello!' },
          { role: 'user', content: 'Bye' },
        ],
      },
      warnings: [{ type: 'dropped', field: 'messages[1].thinking' }],
    },
  ],
];

// ───────────────────────────── Anthropic Messages (docs/wire-facts.md#anthropic-messages) ─────────────────────────────

const CLAUDE = 'claude-sonnet-4-5';

const ANTHROPIC: Table = [
  [
    'plain user text; max_tokens defaults to 4096',
    {
      given: { model: CLAUDE, messages: [USER_HI] },
      want: { model: CLAUDE, max_tokens: 4096, messages: [{ role: 'user', content: 'Hi' }] },
    },
  ],
  [
    'request-level system → top-level system',
    {
      given: { model: CLAUDE, system: 'Be terse.', messages: [USER_HI] },
      want: { model: CLAUDE, max_tokens: 4096, system: 'Be terse.', messages: [{ role: 'user', content: 'Hi' }] },
    },
  ],
  [
    'several system texts (request + system-role messages) join with a blank line; the user turns around them merge',
    {
      given: {
        model: CLAUDE,
        system: 'Be terse.',
        messages: [{ role: 'system', content: 'Answer in French.' }, USER_HI, { role: 'system', content: 'Cite sources.' }, { role: 'user', content: 'Again' }],
      },
      want: {
        model: CLAUDE,
        max_tokens: 4096,
        system: 'Be terse.\n\nAnswer in French.\n\nCite sources.',
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Hi' },
              { type: 'text', text: 'Again' },
            ],
          },
        ],
      },
    },
  ],
  [
    'multi-part user content: text, image URL, base64 image, data: URL image as base64 source',
    {
      given: {
        model: CLAUDE,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is in these?' },
              { type: 'image', url: 'https://example.com/cat.png' },
              { type: 'image', data: JPEG_B64, mediaType: 'image/jpeg' },
              { type: 'image', url: `data:image/png;base64,${PNG_B64}` },
            ],
          },
        ],
      },
      want: {
        model: CLAUDE,
        max_tokens: 4096,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is in these?' },
              { type: 'image', source: { type: 'url', url: 'https://example.com/cat.png' } },
              { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: JPEG_B64 } },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_B64 } },
            ],
          },
        ],
      },
    },
  ],
  [
    'user name cannot be carried: dropped with a warning',
    {
      given: { model: CLAUDE, messages: [{ role: 'user', content: 'Hi', name: 'alice' }] },
      want: { model: CLAUDE, max_tokens: 4096, messages: [{ role: 'user', content: 'Hi' }] },
      warnings: [{ type: 'dropped', field: 'messages[0].name' }],
    },
  ],
  [
    'tools → {name, description, input_schema} (+ strict when set)',
    {
      given: { model: CLAUDE, messages: [USER_HI], tools: TOOLS },
      want: {
        model: CLAUDE,
        max_tokens: 4096,
        messages: [{ role: 'user', content: 'Hi' }],
        tools: [
          { name: 'get_weather', description: 'Weather for a city', input_schema: WEATHER_SCHEMA, strict: true },
          { name: 'get_time', input_schema: TIME_SCHEMA },
        ],
      },
    },
  ],
  ...(
    [
      ['auto', { type: 'auto' }],
      ['none', { type: 'none' }],
      ['required', { type: 'any' }],
      [{ name: 'get_time' }, { type: 'tool', name: 'get_time' }],
    ] as const
  ).map(([choice, wireChoice]): [string, Case] => [
    `toolChoice ${JSON.stringify(choice)} → tool_choice ${JSON.stringify(wireChoice)}`,
    {
      given: { model: CLAUDE, messages: [USER_HI], tools: [TOOLS![1]!], toolChoice: choice },
      want: {
        model: CLAUDE,
        max_tokens: 4096,
        messages: [{ role: 'user', content: 'Hi' }],
        tools: [{ name: 'get_time', input_schema: TIME_SCHEMA }],
        tool_choice: wireChoice,
      },
    },
  ]),
  [
    'parallelToolCalls false with toolChoice unset → tool_choice {type:auto, disable_parallel_tool_use:true}',
    {
      given: { model: CLAUDE, messages: [USER_HI], tools: [TOOLS![1]!], parallelToolCalls: false },
      want: {
        model: CLAUDE,
        max_tokens: 4096,
        messages: [{ role: 'user', content: 'Hi' }],
        tools: [{ name: 'get_time', input_schema: TIME_SCHEMA }],
        tool_choice: { type: 'auto', disable_parallel_tool_use: true },
      },
    },
  ],
  [
    'parallelToolCalls false with a named toolChoice → disable_parallel_tool_use on the tool choice',
    {
      given: { model: CLAUDE, messages: [USER_HI], tools: [TOOLS![1]!], toolChoice: { name: 'get_time' }, parallelToolCalls: false },
      want: {
        model: CLAUDE,
        max_tokens: 4096,
        messages: [{ role: 'user', content: 'Hi' }],
        tools: [{ name: 'get_time', input_schema: TIME_SCHEMA }],
        tool_choice: { type: 'tool', name: 'get_time', disable_parallel_tool_use: true },
      },
    },
  ],
  [
    'parallelToolCalls false with toolChoice required → {type:any, disable_parallel_tool_use:true}',
    {
      given: { model: CLAUDE, messages: [USER_HI], tools: [TOOLS![1]!], toolChoice: 'required', parallelToolCalls: false },
      want: {
        model: CLAUDE,
        max_tokens: 4096,
        messages: [{ role: 'user', content: 'Hi' }],
        tools: [{ name: 'get_time', input_schema: TIME_SCHEMA }],
        tool_choice: { type: 'any', disable_parallel_tool_use: true },
      },
    },
  ],
  [
    'assistant tool_use blocks (input parsed to an object), then ONE user message: both tool_results, is_error, then the text',
    {
      given: { model: CLAUDE, messages: TOOL_HISTORY },
      want: {
        model: CLAUDE,
        max_tokens: 4096,
        messages: [
          { role: 'user', content: 'Weather in Paris and the time in Tokyo?' },
          {
            role: 'assistant',
            content: [
              { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } },
              { type: 'tool_use', id: 'call_2', name: 'get_time', input: { tz: 'Asia/Tokyo' } },
            ],
          },
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 'call_1', content: '{"temp_c":18}' },
              { type: 'tool_result', tool_use_id: 'call_2', content: 'tz database unavailable', is_error: true },
              { type: 'text', text: 'Thanks, and tomorrow?' },
            ],
          },
        ],
      },
    },
  ],
  [
    'assistant thinking (with signature) and redacted thinking go back before text and tool_use',
    {
      given: {
        model: CLAUDE,
        messages: [
          { role: 'user', content: 'Time in Tokyo?' },
          {
            role: 'assistant',
            content: 'Let me check.',
            thinking: [{ text: 'Need the clock tool.', signature: 'EqQBCkYIBxgCKkB…sig' }, { text: '', redacted: 'EmwKAhgBEgy3va…redacted' }],
            toolCalls: [{ id: 'toolu_01', name: 'get_time', arguments: '{"tz":"Asia/Tokyo"}' }],
          },
          { role: 'tool', toolCallId: 'toolu_01', content: '09:00' },
        ],
      },
      want: {
        model: CLAUDE,
        max_tokens: 4096,
        messages: [
          { role: 'user', content: 'Time in Tokyo?' },
          {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: 'Need the clock tool.', signature: 'EqQBCkYIBxgCKkB…sig' },
              { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va…redacted' },
              { type: 'text', text: 'Let me check.' },
              { type: 'tool_use', id: 'toolu_01', name: 'get_time', input: { tz: 'Asia/Tokyo' } },
            ],
          },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: '09:00' }] },
        ],
      },
    },
  ],
  [
    'maxTokens → max_tokens',
    {
      given: { model: CLAUDE, messages: [USER_HI], maxTokens: 1000 },
      want: { model: CLAUDE, max_tokens: 1000, messages: [{ role: 'user', content: 'Hi' }] },
    },
  ],
  [
    'temperature, topP, stop → temperature, top_p, stop_sequences',
    {
      given: { model: CLAUDE, messages: [USER_HI], temperature: 0.2, topP: 0.9, stop: ['END', '###'] },
      want: {
        model: CLAUDE,
        max_tokens: 4096,
        messages: [{ role: 'user', content: 'Hi' }],
        temperature: 0.2,
        top_p: 0.9,
        stop_sequences: ['END', '###'],
      },
    },
  ],
  [
    'reasoning.budgetTokens → thinking {type:enabled, budget_tokens}',
    {
      given: { model: CLAUDE, messages: [USER_HI], maxTokens: 8000, reasoning: { budgetTokens: 2048 } },
      want: {
        model: CLAUDE,
        max_tokens: 8000,
        messages: [{ role: 'user', content: 'Hi' }],
        thinking: { type: 'enabled', budget_tokens: 2048 },
      },
    },
  ],
  [
    'reasoning.effort → output_config.effort',
    {
      given: { model: CLAUDE, messages: [USER_HI], reasoning: { effort: 'high' } },
      want: { model: CLAUDE, max_tokens: 4096, messages: [{ role: 'user', content: 'Hi' }], output_config: { effort: 'high' } },
    },
  ],
  [
    'responseFormat json_schema → output_config.format {type:json_schema, schema}',
    {
      given: { model: CLAUDE, messages: [USER_HI], responseFormat: SCHEMA_FORMAT },
      want: {
        model: CLAUDE,
        max_tokens: 4096,
        messages: [{ role: 'user', content: 'Hi' }],
        output_config: { format: { type: 'json_schema', schema: SCHEMA_FORMAT.schema } },
      },
    },
  ],
  [
    'user → metadata.user_id',
    {
      given: { model: CLAUDE, messages: [USER_HI], user: 'u-42' },
      want: { model: CLAUDE, max_tokens: 4096, messages: [{ role: 'user', content: 'Hi' }], metadata: { user_id: 'u-42' } },
    },
  ],
  [
    'streaming mode: stream true',
    {
      given: { model: CLAUDE, messages: [USER_HI] },
      mode: 'stream',
      want: { model: CLAUDE, max_tokens: 4096, messages: [{ role: 'user', content: 'Hi' }], stream: true },
    },
  ],
  [
    'blocking mode has no stream field',
    {
      given: { model: CLAUDE, messages: [USER_HI], temperature: 0 },
      mode: 'blocking',
      want: { model: CLAUDE, max_tokens: 4096, messages: [{ role: 'user', content: 'Hi' }], temperature: 0 },
    },
  ],
  [
    'providerOptions add top-level fields; a standard field set by the request wins with an overridden warning',
    {
      given: { model: CLAUDE, messages: [USER_HI], maxTokens: 512, providerOptions: { top_k: 40, service_tier: 'auto', max_tokens: 99 } },
      want: { model: CLAUDE, max_tokens: 512, messages: [{ role: 'user', content: 'Hi' }], top_k: 40, service_tier: 'auto' },
      warnings: [{ type: 'overridden', field: 'providerOptions.max_tokens' }],
    },
  ],
  [
    'providerOptions.max_tokens is used when the request leaves maxTokens unset (the 4096 default is not a request value)',
    {
      given: { model: CLAUDE, messages: [USER_HI], providerOptions: { max_tokens: 64000 } },
      want: { model: CLAUDE, max_tokens: 64000, messages: [{ role: 'user', content: 'Hi' }] },
    },
  ],
  [
    'store, previousResponseId, metadata, reasoning.summary are dropped with warnings',
    {
      given: {
        model: CLAUDE,
        messages: [USER_HI],
        store: true,
        previousResponseId: 'resp_123',
        metadata: { run: 'r1' },
        reasoning: { summary: true },
      },
      want: { model: CLAUDE, max_tokens: 4096, messages: [{ role: 'user', content: 'Hi' }] },
      warnings: [
        { type: 'dropped', field: 'store' },
        { type: 'dropped', field: 'previousResponseId' },
        { type: 'dropped', field: 'metadata' },
        { type: 'dropped', field: 'reasoning.summary' },
      ],
    },
  ],
  [
    'responseFormat json (schemaless) cannot be carried: dropped with a warning',
    {
      given: { model: CLAUDE, messages: [USER_HI], responseFormat: { type: 'json' } },
      want: { model: CLAUDE, max_tokens: 4096, messages: [{ role: 'user', content: 'Hi' }] },
      warnings: [{ type: 'dropped', field: 'responseFormat' }],
    },
  ],
];

// ───────────────────────────── the tests ─────────────────────────────

const PROVIDERS = [
  ['openai-chat', openai, OPENAI],
  ['anthropic-messages', anthropic, ANTHROPIC],
] as const;


describe.each(PROVIDERS)('%s request mapping', (_id, adapter, table) => {
  it('has at least 14 request shapes', () => {
    expect(table.length).toBeGreaterThanOrEqual(14);
  });

  it.each(table)('%s', (_name, c) => checkCase(adapter, c));

  it('every warning has string type, field and message', () => {
    let seen = 0;
    for (const [, { given, mode = 'blocking' }] of table) {
      for (const w of adapter.buildRequest(given, mode).warnings) {
        seen++;
        expect(typeof w.type).toBe('string');
        expect(typeof w.field).toBe('string');
        expect(typeof w.message).toBe('string');
        expect(['dropped', 'overridden']).toContain(w.type);
        expect(w.field.length).toBeGreaterThan(0);
        expect(w.message.length).toBeGreaterThan(0);
      }
    }
    expect(seen).toBeGreaterThan(0);
  });
});

describe.each(PROVIDERS)('%s providerOptions with __proto__', (_id, adapter) => {
  afterEach(() => {
    delete (Object.prototype as Record<string, unknown>).polluted;
  });

  it.each(['blocking', 'stream'] as const)('does not pollute Object.prototype and never reaches the body (%s)', (mode) => {
    const providerOptions = JSON.parse('{"__proto__":{"polluted":true},"nested":{"__proto__":{"polluted":true},"ok":1}}') as Record<string, unknown>;
    const built = adapter.buildRequest({ model: 'm', messages: [USER_HI], providerOptions }, mode);

    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
    expect(Object.getPrototypeOf(built.body)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(built.body, '__proto__')).toBe(false);
    expect((built.body as Record<string, unknown>).polluted).toBeUndefined();
    expect(JSON.stringify(built.body)).not.toContain('__proto__');
    expect(JSON.stringify(built.body)).not.toContain('polluted');
    expect(wire(built.body)).toMatchObject({ nested: { ok: 1 } });
    expect(Object.keys(built.body.nested as object)).toEqual(['ok']);
  });
});

describe('anthropic-messages thinking budget vs max_tokens', () => {
  // docs/wire-facts.md#anthropic-request: thinking.budget_tokens must be ≥ 1024 and < max_tokens.
  // With maxTokens unset the adapter's own default (4096) must not yield a body the API rejects:
  // either it sends a max_tokens above the budget or it rejects the request up front.
  it('never sends budget_tokens ≥ max_tokens', () => {
    let body: Record<string, unknown> | undefined;
    try {
      body = anthropic.buildRequest({ model: CLAUDE, messages: [USER_HI], reasoning: { budgetTokens: 8000 } }, 'blocking').body;
    } catch {
      return; // rejected up front: acceptable
    }
    const thinking = body.thinking as { budget_tokens: number };
    expect(thinking.budget_tokens).toBe(8000);
    expect(body.max_tokens as number).toBeGreaterThan(thinking.budget_tokens);
  });
});
