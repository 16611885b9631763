/** Prettier over every emitted file, with fixed options so output never depends on the machine. */
import { format } from 'prettier';

const OPTIONS = { parser: 'typescript', singleQuote: true, printWidth: 110, trailingComma: 'all', semi: true } as const;

export function formatCode(text: string): Promise<string> {
  return format(text, OPTIONS);
}
