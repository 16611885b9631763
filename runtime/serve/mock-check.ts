/**
 * A mock step checked before it serves: a fault that cannot apply to its reply (an error event
 * after the last event, a cut in a stream the step never streams, a retry-after without an HTTP
 * error) or an option the mock does not know would serve a clean answer and let a test pass on
 * it. Each is a MockSetupError naming the option and why. docs/serving.md#a-mock-that-cannot-fake-a-pass.
 */
import { MockSetupError } from '../errors.js';
import type { MockFault, MockMatch, MockStep } from './mock-script.js';
import type { MockThinking, MockTurn } from './turn-events.js';
import { nearest } from '../request/did-you-mean.js';

/** Every key of `T`, listed: a key added to the type and not here fails to compile. */
const keysOf = <T>() => <const K extends readonly (keyof T)[]>(keys: K & ([Exclude<keyof T, K[number]>] extends [never] ? unknown : never)): readonly string[] => keys as readonly string[];

const KNOWN: Record<string, readonly string[]> = {
  step: keysOf<MockStep>()(['when', 'reply', 'fault', 'times']),
  when: keysOf<MockMatch>()(['lastUserText', 'toolResultFor', 'model', 'stream']),
  fault: keysOf<MockFault>()(['status', 'message', 'type', 'code', 'retryAfter', 'errorAfter', 'truncateAfter', 'latencyMs', 'stallMs']),
  // A misspelt reply field would serve an empty turn: a clean answer a test could pass on.
  reply: keysOf<MockTurn>()(['text', 'thinking', 'toolCalls', 'parts', 'finishReason', 'usage', 'id', 'model']),
  'thinking block': keysOf<MockThinking>()(['text', 'signature', 'redacted', 'id']),
  'tool call': keysOf<NonNullable<MockTurn['toolCalls']>[number]>()(['id', 'name', 'kind', 'arguments']),
};

/** The faults placed inside a stream. */
const STREAMED = ['errorAfter', 'truncateAfter', 'stallMs'] as const;

/**
 * Throws when the step cannot do what it says. `events` counts the stream events its reply makes
 * (only asked when a fault counts them).
 */
export function checkStep(provider: string, step: MockStep, at: string, events: (step: MockStep) => number): void {
  const refuse = (option: string, reason: string): never => {
    throw new MockSetupError(provider, `${at}${option}`, reason);
  };
  unknownKeys(step, 'step', '', refuse);
  if (step.when !== undefined) unknownKeys(step.when, 'when', 'when.', refuse);
  // A YAML key left empty is null: nothing there, nothing to check.
  const r = step.reply;
  if (isObject(r)) {
    unknownKeys(r, 'reply', 'reply.', refuse);
    const blocks = isObject(r.thinking) ? [r.thinking].flat() : [];
    blocks.forEach((b, i) => {
      const at = Array.isArray(r.thinking) ? `reply.thinking[${i}]` : 'reply.thinking';
      if (!isObject(b)) refuse(at, `is ${b === null ? 'empty' : 'not a block'}: a list of blocks holds { text }, { redacted }, { signature, id } objects`);
      unknownKeys(b, 'thinking block', `${at}.`, refuse);
    });
    if (Array.isArray(r.toolCalls)) r.toolCalls.forEach((c, i) => isObject(c) && unknownKeys(c, 'tool call', `reply.toolCalls[${i}].`, refuse));
  }
  if (step.times !== undefined && !(Number.isInteger(step.times) && step.times >= 1)) refuse('times', `must be a whole number from 1, not ${String(step.times)}`);
  const f = step.fault;
  if (f === undefined) return;
  unknownKeys(f, 'fault', 'fault.', refuse);
  for (const k of ['retryAfter', 'latencyMs', 'stallMs', 'errorAfter', 'truncateAfter'] as const) {
    const v = f[k];
    if (v === undefined) continue;
    const whole = k === 'errorAfter' || k === 'truncateAfter';
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || (whole && !Number.isInteger(v))) refuse(`fault.${k}`, `must be a ${whole ? 'whole ' : ''}number from 0, not ${String(v)}`);
  }
  const streamed = STREAMED.filter((k) => f[k] !== undefined);
  if (f.status !== undefined) {
    if (!(Number.isInteger(f.status) && f.status >= 400 && f.status <= 599)) refuse('fault.status', `must be an HTTP error status (400 to 599), not ${String(f.status)}: anything else would read as an answer`);
    if (step.reply !== undefined) refuse('fault.status', 'answers with an HTTP error, so the step’s reply would never be served: drop one of them');
    for (const k of streamed) refuse(`fault.${k}`, 'applies inside a stream, but fault.status answers with an HTTP error before any stream starts');
    return;
  }
  if (f.retryAfter !== undefined) refuse('fault.retryAfter', 'is sent with an HTTP error only, and the fault has no status');
  for (const k of ['message', 'type', 'code'] as const) {
    if (f[k] !== undefined && f.errorAfter === undefined) refuse(`fault.${k}`, 'describes an HTTP error (fault.status) or an error event (fault.errorAfter), and the fault has neither');
  }
  if (f.errorAfter !== undefined && f.truncateAfter !== undefined) refuse('fault.truncateAfter', 'the stream ends at the first of errorAfter and truncateAfter, so the other never happens: give one');
  if (streamed.length && step.when?.stream === false) refuse(`fault.${streamed[0]!}`, 'applies inside a stream, but the step answers only requests that do not stream');
  if (f.stallMs !== undefined && (f.errorAfter === 0 || f.truncateAfter === 0)) refuse('fault.stallMs', 'the stall comes after the first event, and the stream ends before it');
  const counted = f.errorAfter !== undefined ? 'errorAfter' : f.truncateAfter !== undefined ? 'truncateAfter' : undefined;
  if (counted === undefined) return;
  if (step.reply === undefined) refuse(`fault.${counted}`, 'counts the events of the step’s reply, and the step gives none: give the reply it cuts');
  const n = events(step);
  // An error event may follow the last event (before the end); a cut needs an event to cut inside.
  if (counted === 'errorAfter' && f.errorAfter! > n) refuse('fault.errorAfter', `the reply makes ${n} stream events, so an error after ${f.errorAfter} would never be sent: use 0 to ${n}`);
  if (counted === 'truncateAfter' && f.truncateAfter! >= n) refuse('fault.truncateAfter', `the reply makes ${n} stream events, so a cut after ${f.truncateAfter} would cut nothing: use 0 to ${n - 1}`);
}

/** What a streamed fault cannot do to a request that does not stream: the reason, or undefined. */
export function streamedFaultOnBlocking(fault: MockFault | undefined): string | undefined {
  const k = STREAMED.find((x) => fault?.[x] !== undefined);
  return k === undefined ? undefined : `fault.${k} applies inside a stream, and this request does not stream`;
}

const isObject = (v: unknown): v is object => typeof v === 'object' && v !== null;

function unknownKeys(o: object, kind: string, prefix: string, refuse: (option: string, reason: string) => never): void {
  const known = KNOWN[kind]!;
  for (const k of Object.keys(o)) {
    if (known.includes(k)) continue;
    const near = nearest(k, known);
    refuse(`${prefix}${k}`, `is not a ${kind} option${near ? ` (did you mean ${near}?)` : ''}; known: ${known.join(', ')}`);
  }
}
