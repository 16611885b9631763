/**
 * The gateway's model list, in the shape each wire's clients read (`models.list()` of the
 * OpenAI, Anthropic and Gemini SDKs, `list()` of Ollama's): a table of paths and bodies, one per
 * shape; a spec names its shape in `serve.models`. docs/serving.md#model-lists.
 */
import type { ModelListShape } from '../contract/serve-codec.js';

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
  // Ollama's `GET /api/tags`: local models with their file facts, which a gateway has none of (zeros and empty strings, as the types ask).
  ollama: {
    paths: ['/api/tags'],
    entry: (id) => ({ name: id, model: id, modified_at: '1970-01-01T00:00:00Z', size: 0, digest: '', details: { parent_model: '', format: '', family: '', families: null, parameter_size: '', quantization_level: '' } }),
    body: (models) => ({ models }),
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
