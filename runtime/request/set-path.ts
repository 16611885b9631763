/**
 * Writes a value at a wire path, making the objects on the way. Where an object is already
 * there and the value is an object too, their fields merge (a response-format form and the
 * params that share `generationConfig`); the generator has checked that no two writes collide.
 */
import type { WirePath } from '../contract/profile.js';
import { isObject } from '../wire/read-path.js';
import { FORBIDDEN_KEYS } from './safe-merge.js';

export const setPath = (target: Record<string, unknown>, path: WirePath, value: unknown): void => {
  // Nothing to write makes no objects on the way.
  if (value === undefined) return;
  // The generator refuses such paths; this keeps a hand-written profile from reaching a prototype.
  for (let i = 0; i < path.length; i++) if (FORBIDDEN_KEYS.has(path[i] as string)) return;
  let node = target;
  const last = path.length - 1;
  for (let i = 0; i < last; i++) {
    const k = path[i] as string;
    let next = node[k];
    if (typeof next !== 'object' || next === null) node[k] = next = {};
    node = next as Record<string, unknown>;
  }
  const k = path[last] as string;
  const existing = node[k];
  if (isObject(existing) && isObject(value)) Object.assign(existing, value);
  else node[k] = value;
};
