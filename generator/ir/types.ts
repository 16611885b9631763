/** The intermediate representation: one normalised, defaults-filled object per spec. */
import type { WirePath } from './paths.js';
import type { TemplateNode } from './templates.js';
import type { ParamField, Profile, Test } from '../../runtime/contract/profile.js';
import type { SpecDocument } from '../load/spec-document.js';
import type { SharedMap } from '../load/parse-spec.js';

export type { SharedMap };
import type { ModelListShape, ServeStep } from '../../runtime/contract/serve-codec.js';

/** A `when:` entry of a reader rule: a payload path and a test of the shared vocabulary. */
export interface Condition {
  path: WirePath;
  test: Test;
}

export type Action =
  | { kind: 'meta'; id: WirePath[]; model: WirePath[] }
  | { kind: 'text'; paths: WirePath[]; start: boolean; citations?: WirePath; signature?: WirePath; phase?: WirePath; id?: WirePath }
  | {
      kind: 'part';
      /** The kind: fixed, or read from the object. */
      name?: string;
      kindAt?: WirePath;
      /** The wire object; undefined: the element or payload itself. */
      at?: WirePath;
      open?: WirePath;
      delta?: WirePath;
    }
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
      /** The whole wire item, kept on the history copy of the call to go back verbatim. */
      wire?: WirePath;
      continues?: WirePath;
      pieces?: ArgumentPiecesIR;
    }
  | { kind: 'finish'; paths: WirePath[] }
  | { kind: 'usage'; paths: WirePath[]; merge: boolean }
  | { kind: 'error'; at?: WirePath; message: WirePath[]; type: WirePath[]; code: WirePath[] }
  | { kind: 'end' };

/** Arguments as JSON-path pieces (Vertex AI `partialArgs`): paths from the element of `each`. */
export interface ArgumentPiecesIR {
  each: WirePath;
  path: WirePath;
  continues?: WirePath;
  string?: WirePath;
  number?: WirePath;
  boolean?: WirePath;
  null?: WirePath;
}

export interface Rule {
  name: string;
  pointer: string;
  /** `before:` named a rule the map does not have (reported; the rule stays where it is). */
  beforeMissing?: string;
  when: Condition[];
  each?: WirePath;
  body:
    | { kind: 'action'; action: Action }
    | { kind: 'switch'; on: WirePath; cases: Array<{ value: string; rules: Rule[] }> }
    | { kind: 'group'; rules: Rule[] };
}

/** The compiled half of a spec: templates that write the wire, keyed as the codec is. */
export interface TemplatesIR {
  roles: Partial<Record<RoleKey, TemplateNode>>;
  parts: Partial<Record<PartKey, TemplateNode>>;
  blocks: Partial<Record<BlockKey, TemplateNode>>;
  system?: TemplateNode;
  tools?: { item: TemplateNode; wrap?: TemplateNode };
  toolChoice: Partial<Record<ToolChoiceKey, TemplateNode>>;
  responseFormat: Partial<Record<FormatKey, TemplateNode>>;
  params: Partial<Record<ParamField, TemplateNode>>;
  /**
   * `when: { tools: { exists } }` on the tool-choice forms and on params: compiled into the codec
   * (true: sent only with tools declared; false: only without), so no condition is read at run time.
   */
  toolsWhen: { toolChoice?: boolean; params: Partial<Record<ParamField, boolean>> };
}

export const ROLE_KEYS = ['system', 'user', 'assistant', 'tool', 'toolError', 'approval'] as const;
export const PART_KEYS = ['text', 'imageUrl', 'imageData'] as const;
export const BLOCK_KEYS = ['thinking', 'summaryThinking', 'redactedThinking', 'text', 'toolCall'] as const;
export const TOOL_CHOICE_KEYS = ['auto', 'none', 'required', 'named', 'unset'] as const;
export const FORMAT_KEYS = ['text', 'json', 'jsonSchema'] as const;
export type RoleKey = (typeof ROLE_KEYS)[number];
export type PartKey = (typeof PART_KEYS)[number];
export type BlockKey = (typeof BLOCK_KEYS)[number];
export type ToolChoiceKey = (typeof TOOL_CHOICE_KEYS)[number];
export type FormatKey = (typeof FORMAT_KEYS)[number];

/** The serve section: templates over the serve slots; each stream step writes a list of events. */
export interface ServeIR {
  response?: TemplateNode;
  envelope?: TemplateNode;
  /** What a step written as `{ $chunk: <part> }` places its part in (`$body`). */
  chunk?: TemplateNode;
  stream: Partial<Record<ServeStep, TemplateNode[]>>;
  /** `$finish.<name>` values per unified finish reason: JSON (an error object, incomplete details). */
  finish: Record<string, Record<string, unknown>>;
  error?: TemplateNode;
  errorTypes?: Record<string, string>;
  /** Read by the server side as data (JSON templates), not compiled. */
  accept?: Record<string, unknown>;
  itemId?: string;
  /** Read by the mock as data (runtime/serve/request-rules.ts). */
  requestRules?: unknown[];
  /** Fields a response writes that a request leaves out, by the `type` of the object (data). */
  fill?: Record<string, Record<string, unknown>>;
  streamWithoutQuery?: 'json-array';
  models?: ModelListShape;
}

/**
 * One spec after extends: its profile (data the runtime applies, in the runtime's own types),
 * its templates and its reader rules. Nothing here is TypeScript source; emit/ builds that.
 */
export interface SpecIR {
  id: string;
  /** Spec files this was built from: the spec first, then its bases. */
  files: string[];
  /** The id of the spec this one extends directly, if any. */
  base?: string;
  /** The resolved document this was built from, typed (for rules about what the author wrote). */
  doc: SpecDocument;
  /** The named maps the spec's own file merges in (`<<: *name`), by the pointer of the map that merges them. */
  merges?: ReadonlyMap<string, SharedMap[]>;
  profile: Profile;
  templates: TemplatesIR;
  /** What each piece of continuity state is on the wire, for the generated docs. */
  continuityState: Array<{ field: string; wire: string; echo?: string }>;
  /** Where each body write comes from, for the write-conflict check. */
  writes: Array<{ path: WirePath; pointer: string; merge: boolean }>;
  response: Rule[];
  /** How the wire is served (absent: the spec has no serve section). */
  serve?: ServeIR;
  stream: {
    eventKey?: WirePath;
    ignore: string[];
    all: Rule[];
    events: Array<{ name: string; rules: Rule[] }>;
  };
  /** The wire shapes the readers read (from every path of their rules), built with the IR: the checks and the emitter read them. */
  wire: WireTypes;
}

/** The wire shapes a spec reads (ir/wire-types.ts builds them from every path its rules use). */
export type Leaf = 'string' | 'number' | 'boolean' | 'unknown' | 'usage';

export type TypeNode =
  | { kind: 'object'; props: Map<string, TypeNode>; firstPointer: string }
  /** `orString`: the field is text or a list of chunks (Mistral `content`), read both ways. */
  | { kind: 'array'; element: TypeNode; firstPointer: string; orString?: true }
  | { kind: 'leaf'; leaf: Leaf; firstPointer: string };

export interface PathConflict {
  pointer: string;
  message: string;
}

export interface WireTypes {
  response: TypeNode;
  event: TypeNode;
  usage: TypeNode;
  conflicts: PathConflict[];
}
