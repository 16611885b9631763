/** One model turn's tool calls: looked up, checked, run with bounded concurrency, results in call order. */
import { ToolArgumentsError, ToolExecutionError, UnknownToolError } from '../errors.js';
import { abortReason } from '../transport/abort.js';
import type { ToolCall } from '../contract/unified-model.js';
import { checkArguments } from './check-arguments.js';
import { checkStandard, isStandardSchema } from './standard-schema.js';
import { isKindTool, type ToolContext, type ToolSet } from './define-tool.js';

export interface ToolExecution {
  call: ToolCall;
  /** What execute() returned (undefined when it did not run or threw). */
  result: unknown;
  /** The text sent back to the model. */
  content: string;
  isError: boolean;
  durationMs: number;
  /** The error behind an error result: arguments, unknown tool, or what execute() threw. */
  error?: unknown;
}

export interface ExecutePolicy {
  onArgumentsError: 'throw' | 'report';
  onExecutionError: 'report' | 'throw';
  onUnknownTool: 'throw' | 'report';
  concurrency: number;
}

export async function executeCalls(
  calls: ToolCall[],
  tools: ToolSet,
  policy: ExecutePolicy,
  context: Omit<ToolContext, 'callId'>,
): Promise<ToolExecution[]> {
  const results: ToolExecution[] = new Array(calls.length);
  let next = 0;
  const worker = async () => {
    while (next < calls.length) {
      const i = next++;
      results[i] = await executeOne(calls[i]!, tools, policy, { ...context, callId: calls[i]!.id });
    }
  };
  const workers = Array.from({ length: Math.max(1, Math.min(policy.concurrency, calls.length)) }, worker);
  // Cancellation does not wait for tools still running: they see ctx.signal and are left behind.
  await raceAbort(Promise.all(workers), context.signal);
  return results;
}

async function executeOne(call: ToolCall, tools: ToolSet, policy: ExecutePolicy, ctx: ToolContext): Promise<ToolExecution> {
  const started = performance.now();
  const done = (content: string, isError: boolean, extra: Partial<ToolExecution> = {}): ToolExecution => ({
    call,
    result: undefined,
    content,
    isError,
    durationMs: performance.now() - started,
    ...extra,
  });
  const tool = toolFor(call, tools);
  if (!tool) {
    const error = new UnknownToolError(call.name, call.id, Object.keys(tools));
    if (policy.onUnknownTool === 'throw') throw error;
    return done(`Unknown tool "${call.name}". Available tools: ${Object.keys(tools).join(', ')}.`, true, { error });
  }
  // A kind's input has the shape the provider gives it: it is read, not checked against a schema.
  const args = isKindTool(tool) ? kindInput(call) : isStandardSchema(tool.parameters) ? await checkStandard(tool.parameters, call.arguments) : await checkArguments(tool.parameters, call.arguments);
  if (!args.ok) {
    const error = new ToolArgumentsError({ toolName: call.name, callId: call.id, arguments: call.arguments, errors: args.errors });
    if (policy.onArgumentsError === 'throw') throw error;
    return done(`Invalid arguments for tool "${call.name}": ${args.errors.map((e) => `${e.path || '(root)'} ${e.message}`).join('; ')}. Call it again with corrected arguments.`, true, { error });
  }
  try {
    const result = await tool.execute(args.value, ctx);
    return done(toContent(result), false, { result });
  } catch (error) {
    if (ctx.signal.aborted) throw abortReason(ctx.signal);
    if (policy.onExecutionError === 'throw') throw new ToolExecutionError(call.name, call.id, error);
    return done(error instanceof Error ? error.message : String(error), true, { error });
  }
}

/**
 * The tool a call is for: by name, of the call's kind (a function for a call without one); a call
 * of a kind whose name is no tool's goes to the one tool of that kind.
 */
function toolFor(call: ToolCall, tools: ToolSet): ToolSet[string] | undefined {
  const named = Object.prototype.hasOwnProperty.call(tools, call.name) ? tools[call.name] : undefined;
  const kindOf = (t: ToolSet[string]) => (isKindTool(t) ? t.kind : undefined);
  if (named && kindOf(named) === call.kind) return named;
  if (call.kind === undefined) return undefined;
  const ofKind = Object.values(tools).filter((t) => kindOf(t) === call.kind);
  return ofKind.length === 1 ? ofKind[0] : undefined;
}

function kindInput(call: ToolCall): { ok: true; value: unknown } | { ok: false; errors: Array<{ path: string; message: string }> } {
  try {
    return { ok: true, value: JSON.parse(call.arguments) as unknown };
  } catch {
    return { ok: false, errors: [{ path: '', message: call.argumentsError ?? 'the input is not valid JSON' }] };
  }
}

/** Strings go back as they are; anything else as JSON. */
function toContent(result: unknown): string {
  if (typeof result === 'string') return result;
  if (result === undefined) return '';
  return JSON.stringify(result) ?? String(result);
}

export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    // The raced promise still settles (usually rejecting with the same abort): it is handled here.
    promise.catch(() => undefined);
    return Promise.reject(abortReason(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
