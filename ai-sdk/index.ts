/**
 * `wireforge/ai-sdk`: every spec, built-in or your own, as an AI SDK (`ai` 7) language model.
 * docs/ai-sdk.md. Needs `@ai-sdk/provider` (a peer dependency the rest of wireforge does not use).
 */
export { languageModel, type LanguageModelOptions } from './language-model.js';
export { createWireforgeProvider, type SpecClientOptions, type WireforgeProvider, type WireforgeProviderSettings } from './provider.js';
export { providerTool, type WireforgeProviderTool } from './provider-tool.js';
export type { SpecModule, SpecSource } from './resolve-adapter.js';
