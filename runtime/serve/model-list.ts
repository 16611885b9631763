/**
 * The gateway's model list, in the shape each wire's clients read (`models.list()` of the
 * OpenAI, Anthropic and Gemini SDKs): a table of paths and bodies, one per shape.
 * docs/serving.md#model-lists.
 */
import type { ModelListShape } from './gateway-config.js';

interface ModelList {
  /** The paths clients send it to: OpenAI's SDKs put `/v1` in the base URL, or not. */
  paths: readonly string[];
  body(names: readonly string[]): unknown;
}

export const MODEL_LISTS: Readonly<Record<ModelListShape, ModelList>> = {
  openai: {
    paths: ['/v1/models', '/models'],
    body: (names) => ({ object: 'list', data: names.map((id) => ({ id, object: 'model', created: 0, owned_by: 'wireforge' })) }),
  },
  anthropic: {
    paths: ['/v1/models'],
    body: (names) => ({
      data: names.map((id) => ({ type: 'model', id, display_name: id, created_at: '1970-01-01T00:00:00Z' })),
      has_more: false,
      first_id: names[0] ?? null,
      last_id: names.at(-1) ?? null,
    }),
  },
  gemini: {
    paths: ['/v1beta/models', '/v1/models'],
    body: (names) => ({ models: names.map((n) => ({ name: `models/${n}`, displayName: n, supportedGenerationMethods: ['generateContent', 'streamGenerateContent'] })) }),
  },
};

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
