/**
 * A provider-executed tool for the AI SDK's `tools`: the unified provider tool `name` (a spec's
 * `tools.provider` table says what each wire sends for it), as the AI SDK's provider tool
 * `{ type: 'provider', id: 'wireforge.<name>', args }`. The provider runs it; its call and result
 * come back as content with `providerExecuted: true`.
 */
import { KEY } from './part-metadata.js';

/** Accepts any input: the provider, not the AI SDK, checks what its own tool was given. */
const anyInput = { '~standard': { version: 1, vendor: KEY, validate: (value: unknown) => ({ value }) } } as const;

export interface WireforgeProviderTool {
  type: 'provider';
  id: `${typeof KEY}.${string}`;
  args: Record<string, unknown>;
  isProviderExecuted: true;
  inputSchema: typeof anyInput;
}

export function providerTool(name: string, args: Record<string, unknown> = {}): WireforgeProviderTool {
  return { type: 'provider', id: `${KEY}.${name}`, args, isProviderExecuted: true, inputSchema: anyInput };
}
