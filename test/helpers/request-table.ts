/** Shared shape of the table-driven request-mapping tests: a case, its check, common inputs. */
import { expect } from 'vitest';
import type { ProviderAdapter } from '../../runtime/contract/adapter.js';
import type { CallMode } from '../../runtime/contract/request.js';
import type { ChatRequest, Warning } from '../../runtime/contract/unified-model.js';

/** A warning by field, or by type and field. */
export type ExpectedWarning = string | { type: Warning['type']; field: string };

export interface Case {
  given: ChatRequest;
  mode?: CallMode;
  /** The wire body, as JSON (unset fields are not on the wire). */
  want: Record<string, unknown>;
  /** Exactly these warnings (default: none). */
  warnings?: ExpectedWarning[];
}

export type Table = Array<[string, Case]>;

/** What goes on the wire: the body through JSON. */
export const wire = (body: unknown): unknown => JSON.parse(JSON.stringify(body));

export const PNG_B64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
export const JPEG_B64 = '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAEBAQEBAQEB';

export const WEATHER_SCHEMA = {
  type: 'object',
  properties: { city: { type: 'string' } },
  required: ['city'],
  additionalProperties: false,
};
export const TIME_SCHEMA = { type: 'object', properties: { tz: { type: 'string' } } };

export const USER_HI = { role: 'user', content: 'Hi' } as const;

/** A tool round: user asks, assistant calls two tools, both results come back (one failed), user follows up. */
export const TOOL_HISTORY: ChatRequest['messages'] = [
  { role: 'user', content: 'Weather in Paris and the time in Tokyo?' },
  {
    role: 'assistant',
    content: null,
    toolCalls: [
      { id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { id: 'call_2', name: 'get_time', arguments: '{"tz":"Asia/Tokyo"}' },
    ],
  },
  { role: 'tool', toolCallId: 'call_1', toolName: 'get_weather', content: '{"temp_c":18}' },
  { role: 'tool', toolCallId: 'call_2', content: 'tz database unavailable', isError: true },
  { role: 'user', content: 'Thanks, and tomorrow?' },
];

function fieldOf(e: ExpectedWarning): string {
  return typeof e === 'string' ? e : e.field;
}

/** Builds the case's request and checks body, path parameters, warnings, and that the request is untouched. */
export function checkCase(adapter: ProviderAdapter, { given, mode = 'blocking', want, warnings = [] }: Case): void {
  const before = JSON.stringify(given);
  const built = adapter.buildRequest(given, mode);

  expect(wire(built.body)).toEqual(want);
  expect(built.pathParams).toEqual({ model: given.model });

  const actualFields = built.warnings.map((w) => w.field).sort();
  expect(actualFields).toEqual(warnings.map(fieldOf).sort());
  for (const e of warnings) {
    if (typeof e === 'string') continue;
    expect(built.warnings).toContainEqual(expect.objectContaining({ type: e.type, field: e.field }));
  }
  for (const w of built.warnings) {
    expect(['dropped', 'overridden']).toContain(w.type);
    expect(typeof w.message).toBe('string');
    expect(w.message.length).toBeGreaterThan(0);
  }

  // The request is the caller's: mapping never mutates it.
  expect(JSON.stringify(given)).toBe(before);
}
