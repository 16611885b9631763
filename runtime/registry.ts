/**
 * A set of adapters by id, with `createClient(id)` typed over those ids. The generator emits
 * one for the built-in specs (and one for a user's own specs beside them); the runtime never
 * imports generated code. Its clients read typed structured output (runtime/structured), which
 * the core `createClientFor` leaves out of its bundle, and, opt-in, OpenTelemetry spans
 * (runtime/telemetry).
 */
import type { ProviderAdapter } from './contract/adapter.js';
import { RequestError } from './errors.js';
import type { ClientOptions } from './contract/unified-model.js';
import { createClientFor, type Client } from './client/create-client.js';
import { withStructuredOutput } from './structured/structured-client.js';
import { withTelemetry } from './telemetry/traced-client.js';

export interface Registry<Id extends string> {
  readonly adapters: Readonly<Record<Id, ProviderAdapter>>;
  createClient(id: Id, options?: ClientOptions): Client;
}

export function createRegistry<const A extends Record<string, ProviderAdapter>>(adapters: A): Registry<keyof A & string> {
  return {
    adapters,
    createClient(id, options = {}) {
      if (!Object.prototype.hasOwnProperty.call(adapters, id)) {
        throw new RequestError(String(id), 'id', `unknown provider spec ${JSON.stringify(id)}; known: ${Object.keys(adapters).join(', ')}`);
      }
      const adapter = adapters[id]!;
      // Telemetry is the registry's layer, never the core's: createClientFor refuses keys it does not know.
      const { telemetry, ...core } = options;
      const client = withStructuredOutput(createClientFor(adapter, core), adapter);
      return telemetry ? withTelemetry(client, adapter, telemetry, core.defaults?.model ?? core.model) : client;
    },
  };
}
