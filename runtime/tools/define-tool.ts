/** Tool definitions for the loop: a JSON Schema, an execute function, and what to do with the result. */
import type { ChatResponse, Message } from '../contract/unified-model.js';
import type { FromSchema } from './json-schema-type.js';
import type { InferOutput, StandardSchemaV1 } from './standard-schema.js';

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
  /**
   * The arguments: a JSON Schema (sent to the model, checked before execute), or a Standard
   * Schema (zod 4, valibot, arktype…): the library checks and types the arguments, and its JSON
   * Schema (Standard JSON Schema) goes to the model.
   */
  parameters: Record<string, unknown> | StandardSchemaV1;
  strict?: boolean;
  returns?: ReturnBehaviour;
  execute(args: Args, ctx: ToolContext): Result | Promise<Result>;
}

/**
 * A tool whose `args` are typed from its schema: a Standard Schema (zod, valibot, arktype), or a
 * JSON Schema written `as const`.
 */
export function defineTool<const S extends StandardSchemaV1, Result>(tool: {
  description?: string;
  parameters: S;
  strict?: boolean;
  returns?: ReturnBehaviour;
  execute(args: InferOutput<S>, ctx: ToolContext): Result | Promise<Result>;
}): ToolDefinition<InferOutput<S>, Result>;
export function defineTool<const S extends Record<string, unknown>, Result>(tool: {
  description?: string;
  parameters: S;
  strict?: boolean;
  returns?: ReturnBehaviour;
  execute(args: FromSchema<S>, ctx: ToolContext): Result | Promise<Result>;
}): ToolDefinition<FromSchema<S>, Result>;
export function defineTool(tool: ToolDefinition<never, unknown>): ToolDefinition<never, unknown> {
  return tool;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ToolSet = Record<string, ToolDefinition<any, unknown>>;
