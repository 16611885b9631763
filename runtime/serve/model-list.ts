/**
 * The gateway's model list, in the shape each wire's clients read (`models.list()` of the
 * OpenAI, Anthropic and Gemini SDKs): a table of paths and bodies, one per shape.
 * docs/serving.md#model-lists.
 */
import type { ModelListShape } from './gateway-config.js';

interface ModelList {
  /** The paths clients send it to: OpenAI's SDKs put `/v1` in the base URL, or not. One model is `<path>/<id>`. */
  paths: readonly string[];
  /** One model as the list holds it, and as `GET <path>/<id>` answers it. */
  entry(id: string): unknown;
  body(entries: readonly unknown[], names: readonly string[]): unknown;
  /** A `:` after the id starts a method (Gemini's `models/<id>:generateContent`), not part of the id. */
  methodAfterColon?: true;
}

export const MODEL_LISTS: Readonly<Record<ModelListShape, ModelList>> = {
  openai: {
    paths: ['/v1/models', '/models'],
    entry: (id) => ({ id, object: 'model', created: 0, owned_by: 'wireforge' }),
    body: (data) => ({ object: 'list', data }),
  },
  anthropic: {
    paths: ['/v1/models'],
    entry: (id) => ({ type: 'model', id, display_name: id, created_at: '1970-01-01T00:00:00Z' }),
    body: (data, names) => ({ data, has_more: false, first_id: names[0] ?? null, last_id: names.at(-1) ?? null }),
  },
  gemini: {
    paths: ['/v1beta/models', '/v1/models'],
    entry: (n) => ({ name: `models/${n}`, displayName: n, supportedGenerationMethods: ['generateContent', 'streamGenerateContent'] }),
    body: (models) => ({ models }),
    methodAfterColon: true,
  },
};

/** What a GET path asks of a model list: the whole list, one model by id (percent-decoded: ids may hold `/`), or nothing. */
export function modelListAsk(list: ModelList, path: string): { all: true } | { one: string } | undefined {
  if (list.paths.includes(path)) return { all: true };
  const under = list.paths.find((p) => path.startsWith(`${p}/`) && path.length > p.length + 1);
  if (!under) return undefined;
  const raw = path.slice(under.length + 1);
  // Gemini's `models/<id>:generateContent` is a call, not a model; elsewhere ids hold `:` (`ft:gpt-4o:…`, `llama3:8b`).
  if (list.methodAfterColon && raw.includes(':')) return undefined;
  try {
    return { one: decodeURIComponent(raw) };
  } catch {
    // A malformed escape names no model: the 404 says which id it was.
    return { one: raw };
  }
}

/** The shape a listen spec's clients read, by spec id; the rest speak OpenAI's (the compatible wires). */
const SHAPE_BY_SPEC: Readonly<Record<string, ModelListShape>> = {
  'anthropic-messages': 'anthropic',
  'vertex-anthropic': 'anthropic',
  'bedrock-anthropic': 'anthropic',
  gemini: 'gemini',
  'vertex-gemini': 'gemini',
};

export function modelListShape(specId: string): ModelListShape {
  return (Object.hasOwn(SHAPE_BY_SPEC, specId) ? SHAPE_BY_SPEC[specId] : undefined) ?? 'openai';
}
