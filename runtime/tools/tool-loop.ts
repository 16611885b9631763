/**
 * runTools / streamTools: call the model, run the tools it asks for, send the results back, and
 * again, until it answers without tools, a tool's result is returned immediately, or maxSteps.
 * One loop serves both: the blocking form drains the streaming one's step events.
 */
import type { Client } from '../client/create-client.js';
import { RequestError, StreamError } from '../errors.js';
import { isStandardSchema, jsonSchemaOf } from './standard-schema.js';
import { checkRequest } from '../request/check-request.js';
import type { ChatRequest, ChatResponse, Message, StreamEvent, ToolCall, ToolSpec, Usage } from '../contract/unified-model.js';
import { isKindTool, type ToolDefinition, type ToolSet } from './define-tool.js';
import { executeCalls, raceAbort, type ExecutePolicy, type ToolExecution } from './execute-calls.js';

export interface RunToolsOptions extends Partial<ExecutePolicy> {
  tools: ToolSet;
  /** Model calls at most (default 100). */
  maxSteps?: number;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

export interface ToolStep {
  /** 1-based. */
  step: number;
  response: ChatResponse;
  executions: ToolExecution[];
}

export interface RunToolsResult {
  /** The last model response. */
  response: ChatResponse;
  /** The whole conversation, ready to continue: request messages, assistant turns, tool results. */
  messages: Message[];
  steps: ToolStep[];
  /** Summed over every model call. */
  usage: Usage;
  /** `answer`: no more tool calls; `immediate`: a tool's result ends the loop; `max-steps`: the limit was reached. */
  stoppedBy: 'answer' | 'immediate' | 'max-steps';
  /** The execution whose result ended the loop, for `immediate`. */
  immediate?: ToolExecution;
}

export type ToolLoopEvent =
  | { type: 'step-start'; step: number }
  | (StreamEvent & { step: number })
  | { type: 'tool-execution-start'; step: number; call: ToolCall }
  | { type: 'tool-execution-result'; step: number; execution: ToolExecution }
  | { type: 'step-finish'; step: number; response: ChatResponse };

const DEFAULT_POLICY: ExecutePolicy = { onArgumentsError: 'throw', onExecutionError: 'report', onUnknownTool: 'throw', concurrency: 8 };

/** The blocking loop. */
export async function runTools(client: Client, request: ChatRequest, options: RunToolsOptions): Promise<RunToolsResult> {
  const loop = toolLoop(client, request, options, false);
  for (;;) {
    const r = await loop.next();
    if (r.done) return r.value;
  }
}

/** The streaming loop: every event of every step, with step boundaries and tool executions. */
export function streamTools(client: Client, request: ChatRequest, options: RunToolsOptions): ToolStream {
  return new ToolStream(() => toolLoop(client, request, options, true));
}

export class ToolStream implements AsyncIterable<ToolLoopEvent> {
  #started = false;
  #result: Promise<RunToolsResult>;
  #settle!: { resolve: (r: RunToolsResult) => void; reject: (e: unknown) => void };

  readonly #make: () => AsyncGenerator<ToolLoopEvent, RunToolsResult, undefined>;

  constructor(make: () => AsyncGenerator<ToolLoopEvent, RunToolsResult, undefined>) {
    this.#make = make;
    this.#result = new Promise((resolve, reject) => (this.#settle = { resolve, reject }));
    this.#result.catch(() => undefined);
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<ToolLoopEvent, void, undefined> {
    if (this.#started) throw new StreamError({ provider: 'tool-loop', reason: 'a stream can be iterated only once' });
    this.#started = true;
    const loop = this.#make();
    let finished = false;
    try {
      for (;;) {
        const r = await loop.next();
        if (r.done) {
          finished = true;
          this.#settle.resolve(r.value);
          return;
        }
        yield r.value;
      }
    } catch (error) {
      this.#settle.reject(error);
      throw error;
    } finally {
      if (!finished) {
        await loop.return(undefined as never).catch(() => undefined);
        this.#settle.reject(new StreamError({ provider: 'tool-loop', reason: 'the tool loop was left before its end' }));
      }
    }
  }

  /** The loop's result: runs it to the end if nobody iterates. */
  async final(): Promise<RunToolsResult> {
    if (!this.#started) for await (const _ of this) void _;
    return this.#result;
  }
}

async function* toolLoop(
  client: Client,
  request: ChatRequest,
  options: RunToolsOptions,
  streaming: boolean,
): AsyncGenerator<ToolLoopEvent, RunToolsResult, undefined> {
  // Before anything else reads it: a request from plain JavaScript may not be a ChatRequest. A
  // response schema is the client's to read (createClient clients do, on the turn that answers).
  const format = (request as { responseFormat?: { type?: unknown; schema?: unknown } } | null)?.responseFormat;
  checkRequest(client.provider, format?.type === 'json' && format.schema !== undefined ? { ...request, responseFormat: { type: 'json' } } : request);
  const policy: ExecutePolicy = {
    onArgumentsError: options.onArgumentsError ?? DEFAULT_POLICY.onArgumentsError,
    onExecutionError: options.onExecutionError ?? DEFAULT_POLICY.onExecutionError,
    onUnknownTool: options.onUnknownTool ?? DEFAULT_POLICY.onUnknownTool,
    concurrency: options.concurrency ?? DEFAULT_POLICY.concurrency,
  };
  const maxSteps = options.maxSteps ?? 100;
  // Before any listener is added: a tool definition can be refused here.
  const tools = toolSpecs(client.provider, options.tools, request.tools);
  // Our own controller, so tools see cancellation whoever triggers it.
  const controller = new AbortController();
  const onAbort = () => controller.abort(options.signal!.reason);
  if (options.signal?.aborted) controller.abort(options.signal.reason);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const signal = controller.signal;
  const call = { signal, headers: options.headers };
  const messages: Message[] = [...request.messages];
  const steps: ToolStep[] = [];
  let usage: Usage | undefined;

  try {
    for (let step = 1; ; step++) {
      yield { type: 'step-start', step };
      const turn: ChatRequest = { ...request, tools, messages: [...messages] };
      let response: ChatResponse;
      if (streaming) {
        const stream = client.stream(turn, call);
        for await (const event of stream) yield { ...event, step };
        response = await stream.final();
      } else {
        response = await raceAbort(client.chat(turn, call), signal);
      }
      usage = addUsage(usage, response.usage);
      const record: ToolStep = { step, response, executions: [] };
      steps.push(record);
      // The assistant turn exactly as returned: thinking and signatures survive.
      messages.push(response.message);
      const calls = response.message.toolCalls ?? [];
      if (calls.length === 0) {
        yield { type: 'step-finish', step, response };
        // A paused turn is sent back as it is so the provider goes on; it is not the answer.
        if (response.paused && step < maxSteps) continue;
        return finish(response.paused ? 'max-steps' : 'answer');
      }
      for (const c of calls) yield { type: 'tool-execution-start', step, call: c };
      record.executions = await executeCalls(calls, options.tools, policy, { signal, step, messages: [...messages], response });
      for (const execution of record.executions) {
        const { call: c } = execution;
        messages.push({ role: 'tool', toolCallId: c.id, toolName: c.name, content: execution.content, ...(execution.isError ? { isError: true } : {}), ...(c.kind !== undefined ? { kind: c.kind } : {}) });
        yield { type: 'tool-execution-result', step, execution };
      }
      yield { type: 'step-finish', step, response };
      const immediate = record.executions.find((e, i) => {
        const returns = Object.prototype.hasOwnProperty.call(options.tools, e.call.name) ? options.tools[e.call.name]!.returns : undefined;
        return !e.isError && (returns === 'immediate' || (returns === 'immediate-if-last' && i === record.executions.length - 1));
      });
      if (immediate) return finish('immediate', immediate);
      if (step >= maxSteps) return finish('max-steps');
    }
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    // Leaving early (abort, break, error) tells tools still running to stop.
    if (!controller.signal.aborted) controller.abort(new DOMException('The tool loop ended', 'AbortError'));
  }

  function finish(stoppedBy: RunToolsResult['stoppedBy'], immediate?: ToolExecution): RunToolsResult {
    const last = steps[steps.length - 1]!;
    return {
      response: last.response,
      messages,
      steps,
      usage: usage ?? { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
      stoppedBy,
      ...(immediate ? { immediate } : {}),
    };
  }
}

/** The tools sent to the model: the loop's definitions, over any same-named request tools. */
function toolSpecs(provider: string, tools: ToolSet, fromRequest: ToolSpec[] | undefined): ToolSpec[] {
  // Provider-run tools (type 'provider') are the provider's to run: they pass through. A tool of a
  // client-run kind is declared as the provider tool of that kind, with the options it gives.
  const defined = Object.entries(tools).map(([name, t]): ToolSpec => {
    if (isKindTool(t)) {
      const options = t.provider?.options;
      return { type: 'provider', name: t.provider?.name ?? t.kind, ...(options ? { options } : {}) };
    }
    return {
      name,
      ...(t.description !== undefined ? { description: t.description } : {}),
      parameters: wireSchema(provider, name, t.parameters),
      ...(t.strict !== undefined ? { strict: t.strict } : {}),
    };
  });
  return [...defined, ...(fromRequest ?? []).filter((t) => !Object.prototype.hasOwnProperty.call(tools, t.name))];
}

function addUsage(total: Usage | undefined, u: Usage | null): Usage | undefined {
  if (!u) return total;
  if (!total) return { ...u };
  const out: Usage = { inputTokens: total.inputTokens + u.inputTokens, outputTokens: total.outputTokens + u.outputTokens, totalTokens: total.totalTokens + u.totalTokens };
  for (const k of ['cachedInputTokens', 'cacheWriteTokens', 'reasoningTokens'] as const) {
    if (total[k] !== undefined || u[k] !== undefined) out[k] = (total[k] ?? 0) + (u[k] ?? 0);
  }
  // Other models' steps stay apart, listed in turn order.
  if (total.otherModels || u.otherModels) out.otherModels = [...(total.otherModels ?? []), ...(u.otherModels ?? [])];
  return out;
}

/** The JSON Schema the model gets: the tool's own, or its Standard Schema's JSON Schema. */
function wireSchema(provider: string, name: string, parameters: ToolDefinition['parameters']): Record<string, unknown> {
  if (!isStandardSchema(parameters)) return parameters;
  const schema = jsonSchemaOf(parameters);
  if (schema === undefined) {
    throw new RequestError(provider, `tools.${name}.parameters`, `the ${parameters['~standard'].vendor} schema offers no JSON Schema (Standard JSON Schema) for the model; pass a JSON Schema, or a schema whose library implements ~standard.jsonSchema (zod ≥ 4.2)`);
  }
  return schema;
}
