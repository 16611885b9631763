/** Writing wire paths: objects made on the way, objects merged, and never a prototype reached. */
import { describe, expect, it } from 'vitest';
import { setPath } from '../../runtime/request/set-path.js';

describe('setPath', () => {
  it('makes the objects on the way and merges an object into one already there', () => {
    const body: Record<string, unknown> = {};
    setPath(body, ['generationConfig', 'maxOutputTokens'], 5);
    setPath(body, ['generationConfig'], { responseMimeType: 'application/json' });
    setPath(body, ['model'], 'm');
    expect(body).toEqual({ generationConfig: { maxOutputTokens: 5, responseMimeType: 'application/json' }, model: 'm' });
  });

  it('writes nothing for an unset value', () => {
    const body: Record<string, unknown> = {};
    setPath(body, ['a', 'b'], undefined);
    expect(body).toEqual({});
  });

  it.each([[['__proto__', 'polluted']], [['constructor', 'prototype', 'polluted']], [['x', '__proto__']]])('refuses %j', (path) => {
    const body: Record<string, unknown> = {};
    setPath(body, path, 'yes');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
    expect(JSON.stringify(body)).not.toContain('yes');
  });
});
