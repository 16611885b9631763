/**
 * A request with a response schema (`responseFormat: { type: 'json', schema }`), planned for one
 * wire: what is sent (the wire's JSON-schema form, or the fallback its spec names: a forced tool
 * or a prompt instruction), where the reply is (the text, or the forced tool's arguments), and
 * how it is checked (the JSON Schema validator, or the Standard Schema library).
 */
import type { ProviderAdapter } from '../contract/adapter.js';
import type { ChatRequest, ChatResponse, ResponsePart, ResponseSchema, Warning } from '../contract/unified-model.js';
import { RequestError, StructuredOutputError } from '../errors.js';
import { checkRequest } from '../request/check-request.js';
import { checkArguments, type ArgumentsCheck } from '../tools/check-arguments.js';
import { checkStandard, isStandardSchema, jsonSchemaOf } from '../tools/standard-schema.js';
import { isObject } from '../wire/read-path.js';

export interface StructuredPlan {
  /** What the client sends: the schema in the wire's form, the rest as asked. */
  request: ChatRequest;
  /** The forced tool's name, when the reply comes as its arguments. */
  tool: string | undefined;
  /** Added to the response's warnings (and the stream's start event). */
  warning: Warning | undefined;
  /** The response with `object` set, its forced-tool call turned into the text it is; or a StructuredOutputError. */
  finish(res: ChatResponse): Promise<ChatResponse>;
}

/** The default name of the schema on the wire (JSON-schema forms and the forced tool need one). */
const NAME = 'response';

/** A plan for a request with a response schema; undefined for every other request (nothing to do). */
export function planStructured(adapter: ProviderAdapter, request: ChatRequest): StructuredPlan | undefined {
  // Read before the request is checked: it may not even be an object (the client's check says so).
  const format = (request as { responseFormat?: unknown } | null | undefined)?.responseFormat;
  if (!isObject(format) || format.type !== 'json' || format.schema === undefined) return undefined;
  const id = adapter.id;
  const { schema, name = NAME, description, ...rest } = format as { type: 'json'; schema: ResponseSchema; name?: unknown; description?: unknown };
  function fail(field: string, message: string): never {
    throw new RequestError(id, `responseFormat.${field}`, message);
  }
  if (!isObject(schema) && !isStandardSchema(schema)) fail('schema', 'must be a JSON Schema object or a Standard Schema (zod, valibot, arktype)');
  if (typeof name !== 'string' || !/^[\w-]{1,64}$/.test(name)) fail('name', 'must be 1 to 64 letters, digits, _ or - (it names the schema, or the forced tool, on the wire)');
  if (description !== undefined && typeof description !== 'string') fail('description', 'must be a string');
  // The rest of the request as any other: checked before a word of it is rewritten.
  checkRequest(id, { ...request, responseFormat: { ...rest, type: 'json' } });
  const wire = isStandardSchema(schema) ? jsonSchemaOf(schema) : schema;
  if (wire === undefined) {
    const vendor = (schema as { '~standard': { vendor: string } })['~standard'].vendor;
    fail('schema', `the ${vendor} schema offers no JSON Schema (Standard JSON Schema) for the model; pass a JSON Schema, or a schema whose library implements ~standard.jsonSchema (zod ≥ 4.2)`);
  }
  const check = (text: string): Promise<ArgumentsCheck> => (isStandardSchema(schema) ? checkStandard(schema, text) : checkArguments(schema as Record<string, unknown>, text));

  const rq = adapter.profile.request;
  const native = rq.responseFormat !== undefined && adapter.codec.responseFormat.jsonSchema !== undefined;
  const { responseFormat: _asked, ...others } = request;
  let sent: ChatRequest;
  let tool: string | undefined;
  let warning: Warning | undefined;
  if (native) {
    sent = { ...others, responseFormat: { type: 'json_schema', name, schema: wire! } };
  } else if (rq.schemaFallback === 'tool') {
    // The forced tool is the only tool: a choice the caller made, or tools of theirs, would be overruled.
    if (request.tools?.length) fail('schema', `${adapter.name} carries a typed reply as a forced tool call, so it cannot be combined with tools; ask for the reply in a turn of its own`);
    if (request.toolChoice !== undefined) fail('schema', `${adapter.name} carries a typed reply as a forced tool call, which sets the tool choice; leave toolChoice unset`);
    tool = name;
    const fn = { name, description: typeof description === 'string' ? description : 'Give the answer as the arguments of this tool.', parameters: wire! };
    sent = { ...others, tools: [fn], toolChoice: { name } };
  } else if (rq.schemaFallback === 'instruction') {
    const ask = `Answer with one JSON value and nothing else (no prose, no code fence)${typeof description === 'string' ? `: ${description}` : ''}. It must match this JSON Schema:\n${JSON.stringify(wire)}`;
    sent = { ...others, system: request.system ? `${request.system}\n\n${ask}` : ask };
    // The wire's schemaless JSON mode, when it has one, keeps the reply JSON.
    if (adapter.codec.responseFormat.json) sent.responseFormat = { type: 'json' };
    warning = { type: 'emulated', field: 'responseFormat.schema', message: `${adapter.name} has no JSON-schema response format: the schema was sent as an instruction in the system prompt, and the reply is checked against it` };
  } else {
    return fail('schema', `${adapter.name} has no JSON-schema response format, and its spec names no other way (request.responseFormat.schemaFallback)`);
  }

  return {
    request: sent,
    tool,
    warning,
    async finish(res) {
      const out = tool === undefined ? res : asText(res, tool);
      if (warning) out.warnings = [...out.warnings, warning];
      // A turn that calls the caller's tools is not the reply yet (a tool loop goes on).
      if (tool === undefined && out.toolCalls.length) return out;
      // A model that answered in text instead of calling the forced tool: its text is judged as the reply.
      const text = tool === undefined ? out.text : (res.toolCalls.find((c) => c.name === tool)?.arguments ?? out.text);
      if (text === null || text.trim() === '') {
        throw new StructuredOutputError(id, text, [{ path: '', message: tool === undefined ? 'the reply has no text' : `the model did not call the forced tool "${tool}"` }], out);
      }
      const checked = await check(unfenced(text));
      if (!checked.ok) throw new StructuredOutputError(id, text, checked.errors, out);
      out.object = checked.value;
      return out;
    },
  };
}

/**
 * The reply without a Markdown code fence around it: models asked for JSON by instruction often
 * add one. Anything else is left for the JSON parser to judge.
 */
export function unfenced(text: string): string {
  const m = /^\s*```[\w-]*[ \t]*\r?\n([\s\S]*?)\r?\n?[ \t]*```\s*$/.exec(text);
  return m ? m[1]! : text;
}

/** The forced tool's call read as what it is, the reply: a text part in its place, and no tool call. */
function asText(res: ChatResponse, tool: string): ChatResponse {
  const call = res.toolCalls.find((c) => c.name === tool);
  if (!call) return res;
  const swap = (parts: ResponsePart[]): ResponsePart[] => parts.map((p) => (p.type === 'tool-call' && p.call.id === call.id ? { type: 'text', text: call.arguments } : p));
  const toolCalls = res.toolCalls.filter((c) => c !== call);
  const { toolCalls: calls, parts, content, ...message } = res.message;
  const others = calls?.filter((c) => c.id !== call.id);
  // Text the model wrote before the call (rare with a forced choice) stays in front of it.
  const text = `${res.text ?? ''}${call.arguments}`;
  return {
    ...res,
    text,
    toolCalls,
    content: swap(res.content),
    message: {
      ...message,
      content: `${typeof content === 'string' ? content : ''}${call.arguments}`,
      ...(others?.length ? { toolCalls: others } : {}),
      ...(parts ? { parts: swap(parts) } : {}),
    },
    finishReason: res.finishReason === 'tool_calls' && toolCalls.length === 0 ? 'stop' : res.finishReason,
  };
}
