/**
 * The gateway between every pair of the four main protocols: the official SDK of the listen
 * protocol talks to a gateway in front of the upstream protocol's mock, over 127.0.0.1. Text,
 * a stream through the SDK's own helper, a tool round and an error, for each pair.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, startGateway, type MockServer } from '../../node/index.js';
import type { Listening } from '../../node/listen.js';
import { ANSWER, DRIVERS, GREETING, MAIN_PROTOCOLS, SDK_KEY, script } from '../helpers/sdk-drivers.js';

const pairs = MAIN_PROTOCOLS.flatMap((listen) => MAIN_PROTOCOLS.map((upstream) => [listen, upstream] as const));

describe.each(pairs)('%s caller → gateway → %s', (listen, upstream) => {
  let mock: MockServer;
  let gateway: Listening;
  beforeAll(async () => {
    mock = await createMockServer({ provider: upstream, apiKey: 'upstream-key-0001', script: script() });
    gateway = await startGateway({ listen, upstream, clientToken: SDK_KEY, client: { apiKey: 'upstream-key-0001', baseUrl: mock.url, maxRetries: 0 } });
  });
  afterAll(async () => {
    await gateway.close();
    await mock.close();
  });
  const driver = DRIVERS[listen];

  it('text', async () => {
    const seen = await driver.text(gateway.url);
    expect(seen.text).toBe(GREETING);
    expect(seen.usage).toEqual({ input: 12, output: 8 });
  });

  it('stream', async () => {
    const seen = await driver.stream(gateway.url);
    expect(seen.text).toBe(GREETING);
    expect(seen.deltas).toBeGreaterThan(1);
  });

  it('tools', async () => {
    const round = await driver.tools(gateway.url);
    expect(round.call).toEqual({ name: 'get_weather', args: { city: 'Paris' } });
    expect(round.answer).toBe(ANSWER);
    const last = mock.requests.at(-1)!.request!;
    expect(last.messages.at(-1)).toMatchObject({ role: 'tool', toolCallId: 'call_w1', content: '18C' });
  });

  it('error', async () => {
    const seen = await driver.error(gateway.url);
    expect(seen.status).toBe(429);
    expect(seen.typed).toBe(true);
    expect(seen.message).toContain('slow down');
  });
});
