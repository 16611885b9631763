/** Endpoint options: where each value comes from, defaults in any order, what is required when. */
import { describe, expect, it } from 'vitest';
import { resolveEndpointOptions } from '../../runtime/client/endpoint-options.js';
import { RequestError, type ProviderAdapter } from '../../runtime/index.js';
import { makeRedactor } from '../../runtime/transport/redact.js';

const adapter = (options: Record<string, { env?: string[]; default?: string }>, baseUrl = 'https://{host}/v1/{project}') =>
  ({ id: 'spec', endpoint: { baseUrl, path: '/m/{model}', streamQuery: {}, options } }) as unknown as ProviderAdapter;

describe('endpoint options', () => {
  it('a default may use an option declared after it; the client beats the env, the env beats the default', () => {
    const a = adapter({ host: { default: '{location}-api.example' }, project: { env: ['P'] }, location: { env: ['L'], default: 'eu1' } });
    expect(resolveEndpointOptions(a, { project: 'p1' }, { P: 'p-env' }, undefined, false)).toEqual({ project: 'p1', location: 'eu1', host: 'eu1-api.example' });
    expect(resolveEndpointOptions(a, undefined, { P: 'p-env', L: 'us2' }, undefined, false)).toEqual({ project: 'p-env', location: 'us2', host: 'us2-api.example' });
  });

  it("a default by another option's value (Vertex's global and multi-region hosts), else the plain default", () => {
    const a = adapter({ host: { default: '{location}-api.example', cases: { on: 'location', values: { global: 'api.example', eu: 'api.eu.rep.example' } } } as never, project: { default: 'p' }, location: { default: 'us1' } });
    expect(resolveEndpointOptions(a, { location: 'global' }, {}, undefined, false).host).toBe('api.example');
    expect(resolveEndpointOptions(a, { location: 'eu' }, {}, undefined, false).host).toBe('api.eu.rep.example');
    expect(resolveEndpointOptions(a, undefined, {}, undefined, false).host).toBe('us1-api.example');
  });

  it('defaults that refer to each other are an error naming them', () => {
    const a = adapter({ host: { default: '{zone}.example' }, zone: { default: '{host}-z' }, project: { default: 'p' } });
    expect(() => resolveEndpointOptions(a, undefined, {}, undefined, false)).toThrow(/the defaults of host, zone refer to each other/);
  });

  it('only what the URL in use needs is required: a baseUrl of the caller needs no project', () => {
    const a = adapter({ project: { env: ['P'] }, host: { default: 'h' } });
    const e = (() => {
      try {
        resolveEndpointOptions(a, undefined, {}, undefined, false);
      } catch (x) {
        return x as RequestError;
      }
    })();
    expect(e).toBeInstanceOf(RequestError);
    expect(e!.field).toBe('endpoint.project');
    expect(e!.message).toContain('or set P');
    expect(resolveEndpointOptions(a, undefined, {}, 'http://127.0.0.1:9/proxy', false)).toEqual({ host: 'h' });
  });

  it('an unknown option or an empty value is refused', () => {
    const a = adapter({ project: { default: 'p' }, host: { default: 'h' } });
    expect(() => resolveEndpointOptions(a, { region: 'x' }, {}, undefined, false)).toThrow(/has no endpoint option "region"; it has project, host/);
    expect(() => resolveEndpointOptions(a, { project: '' }, {}, undefined, false)).toThrow(/must be a non-empty string/);
  });
});

describe('the redactor', () => {
  it('keeps keys and secrets for good, and only the last few tokens fetched per request', () => {
    const r = makeRedactor('sk-permanent-key-0123');
    r.add!('aws/secret/0123456789');
    for (let i = 0; i < 9; i++) r.add!(`ya29.token-number-${i}-xyz`, true);
    const text = r('sk-permanent-key-0123 aws/secret/0123456789 ya29.token-number-0-xyz ya29.token-number-8-xyz');
    expect(text).toBe('[redacted] [redacted] ya29.token-number-0-xyz [redacted]');
  });
});
