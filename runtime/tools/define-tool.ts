/** Tool definitions for the loop: a JSON Schema, an execute function, and what to do with the result. */
import type { ChatResponse, Message } from '../types.js';
import type { FromSchema } from './json-schema-type.js';

/**
 * What the loop does with a tool's result:
 * `to-model` sends it back and calls the model again; `immediate` stops the loop and returns it;
 * `immediate-if-last` stops only when this call is the last one the model made in its turn.
 */
export type ReturnBehaviour = 'to-model' | 'immediate' | 'immediate-if-last';

export interface ToolContext {
  /** Aborted when the loop is cancelled. */
  signal: AbortSignal;
  callId: string;
  /** 1-based model call that asked for this tool. */
  step: number;
  /** The conversation so far (do not mutate). */
  messages: readonly Message[];
  /** The model turn that asked for the call. */
  response: ChatResponse | undefined;
}

export interface ToolDefinition<Args = unknown, Result = unknown> {
  description?: string;
  /** JSON Schema of the arguments; sent to the model and checked before execute. */
  parameters: Record<string, unknown>;
  strict?: boolean;
  returns?: ReturnBehaviour;
  execute(args: Args, ctx: ToolContext): Result | Promise<Result>;
}

/** A tool whose `args` are typed from its schema (write the schema `as const`). */
export function defineTool<const S extends Record<string, unknown>, Result>(tool: {
  description?: string;
  parameters: S;
  strict?: boolean;
  returns?: ReturnBehaviour;
  execute(args: FromSchema<S>, ctx: ToolContext): Result | Promise<Result>;
}): ToolDefinition<FromSchema<S>, Result> {
  return tool;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ToolSet = Record<string, ToolDefinition<any, unknown>>;
