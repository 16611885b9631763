/**
 * µs per call of checking one tool call's arguments (JSON.parse + schema check): the runtime's
 * interpreting validator (what `runTools` uses; no code from strings) against ajv's compiled
 * validator (fast, but it generates code with `new Function`, which edge runtimes and strict CSP
 * refuse). Valid and invalid arguments, for a typical tool schema. The size side of the choice
 * is in the bundle table.
 */
import Ajv from 'ajv';
import { checkArguments } from '../runtime/tools/check-arguments.js';

export interface ValidateJob {
  mode: 'validate';
  rounds: number;
  calls: number;
}

export interface ValidateRow {
  ok: boolean;
  /** µs per call: interpreting (the runtime's), compiled (ajv), JSON.parse alone; valid / invalid arguments. */
  interpreting: [number, number];
  compiled: [number, number];
  parseOnly: number;
  error?: string;
}

const SCHEMA = {
  type: 'object',
  properties: {
    city: { type: 'string', minLength: 1 },
    days: { type: 'integer', minimum: 1, maximum: 7 },
    unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
    hours: { type: 'array', items: { type: 'integer', minimum: 0, maximum: 23 } },
  },
  required: ['city', 'days'],
  additionalProperties: false,
};
const VALID = JSON.stringify({ city: 'Lisbon', days: 3, unit: 'celsius', hours: [8, 12, 18] });
const INVALID = JSON.stringify({ city: '', days: 9, unit: 'kelvin', hours: [8, 25] });

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1]!;
}

async function perCall(job: ValidateJob, f: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < job.calls; i++) await f();
  const rounds: number[] = [];
  for (let r = 0; r < job.rounds; r++) {
    const t0 = performance.now();
    for (let i = 0; i < job.calls; i++) await f();
    rounds.push(((performance.now() - t0) * 1000) / job.calls);
  }
  return median(rounds);
}

export async function validateArguments(job: ValidateJob): Promise<ValidateRow> {
  const ajv = new Ajv.default({ allErrors: true, strict: false });
  const compiled = ajv.compile(SCHEMA);
  const viaAjv = async (text: string) => {
    const v: unknown = JSON.parse(text);
    return compiled(v) ? { ok: true, value: v } : { ok: false, errors: compiled.errors };
  };
  const checks = [(await checkArguments(SCHEMA, VALID)).ok, (await checkArguments(SCHEMA, INVALID)).ok, (await viaAjv(VALID)).ok, (await viaAjv(INVALID)).ok];
  return {
    ok: checks.join() === 'true,false,true,false',
    interpreting: [await perCall(job, () => checkArguments(SCHEMA, VALID)), await perCall(job, () => checkArguments(SCHEMA, INVALID))],
    compiled: [await perCall(job, () => viaAjv(VALID)), await perCall(job, () => viaAjv(INVALID))],
    parseOnly: await perCall(job, async () => JSON.parse(VALID)),
  };
}
