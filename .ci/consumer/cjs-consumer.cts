// A CommonJS TypeScript file: `require` of the ESM package, typed (module nodenext, TypeScript >= 5.8).
import { createClient, RequestError, type ChatResponse } from 'wireforge';

export const client = createClient('openai-chat', { apiKey: 'sk-test-0000', model: 'm' });
export const isRequestError = (e: unknown): e is RequestError => e instanceof RequestError;
export type Answer = ChatResponse['text'];
