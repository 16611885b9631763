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
 * What the caller's side of each client-run tool kind takes and gives (docs/unified-model.md#client-run-tool-kinds):
 * `input` is the call's input as the wire has it (`JSON.parse(call.arguments)`), `output` what
 * goes back in the kind's output item. Field names are the provider's own.
 */
export interface ToolKinds {
  /** Responses `shell_call`: commands to run; the output has one entry per command. */
  shell: {
    input: { commands: string[]; timeout_ms?: number | null; max_output_length?: number | null };
    output: Array<{ stdout: string; stderr: string; outcome: { type: 'exit'; exit_code: number } | { type: 'timeout' } }>;
  };
  /** Responses `local_shell_call`: one command (argv), its output as text. */
  local_shell: {
    input: { type: 'exec'; command: string[]; env?: Record<string, string>; timeout_ms?: number | null; working_directory?: string | null; user?: string | null };
    output: string;
  };
  /** Responses `apply_patch_call`: one file operation; a throw (or an error result) marks the output failed. */
  apply_patch: { input: { type: 'create_file' | 'update_file' | 'delete_file'; path: string; diff?: string }; output: string };
  /** Responses `custom_tool_call`: free text in, text out. */
  custom: { input: string; output: string };
  /** Responses `computer_call`: an action (click, type, screenshot…); the output is a screenshot. */
  computer: { input: Record<string, unknown>; output: { type: 'computer_screenshot'; image_url?: string; file_id?: string } };
  /** Responses `tool_search_call` run by the caller: the output lists the tools found. */
  tool_search: { input: unknown; output: unknown[] };
}

/**
 * A tool of a client-run kind: the provider declares it (a provider tool, `{ type: 'provider', name }`
 * in the request; by default the kind's own name) and the model calls it with a call of that kind,
 * which the loop runs with `execute`. Its input is not checked against a schema: the provider's
 * kind fixes its shape.
 */
export interface KindToolDefinition<Input = unknown, Result = unknown> {
  kind: string;
  /**
   * The provider tool that declares it: its unified name (default: the kind) and its own fields
   * (a Responses custom tool's `name`, `description` and `format`; a computer's display size).
   */
  provider?: { name?: string; options?: Record<string, unknown> };
  returns?: ReturnBehaviour;
  execute(input: Input, ctx: ToolContext): Result | Promise<Result>;
}

/** A tool the model calls with a call of this kind (Responses shell, apply_patch…), typed by the kind. */
export function defineTool<const K extends keyof ToolKinds>(tool: {
  kind: K;
  provider?: { name?: string; options?: Record<string, unknown> };
  returns?: ReturnBehaviour;
  execute(input: ToolKinds[K]['input'], ctx: ToolContext): ToolKinds[K]['output'] | Promise<ToolKinds[K]['output']>;
}): KindToolDefinition<ToolKinds[K]['input'], ToolKinds[K]['output']>;
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
export function defineTool(tool: ToolDefinition<never, unknown> | KindToolDefinition<never, unknown>): ToolDefinition<never, unknown> | KindToolDefinition<never, unknown> {
  return tool;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ToolSet = Record<string, ToolDefinition<any, unknown> | KindToolDefinition<any, unknown>>;

/** A tool of a client-run kind, not a function. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function isKindTool(t: ToolSet[string]): t is KindToolDefinition<any, unknown> {
  return typeof (t as { kind?: unknown }).kind === 'string';
}
