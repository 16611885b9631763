/** Collects what a request could not carry, for ChatResponse.warnings. */
import { RequestError } from '../errors.js';
import type { RequestWarnings } from '../contract/request.js';
import type { Warning } from '../contract/unified-model.js';

export class Warnings implements RequestWarnings {
  readonly list: Warning[] = [];
  declare readonly provider: string;
  /** The wire's name, as warnings say it (`OpenAI Chat Completions has no …`). */
  declare readonly wire: string;
  constructor(provider: string, wire: string) {
    this.provider = provider;
    this.wire = wire;
  }

  /** Record a field that is set but not sent; returns undefined so callers can `return w.drop(…)`. */
  drop(field: string, message: string): undefined {
    this.list.push({ type: 'dropped', field, message });
    return undefined;
  }

  /** A field the wire has no place for: `<wire> has no <what>` (one phrase for all of them). */
  lacks(field: string, what: string): undefined {
    return this.drop(field, `${this.wire} has no ${what}`);
  }

  overridden(field: string, message: string): void {
    this.list.push({ type: 'overridden', field, message });
  }

  reject(field: string, message: string): never {
    throw new RequestError(this.provider, field, message);
  }
}
