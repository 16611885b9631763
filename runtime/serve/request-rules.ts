/**
 * The checks a provider makes on the items of a request before it answers, as its spec lists them
 * (`serve.requestRules`; docs/serving.md#request-rules): an item that needs the one that followed
 * it (Responses reasoning, followed by the message or call it produced, named by its id), a call
 * that needs its answer (a shell call its shell_call_output). The mock answers a request that
 * breaks one with a 400 in the provider's shape, as the provider would.
 */
import type { RequestRule } from '../contract/serve-codec.js';
import { isObject } from '../wire/read-path.js';

/** The first rule the items break, as the provider's message; undefined when they keep every rule. */
export function brokenRule(rules: readonly RequestRule[] | undefined, items: unknown): string | undefined {
  if (!rules?.length || !Array.isArray(items)) return undefined;
  for (const rule of rules) {
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      if (!isObject(item) || item.type !== rule.item) continue;
      if (rule.followedBy) {
        const next = items[i + 1];
        const has = isObject(next) ? next[rule.followedBy.has] : undefined;
        if (typeof has !== 'string' || has === '') return message(rule.error, item);
      }
      if (rule.answeredBy) {
        const key = item[rule.key ?? 'call_id'];
        const answerKey = rule.answerKey ?? rule.key ?? 'call_id';
        const answered = items.some((x, j) => j > i && isObject(x) && x.type === rule.answeredBy && x[answerKey] === key);
        if (!answered) return message(rule.error, item);
      }
    }
  }
  return undefined;
}

/** `{field}` in the message is that field of the item. */
function message(template: string, item: Record<string, unknown>): string {
  return template.replace(/\{([A-Za-z_]+)\}/g, (_m, k: string) => String(item[k] ?? ''));
}
