/**
 * The general mechanisms the served bodies are written with (docs/serving.md#bodies-as-the-real-api-writes-them):
 * `$json.<slot>` and `$request` in the emitted templates, and `serve.fill` on the turn's items.
 */
import { describe, expect, it } from 'vitest';
import { serveSlot } from '../../generator/emit/emit-serve.js';
import { templateExpr } from '../../generator/emit/emit-template.js';
import { parseTemplate } from '../../generator/ir/templates.js';
import { adapter, serve } from '../../generated/openai-responses.js';
import { responseBody, servedTurn } from '../../runtime/serve/index.js';

describe('serve slots in emitted code', () => {
  it('$json.<slot> is the slot as JSON text; $request reads the client body, with an empty list or object as default', () => {
    expect(templateExpr(parseTemplate('$json.wire.input', '/serve/x'), serveSlot)).toBe('jsonText(s.wire?.input)');
    expect(templateExpr(parseTemplate('$request.tools|[]', '/serve/x'), serveSlot)).toBe('(s.request?.tools ?? [])');
    expect(templateExpr(parseTemplate('$request.metadata|{}', '/serve/x'), serveSlot)).toBe('(s.request?.metadata ?? {})');
  });
});

describe('serve.fill', () => {
  const turn = servedTurn({ text: 'Hi.', toolCalls: [{ id: 'c1', name: 'f' }, { id: 'c2', name: 'g' }] }, { id: 'r1', model: 'm', created: 1767225600 });

  it('adds what an item lacks, keeps what it has, and gives every item its own copy', () => {
    const fill = { message: { status: 'completed', role: 'not-this' }, function_call: { status: 'completed', extra: [] as unknown[] } };
    const body = responseBody(adapter, { ...serve, fill }, turn).body as { output: Array<Record<string, any>> };
    const [message, first, second] = body.output;
    expect(message).toMatchObject({ type: 'message', role: 'assistant', status: 'completed' });
    expect(first).toMatchObject({ type: 'function_call', status: 'completed', extra: [] });
    first!.extra.push('x');
    expect(second!.extra).toEqual([]);
    expect(fill.function_call.extra).toEqual([]);
  });

  it('never writes a prototype key, from the fill or from the turn', () => {
    const fill = JSON.parse('{"message":{"__proto__":{"polluted":true},"status":"completed"}}') as Record<string, Record<string, unknown>>;
    const wire = JSON.parse('{"type":"web_search_call","id":"ws_1","status":"completed","__proto__":{"polluted":true}}') as unknown;
    const withPart = servedTurn({ text: 'Hi.', parts: [wire] }, { id: 'r2', model: 'm', created: 1767225600 });
    const body = responseBody(adapter, { ...serve, fill }, withPart).body as { output: Array<Record<string, unknown>> };
    for (const item of body.output) {
      expect(Object.getPrototypeOf(item)).toBe(Object.prototype);
      expect((item as { polluted?: boolean }).polluted).toBeUndefined();
    }
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });
});
