/** The TypeScript type a JSON Schema written `as const` describes (runtime/contract/schema.ts). */
export type { FromSchema } from '../contract/schema.js';
