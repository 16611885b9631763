/** The intermediate representation: one normalised, defaults-filled object per spec. */
import type { WirePath } from './paths.js';
import type { TemplateNode } from './templates.js';
import type { ParamField } from './slots.js';

export type Condition =
  | { path: WirePath; op: 'eq'; value: string | number | boolean | null }
  | { path: WirePath; op: 'ne'; value: string | number | boolean | null }
  | { path: WirePath; op: 'in'; values: Array<string | number | boolean | null> }
  | { path: WirePath; op: 'exists'; exists: boolean };

export type Action =
  | { kind: 'meta'; id: WirePath[]; model: WirePath[] }
  | { kind: 'text'; paths: WirePath[] }
  | { kind: 'refusal'; paths: WirePath[] }
  | {
      kind: 'thinking';
      start: boolean;
      break?: string;
      index?: WirePath;
      text: WirePath[];
      summary?: WirePath;
      signature?: WirePath;
      redacted?: WirePath;
      id?: WirePath;
      format?: WirePath;
    }
  | {
      kind: 'toolCall';
      start: boolean;
      complete: boolean;
      end: boolean;
      index?: WirePath;
      id?: WirePath;
      name?: WirePath;
      arguments?: WirePath;
      argumentsFull?: WirePath;
      argumentsObject?: WirePath;
      signature?: WirePath;
    }
  | { kind: 'finish'; paths: WirePath[] }
  | { kind: 'usage'; paths: WirePath[]; merge: boolean }
  | { kind: 'error'; at?: WirePath; message: WirePath[]; type: WirePath[]; code: WirePath[] }
  | { kind: 'end' };

export interface Rule {
  name: string;
  pointer: string;
  when: Condition[];
  each?: WirePath;
  body:
    | { kind: 'action'; action: Action }
    | { kind: 'switch'; on: WirePath; cases: Array<{ value: string; rules: Rule[] }> }
    | { kind: 'group'; rules: Rule[] };
}

export type Param =
  | { field: ParamField; kind: 'map'; to: WirePath; default?: unknown; defaultAdds?: ParamField; droppedWhen?: ParamField; values?: Record<string, unknown>; template?: TemplateNode }
  | { field: ParamField; kind: 'drop'; reason: string }
  | { field: ParamField; kind: 'reject'; reason: string }
  | { field: ParamField; kind: 'via'; via: 'toolChoice' };

/** undefined: unsupported (warn); 'nothing': send nothing, say nothing. */
export type Variant = TemplateNode | undefined;

export interface ContinuityIR {
  scope: 'provider' | 'model';
  foreignThinking: 'drop' | 'text';
  state: Array<{ field: string; wire: string; echo?: string }>;
  rules: Array<{
    when: { store?: boolean; model?: string; notModel?: string; reasoning?: boolean; toolTurnWithoutThinking?: boolean };
    require: string[];
    omit: string[];
    ensure: string[];
    dropFields: string[];
    body?: Record<string, unknown>;
    note?: string;
  }>;
}

export interface SpecIR {
  id: string;
  name: string;
  /** Spec files this was built from: the spec first, then its bases. */
  files: string[];
  endpoint: {
    baseUrl?: string;
    baseUrlRequired: boolean;
    path: string;
    streamPath?: string;
    streamQuery: Record<string, string>;
    authHeader: string;
    authScheme?: string;
    apiKeyEnv?: string;
    apiKeyOptional: boolean;
    headers: Record<string, string>;
  };
  request: {
    model: { to?: WirePath; inPath: boolean };
    system: { placement: 'message' | 'field'; to?: WirePath; join: string; template?: TemplateNode };
    messages: {
      to: WirePath;
      mergeKey?: string;
      roles: Partial<Record<'system' | 'user' | 'assistant' | 'tool' | 'toolError', TemplateNode>>;
      parts: Partial<Record<'text' | 'imageUrl' | 'imageData', TemplateNode>>;
      blocks: Partial<Record<'thinking' | 'summaryThinking' | 'redactedThinking' | 'text' | 'toolCall', TemplateNode>>;
    };
    tools?: { to: WirePath; item: TemplateNode; wrap?: TemplateNode };
    toolChoice?: { to: WirePath; auto: Variant; none: Variant; required: Variant; named: Variant; whenUnset?: 'auto' | 'none' | 'required' };
    /** `to`: the form is one field; `into`: its fields merge into an object other params also write. */
    responseFormat?: { to: WirePath; into: boolean; text: Variant; json: Variant; jsonSchema: Variant };
    params: Param[];
    streamBody: Record<string, unknown>;
    blockingBody: Record<string, unknown>;
  };
  response: Rule[];
  stream: {
    framing: 'sse' | 'ndjson';
    eventKey?: WirePath;
    doneSentinel?: string;
    endsOnClose: boolean;
    ignore: string[];
    all: Rule[];
    events: Array<{ name: string; rules: Rule[] }>;
  };
  finish: {
    map: Array<[string, string]>;
    other: string;
    upgrades: Array<{ from: string; when: 'toolCalls' | 'refusal'; to: string }>;
  };
  usage: {
    inputTokens: WirePath[];
    outputTokens: WirePath[];
    totalTokens: WirePath[];
    cachedInputTokens: WirePath[];
    cacheWriteTokens: WirePath[];
    reasoningTokens: WirePath[];
  };
  continuity: ContinuityIR;
  errors: {
    message: WirePath[];
    type: WirePath[];
    code: WirePath[];
    requestIdHeader?: string;
    retryable: Array<number | [number, number]>;
  };
}
