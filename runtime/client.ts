/** createClient by spec id, through the registry the generator emits. */
import { adapters, type ProviderId } from '../generated/index.js';
import { RequestError } from './errors.js';
import { createClientFor, type Client } from './client/create-client.js';
import type { ClientOptions } from './types.js';

export function createClient(id: ProviderId, options: ClientOptions = {}): Client {
  const adapter = (adapters as Record<string, (typeof adapters)[ProviderId]>)[id];
  if (!adapter || !Object.prototype.hasOwnProperty.call(adapters, id)) {
    throw new RequestError(String(id), 'id', `unknown provider spec ${JSON.stringify(id)}; known: ${Object.keys(adapters).join(', ')}`);
  }
  return createClientFor(adapter, options);
}

export { adapters, type ProviderId };
