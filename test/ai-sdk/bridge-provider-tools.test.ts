/**
 * A provider-executed tool through the AI SDK (Anthropic web search): declared with
 * `providerTool('web_search')`, sent as Anthropic's own tool, its call and result shown with
 * `providerExecuted`, and sent back in Anthropic's wire form on the next turn. The mock serves the
 * call and result blocks as Anthropic's documentation describes them.
 */
import { describe, expect, it } from 'vitest';
import { generateText, streamText, type ModelMessage } from 'ai';
import { createMockServer } from '../../node/index.js';
import { languageModel, providerTool } from '../../ai-sdk/index.js';
import { quietAiSdkWarnings } from '../helpers/ai-sdk-quiet.js';

quietAiSdkWarnings();

const KEY = 'sk-bridge-provider-tools-0123456789';
const CALL = { type: 'server_tool_use', id: 'srvtoolu_01Abc', name: 'web_search', input: { query: 'weather in Paris' } };
const RESULT = {
  type: 'web_search_tool_result',
  tool_use_id: 'srvtoolu_01Abc',
  content: [{ type: 'web_search_result', url: 'https://weather.example/paris', title: 'Paris forecast', encrypted_content: 'EqgfCioIARgBIiQ3YTAwMjY1Mi1mZjM5LTQ1NGUtODgxNC1kNjNjNTk1ZWI3Y2MSDP8wireforge', page_age: 'today' }],
};

describe('anthropic-messages: web search through the AI SDK', () => {
  it.each(['generateText', 'streamText'] as const)('%s: the call and its result are provider-executed content, and go back as Anthropic wrote them', async (mode) => {
    const mock = await createMockServer({ provider: 'anthropic-messages', apiKey: KEY, script: [{ when: { lastUserText: 'thanks' }, reply: { text: 'You are welcome.' } }, { reply: { parts: [CALL, RESULT], text: 'It is sunny in Paris.' } }] });
    try {
      const model = languageModel('anthropic-messages', { model: 'claude-x', apiKey: KEY, baseUrl: mock.url });
      const tools = { web_search: providerTool('web_search', { max_uses: 2 }) };
      const r = mode === 'generateText'
        ? await generateText({ model, prompt: 'Weather in Paris?', tools, maxRetries: 0 })
        : await (async () => {
            const s = streamText({ model, prompt: 'Weather in Paris?', tools, maxRetries: 0 });
            await s.consumeStream();
            return { text: await s.text, content: await s.content, response: await s.response };
          })();
      expect(r.text).toBe('It is sunny in Paris.');
      const call = r.content.find((p) => p.type === 'tool-call');
      const result = r.content.find((p) => p.type === 'tool-result');
      expect(call).toMatchObject({ toolCallId: 'srvtoolu_01Abc', toolName: 'web_search', providerExecuted: true, input: { query: 'weather in Paris' } });
      expect(result).toMatchObject({ toolCallId: 'srvtoolu_01Abc', toolName: 'web_search' });
      // Declared as Anthropic's own web search tool.
      const first = mock.requests[0]!.body as { tools: Array<Record<string, unknown>> };
      expect(first.tools).toEqual([expect.objectContaining({ type: 'web_search_20250305', name: 'web_search' })]);

      const messages: ModelMessage[] = [{ role: 'user', content: 'Weather in Paris?' }, ...r.response.messages, { role: 'user', content: 'thanks' }];
      const next = await generateText({ model, messages, tools, maxRetries: 0 });
      expect(next.text).toBe('You are welcome.');
      const history = (mock.requests.at(-1)!.body as { messages: Array<{ role: string; content: unknown }> }).messages[1]!;
      expect(history.role).toBe('assistant');
      expect(history.content).toEqual(expect.arrayContaining([expect.objectContaining(CALL), expect.objectContaining(RESULT)]));
    } finally {
      await mock.close();
    }
  });
});
