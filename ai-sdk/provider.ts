/**
 * `createWireforgeProvider`: every spec behind one AI SDK provider (`wf('gemini/gemini-2.5-pro')`),
 * usable in `createProviderRegistry`. A model id is the spec id, `/`, and the model (which may hold
 * more slashes); each spec's client options come from `clients`.
 */
import { NoSuchModelError, type LanguageModelV4, type ProviderV4 } from '@ai-sdk/provider';
import type { ClientOptions } from '../runtime/contract/unified-model.js';
import { languageModel } from './language-model.js';
import { isBuiltIn, type SpecModule } from './resolve-adapter.js';

export interface SpecClientOptions extends Omit<ClientOptions, 'telemetry'> {
  /** The generated module of a spec of your own (`import * as acme from './generated/acme.js'`). */
  module?: SpecModule;
}

export interface WireforgeProviderSettings {
  /** Client options by spec id; a built-in id works without an entry (its key from the environment). */
  clients?: Record<string, SpecClientOptions>;
}

export interface WireforgeProvider extends ProviderV4 {
  (modelId: string): LanguageModelV4;
  languageModel(modelId: string): LanguageModelV4;
}

export function createWireforgeProvider(settings: WireforgeProviderSettings = {}): WireforgeProvider {
  const clients = settings.clients ?? {};
  const model = (modelId: string): LanguageModelV4 => {
    const slash = modelId.indexOf('/');
    const specId = slash < 0 ? '' : modelId.slice(0, slash);
    const name = modelId.slice(slash + 1);
    const own = Object.prototype.hasOwnProperty.call(clients, specId) ? clients[specId] : undefined;
    if (slash <= 0 || name === '' || (!own?.module && !isBuiltIn(specId))) {
      throw new NoSuchModelError({ modelId, modelType: 'languageModel', message: `no model "${modelId}": ids are "<spec id>/<model>" with a built-in spec id or one given in clients with its module` });
    }
    const { module, ...options } = own ?? {};
    return languageModel(module ?? specId, { ...options, model: name });
  };
  const none = (modelType: 'embeddingModel' | 'imageModel') => (modelId: string): never => {
    throw new NoSuchModelError({ modelId, modelType, message: `wireforge specs are language models; "${modelId}" is asked for as an ${modelType}` });
  };
  return Object.assign(model, {
    specificationVersion: 'v4' as const,
    languageModel: model,
    embeddingModel: none('embeddingModel'),
    imageModel: none('imageModel'),
  });
}
