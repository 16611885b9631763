/**
 * The unified request fields a spec gives a disposition, and how one is read from or written to a
 * request (`reasoning.effort` is `effort` inside `reasoning`). The contract's one file with code:
 * pure data and functions over the unified model, importing nothing outside the contract, kept
 * here because the `ParamField` type the profile is written in is derived from the table.
 */
import type { ChatRequest } from './unified-model.js';

/** The unified request fields every spec gives a disposition (mapped, dropped or rejected). */
export const PARAM_FIELDS = [
  'maxTokens',
  'temperature',
  'topP',
  'stop',
  'parallelToolCalls',
  'reasoning.effort',
  'reasoning.budgetTokens',
  'reasoning.summary',
  'user',
  'store',
  'previousResponseId',
  'metadata',
] as const;

export type ParamField = (typeof PARAM_FIELDS)[number];

/** The reader of a unified param field, made once per field. */
export const paramReader = (field: string): ((r: ChatRequest) => unknown) => {
  const [top, inner] = field.split('.') as [string, string | undefined];
  type Fields = Record<string, Record<string, unknown> | undefined>;
  return inner === undefined ? (r) => (r as unknown as Fields)[top] : (r) => (r as unknown as Fields)[top]?.[inner];
};

/** A param field's value in a request; any other name is read as a top-level field. */
export const readParam = (req: ChatRequest, field: string): unknown => {
  return (PARAM_FIELDS as readonly string[]).includes(field) ? paramReader(field)(req) : (req as unknown as Record<string, unknown>)[field];
};

/** Sets a param field in a request, keeping what else its object holds (`reasoning`). */
export const writeParam = (req: ChatRequest, field: ParamField, v: unknown): void => {
  const [top, inner] = field.split('.') as [string, string | undefined];
  const o = req as unknown as Record<string, unknown>;
  if (inner === undefined) o[top] = v;
  else o[top] = { ...(o[top] as object | undefined), [inner]: v };
};
