/**
 * Tool-loop behaviours (issue 4) over a loopback OpenAI Chat Completions server, each in the
 * blocking form (runTools) and the streaming form (streamTools().final()): error policies for
 * arguments, execution and unknown tools, maxSteps, return behaviours, parallel execution and
 * its bound, cancellation (during a tool and during a model request), usage over steps, and
 * defineTool's typing.
 */
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import {
  defineTool,
  runTools,
  streamTools,
  ToolArgumentsError,
  ToolExecutionError,
  UnknownToolError,
  WireforgeError,
  type ChatRequest,
  type Client,
  type FromSchema,
  type RunToolsOptions,
  type RunToolsResult,
  type ToolContext,
  type ToolDefinition,
  type ToolLoopEvent,
} from '../../runtime/index.js';
import { sseResponse } from '../helpers/loopback-server.js';
import { buildTurn, startScriptedModel, type ScriptedCall, type ScriptedModel, type ScriptedTurn, type ScriptStep } from '../helpers/scripted-turns.js';

const ID = 'openai-chat';
const USER: ChatRequest = { messages: [{ role: 'user', content: 'What is the weather in Paris?' }] };

type Mode = 'blocking' | 'stream';
const MODES: Mode[] = ['blocking', 'stream'];

function run(mode: Mode, client: Client, request: ChatRequest, options: RunToolsOptions): Promise<RunToolsResult> {
  return mode === 'blocking' ? runTools(client, request, options) : streamTools(client, request, options).final();
}

const open: ScriptedModel[] = [];
async function model(script: ScriptStep[]): Promise<ScriptedModel> {
  const m = await startScriptedModel(ID, script);
  open.push(m);
  return m;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((m) => m.close()));
});

let callSeq = 0;
function call(name: string, argsText: string, id = `call_${name}_${++callSeq}`): ScriptedCall {
  return { id, name, args: {}, argsText };
}
const toolTurn = (...calls: ScriptedCall[]): ScriptedTurn => ({ calls, usage: { input: 10, output: 5 } });
const answer = (text = 'Done.'): ScriptedTurn => ({ text, usage: { input: 10, output: 5 } });

/** The wire messages of the n-th request the server received. */
function wireMessages(m: ScriptedModel, n: number): Array<Record<string, unknown>> {
  return (m.server.requests[n]!.body as { messages: Array<Record<string, unknown>> }).messages;
}

function deferred<T = void>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

class TimedOut extends Error {}
/**
 * Fails when `p` is still pending after `ms` (×5: what is waited for would otherwise never come,
 * so the bound only has to beat the test's own timeout, also on a busy machine).
 */
function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  const cap = ms * 5;
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new TimedOut(`${what}: still pending after ${cap} ms`)), cap);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(t);
        reject(e);
      },
    );
  });
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection, got a result');
}

const weatherParameters = {
  type: 'object',
  properties: { city: { type: 'string' } },
  required: ['city'],
  additionalProperties: false,
} as const;

function weatherTool(execute: (args: { city: string }, ctx: ToolContext) => unknown = ({ city }) => `sunny in ${city}`) {
  const calls: Array<{ city: string }> = [];
  const tool = defineTool({
    description: 'Weather for a city',
    parameters: weatherParameters,
    execute: (args, ctx) => {
      calls.push(args);
      return execute(args, ctx);
    },
  });
  return { tool, calls };
}

const timeTool = defineTool({
  parameters: { type: 'object', properties: { tz: { type: 'string' } }, required: ['tz'] } as const,
  execute: ({ tz }) => `14:05 in ${tz}`,
});

describe.each(MODES)('%s', (mode) => {
  describe('onArgumentsError', () => {
    it('default: invalid JSON throws ToolArgumentsError naming the tool, the call id and the error; execute never runs', async () => {
      const m = await model([toolTurn(call('get_weather', '{"city": "Par', 'call_badjson'))]);
      const weather = weatherTool();
      const error = await rejection(run(mode, m.client(), USER, { tools: { get_weather: weather.tool } }));
      expect(error).toBeInstanceOf(ToolArgumentsError);
      expect(error).toBeInstanceOf(WireforgeError);
      const e = error as ToolArgumentsError;
      expect(e.toolName).toBe('get_weather');
      expect(e.callId).toBe('call_badjson');
      expect(e.arguments).toBe('{"city": "Par');
      expect(e.errors).toHaveLength(1);
      expect(e.errors[0]!.message).toMatch(/JSON/);
      expect(e.message).toContain('get_weather');
      expect(e.message).toContain('call_badjson');
      expect(weather.calls).toEqual([]);
      expect(m.server.requests).toHaveLength(1);
    });

    it('default: a schema violation throws ToolArgumentsError carrying every violation', async () => {
      const m = await model([toolTurn(call('get_weather', '{"town": "Paris", "country": 7}', 'call_schema'))]);
      const weather = weatherTool();
      const error = await rejection(run(mode, m.client(), USER, { tools: { get_weather: weather.tool } }));
      expect(error).toBeInstanceOf(ToolArgumentsError);
      const e = error as ToolArgumentsError;
      expect(e.toolName).toBe('get_weather');
      expect(e.callId).toBe('call_schema');
      expect(e.errors).toEqual(
        expect.arrayContaining([
          { path: '', message: 'Instance does not have required property "city"' },
          { path: '', message: expect.stringMatching(/"town" does not match additional properties/) },
          { path: '', message: expect.stringMatching(/"country" does not match additional properties/) },
        ]),
      );
      // Only what is wrong, not the sub-schema failures that repeat it.
      expect(e.errors).toHaveLength(3);
      expect(e.message).toContain('required property "city"');
      expect(e.message).toContain('call_schema');
      expect(weather.calls).toEqual([]);

      const m2 = await model([toolTurn(call('get_weather', '{"city": 42}', 'call_type'))]);
      const e2 = (await rejection(run(mode, m2.client(), USER, { tools: { get_weather: weather.tool } }))) as ToolArgumentsError;
      expect(e2.errors).toEqual([{ path: '/city', message: 'Instance type "number" is invalid. Expected "string"' }]);
    });

    it("'report': the error text goes back to the model as an error result, and the model can retry", async () => {
      const m = await model([
        toolTurn(call('get_weather', '{"city": "Par', 'call_json'), call('get_weather', '{"town": "Paris"}', 'call_schema')),
        toolTurn(call('get_weather', '{"city": "Paris"}', 'call_retry')),
        answer('Sunny in Paris.'),
      ]);
      const weather = weatherTool();
      const r = await run(mode, m.client(), USER, { tools: { get_weather: weather.tool }, onArgumentsError: 'report' });

      expect(r.stoppedBy).toBe('answer');
      expect(r.steps).toHaveLength(3);
      const [bad1, bad2] = r.steps[0]!.executions;
      expect(bad1).toMatchObject({ isError: true, result: undefined });
      expect(bad1!.content).toMatch(/JSON/);
      expect(bad1!.error).toBeInstanceOf(ToolArgumentsError);
      expect(bad2).toMatchObject({ isError: true });
      expect(bad2!.content).toContain('required property "city"');
      expect(bad2!.content).toContain('town');
      expect(weather.calls).toEqual([{ city: 'Paris' }]);
      expect(r.steps[1]!.executions[0]).toMatchObject({ isError: false, content: 'sunny in Paris' });

      // The history marks them as errors, and the wire carries the text, linked by call id.
      expect(r.messages.slice(2, 4)).toEqual([
        { role: 'tool', toolCallId: 'call_json', toolName: 'get_weather', content: bad1!.content, isError: true },
        { role: 'tool', toolCallId: 'call_schema', toolName: 'get_weather', content: bad2!.content, isError: true },
      ]);
      const sent = wireMessages(m, 1).filter((x) => x.role === 'tool');
      expect(sent).toEqual([
        { role: 'tool', tool_call_id: 'call_json', content: bad1!.content },
        { role: 'tool', tool_call_id: 'call_schema', content: bad2!.content },
      ]);
    });
  });

  describe('onExecutionError', () => {
    it('default: the thrown message goes back to the model as an error result', async () => {
      const m = await model([toolTurn(call('get_weather', '{"city": "Paris"}', 'call_boom')), answer('The weather service is down.')]);
      const boom = new Error('weather service down');
      const weather = weatherTool(() => {
        throw boom;
      });
      const r = await run(mode, m.client(), USER, { tools: { get_weather: weather.tool } });
      expect(r.stoppedBy).toBe('answer');
      const e = r.steps[0]!.executions[0]!;
      expect(e).toMatchObject({ isError: true, content: 'weather service down', result: undefined });
      expect(e.error).toBe(boom);
      expect(r.messages[2]).toEqual({ role: 'tool', toolCallId: 'call_boom', toolName: 'get_weather', content: 'weather service down', isError: true });
      expect(wireMessages(m, 1).at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_boom', content: 'weather service down' });
    });

    it('default: an async rejection is reported the same way', async () => {
      const m = await model([toolTurn(call('get_weather', '{"city": "Paris"}', 'call_async')), answer()]);
      const weather = weatherTool(async () => {
        await new Promise((r) => setTimeout(r, 5));
        throw new Error('timed out upstream');
      });
      const r = await run(mode, m.client(), USER, { tools: { get_weather: weather.tool } });
      expect(r.steps[0]!.executions[0]).toMatchObject({ isError: true, content: 'timed out upstream' });
    });

    it("'throw': rejects with ToolExecutionError naming the tool and call, the thrown error as cause", async () => {
      const m = await model([toolTurn(call('get_weather', '{"city": "Paris"}', 'call_boom')), answer()]);
      const boom = new Error('weather service down');
      const weather = weatherTool(() => {
        throw boom;
      });
      const error = await rejection(run(mode, m.client(), USER, { tools: { get_weather: weather.tool }, onExecutionError: 'throw' }));
      expect(error).toBeInstanceOf(ToolExecutionError);
      const e = error as ToolExecutionError;
      expect(e.toolName).toBe('get_weather');
      expect(e.callId).toBe('call_boom');
      expect(e.cause).toBe(boom);
      expect(e.message).toContain('weather service down');
      expect(m.server.requests).toHaveLength(1);
    });
  });

  describe('unknown tool', () => {
    it('default: throws UnknownToolError naming the tool and the call id', async () => {
      const m = await model([toolTurn(call('get_stock_price', '{"ticker": "ACME"}', 'call_unknown')), answer()]);
      const weather = weatherTool();
      const error = await rejection(run(mode, m.client(), USER, { tools: { get_weather: weather.tool } }));
      expect(error).toBeInstanceOf(UnknownToolError);
      const e = error as UnknownToolError;
      expect(e.toolName).toBe('get_stock_price');
      expect(e.callId).toBe('call_unknown');
      expect(e.message).toContain('get_weather');
      expect(m.server.requests).toHaveLength(1);
    });

    it('a name inherited from Object.prototype is unknown too', async () => {
      const m = await model([toolTurn(call('toString', '{}', 'call_proto')), answer()]);
      const error = await rejection(run(mode, m.client(), USER, { tools: { get_weather: weatherTool().tool } }));
      expect(error).toBeInstanceOf(UnknownToolError);
    });

    it("'report': the model is told, as an error result listing the tools, and the loop goes on", async () => {
      const m = await model([
        toolTurn(call('get_stock_price', '{"ticker": "ACME"}', 'call_unknown'), call('get_weather', '{"city": "Paris"}', 'call_ok')),
        answer(),
      ]);
      const weather = weatherTool();
      const r = await run(mode, m.client(), USER, { tools: { get_weather: weather.tool }, onUnknownTool: 'report' });
      expect(r.stoppedBy).toBe('answer');
      const [unknown, ok] = r.steps[0]!.executions;
      expect(unknown).toMatchObject({ isError: true });
      expect(unknown!.content).toContain('get_stock_price');
      expect(unknown!.content).toContain('get_weather');
      expect(unknown!.error).toBeInstanceOf(UnknownToolError);
      expect(ok).toMatchObject({ isError: false, content: 'sunny in Paris' });
      expect(wireMessages(m, 1).filter((x) => x.role === 'tool')).toEqual([
        { role: 'tool', tool_call_id: 'call_unknown', content: unknown!.content },
        { role: 'tool', tool_call_id: 'call_ok', content: 'sunny in Paris' },
      ]);
    });
  });

  describe('maxSteps', () => {
    it('reached: stoppedBy max-steps with steps.length === maxSteps, no throw, no extra model call', async () => {
      // The model never stops asking.
      const m = await model([(req, i) => respond(toolTurn(call('get_weather', '{"city": "Paris"}', `call_loop_${i}`)), req)]);
      const weather = weatherTool();
      const r = await run(mode, m.client(), USER, { tools: { get_weather: weather.tool }, maxSteps: 3 });
      expect(r.stoppedBy).toBe('max-steps');
      expect(r.steps).toHaveLength(3);
      expect(r.steps.map((s) => s.step)).toEqual([1, 2, 3]);
      expect(m.server.requests).toHaveLength(3);
      expect(weather.calls).toHaveLength(3);
      expect(r.response).toBe(r.steps[2]!.response);
      expect(r.response.finishReason).toBe('tool_calls');
      // Every turn and result is in the history, ready to continue.
      expect(r.messages.map((x) => x.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'tool']);
      expect(r.usage).toMatchObject({ inputTokens: 30, outputTokens: 15, totalTokens: 45 });
    });

    it('default is 100', async () => {
      const m = await model([(req, i) => respond(toolTurn(call('get_weather', '{"city": "Paris"}', `call_loop_${i}`)), req)]);
      const r = await run(mode, m.client(), USER, { tools: { get_weather: weatherTool().tool } });
      expect(r.stoppedBy).toBe('max-steps');
      expect(r.steps).toHaveLength(100);
      expect(m.server.requests).toHaveLength(100);
    });

    it('maxSteps: 1 with an answer stops by the answer', async () => {
      const m = await model([answer('Hello.')]);
      const r = await run(mode, m.client(), USER, { tools: { get_weather: weatherTool().tool }, maxSteps: 1 });
      expect(r.stoppedBy).toBe('answer');
      expect(r.response.text).toBe('Hello.');
    });
  });

  describe('return behaviours', () => {
    const finishTool = (returns: 'to-model' | 'immediate' | 'immediate-if-last') =>
      defineTool({
        parameters: { type: 'object', properties: { answer: { type: 'number' } }, required: ['answer'] } as const,
        returns,
        execute: ({ answer }) => ({ final: answer }),
      });

    it("'to-model' (explicit, like the default) sends the result back and calls the model again", async () => {
      const m = await model([toolTurn(call('finish', '{"answer": 42}', 'call_fin')), answer('It is 42.')]);
      const r = await run(mode, m.client(), USER, { tools: { finish: finishTool('to-model') } });
      expect(r.stoppedBy).toBe('answer');
      expect(r.steps).toHaveLength(2);
      expect(r.immediate).toBeUndefined();
      expect(wireMessages(m, 1).at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_fin', content: '{"final":42}' });
    });

    it("'immediate' stops the loop and returns the result without another model call", async () => {
      const m = await model([toolTurn(call('get_time', '{"tz": "UTC"}', 'call_t'), call('finish', '{"answer": 42}', 'call_fin')), answer()]);
      const r = await run(mode, m.client(), USER, { tools: { get_time: timeTool, finish: finishTool('immediate') } });
      expect(r.stoppedBy).toBe('immediate');
      expect(m.server.requests).toHaveLength(1);
      expect(r.steps).toHaveLength(1);
      expect(r.response).toBe(r.steps[0]!.response);
      expect(r.immediate).toMatchObject({ call: { id: 'call_fin', name: 'finish' }, result: { final: 42 }, content: '{"final":42}', isError: false });
      // Every call of the turn ran; the history has both results.
      expect(r.steps[0]!.executions.map((e) => e.content)).toEqual(['14:05 in UTC', '{"final":42}']);
      expect(r.messages.map((x) => x.role)).toEqual(['user', 'assistant', 'tool', 'tool']);
    });

    it("'immediate' also when it is not the last call", async () => {
      const m = await model([toolTurn(call('finish', '{"answer": 7}', 'call_fin'), call('get_time', '{"tz": "UTC"}', 'call_t')), answer()]);
      const r = await run(mode, m.client(), USER, { tools: { get_time: timeTool, finish: finishTool('immediate') } });
      expect(r.stoppedBy).toBe('immediate');
      expect(r.immediate?.call.id).toBe('call_fin');
      expect(m.server.requests).toHaveLength(1);
    });

    it("'immediate-if-last' stops when it is the turn's last call", async () => {
      const m = await model([toolTurn(call('get_time', '{"tz": "UTC"}', 'call_t'), call('finish', '{"answer": 42}', 'call_fin')), answer()]);
      const r = await run(mode, m.client(), USER, { tools: { get_time: timeTool, finish: finishTool('immediate-if-last') } });
      expect(r.stoppedBy).toBe('immediate');
      expect(r.immediate).toMatchObject({ call: { id: 'call_fin' }, result: { final: 42 } });
      expect(m.server.requests).toHaveLength(1);
    });

    it("'immediate-if-last' alone in its turn stops", async () => {
      const m = await model([toolTurn(call('finish', '{"answer": 1}', 'call_fin')), answer()]);
      const r = await run(mode, m.client(), USER, { tools: { finish: finishTool('immediate-if-last') } });
      expect(r.stoppedBy).toBe('immediate');
    });

    it("'immediate-if-last' goes on to the model when it is not the last call", async () => {
      const m = await model([toolTurn(call('finish', '{"answer": 42}', 'call_fin'), call('get_time', '{"tz": "UTC"}', 'call_t')), answer('42, at 14:05.')]);
      const r = await run(mode, m.client(), USER, { tools: { get_time: timeTool, finish: finishTool('immediate-if-last') } });
      expect(r.stoppedBy).toBe('answer');
      expect(r.immediate).toBeUndefined();
      expect(r.steps).toHaveLength(2);
      expect(r.response.text).toBe('42, at 14:05.');
      expect(wireMessages(m, 1).filter((x) => x.role === 'tool').map((x) => x.tool_call_id)).toEqual(['call_fin', 'call_t']);
    });

    it("an 'immediate' tool that fails does not end the loop: the error goes to the model", async () => {
      const failing = defineTool({
        parameters: { type: 'object' } as const,
        returns: 'immediate',
        execute: () => {
          throw new Error('cannot finish yet');
        },
      });
      const m = await model([toolTurn(call('finish', '{}', 'call_fin')), answer()]);
      const r = await run(mode, m.client(), USER, { tools: { finish: failing } });
      expect(r.stoppedBy).toBe('answer');
      expect(r.steps[0]!.executions[0]).toMatchObject({ isError: true, content: 'cannot finish yet' });
    });
  });

  describe('parallel calls', () => {
    /** Two tools that each wait until the other has started: they finish only if run concurrently. */
    function rendezvous() {
      const started = { a: deferred(), b: deferred() };
      const finished: string[] = [];
      const tool = (me: 'a' | 'b', other: 'a' | 'b', extraMs: number) =>
        defineTool({
          parameters: { type: 'object' } as const,
          execute: async () => {
            started[me].resolve();
            await within(started[other].promise, 2000, `tool ${me} waited for tool ${other} to start`);
            await new Promise((r) => setTimeout(r, extraMs));
            finished.push(me);
            return `result ${me}`;
          },
        });
      // a finishes after b: results must still come in call order.
      return { tools: { tool_a: tool('a', 'b', 40), tool_b: tool('b', 'a', 0) }, finished };
    }

    it.each([undefined, 2])('run concurrently (concurrency %s), results in call order', async (concurrency) => {
      const m = await model([toolTurn(call('tool_a', '{}', 'call_a'), call('tool_b', '{}', 'call_b')), answer()]);
      const { tools, finished } = rendezvous();
      const r = await run(mode, m.client(), USER, { tools, onExecutionError: 'throw', ...(concurrency ? { concurrency } : {}) });
      expect(finished).toEqual(['b', 'a']);
      expect(r.steps[0]!.executions.map((e) => [e.call.id, e.content, e.isError])).toEqual([
        ['call_a', 'result a', false],
        ['call_b', 'result b', false],
      ]);
      expect(r.messages.slice(2).map((x) => (x.role === 'tool' ? x.toolCallId : x.role))).toEqual(['call_a', 'call_b', 'assistant']);
      expect(wireMessages(m, 1).filter((x) => x.role === 'tool').map((x) => [x.tool_call_id, x.content])).toEqual([
        ['call_a', 'result a'],
        ['call_b', 'result b'],
      ]);
    });

    it('concurrency: 1 runs them one at a time, in call order', async () => {
      let inFlight = 0;
      let maxInFlight = 0;
      const order: string[] = [];
      const slow = (name: string, ms: number) =>
        defineTool({
          parameters: { type: 'object' } as const,
          execute: async () => {
            inFlight++;
            maxInFlight = Math.max(maxInFlight, inFlight);
            order.push(`start ${name}`);
            await new Promise((r) => setTimeout(r, ms));
            order.push(`end ${name}`);
            inFlight--;
            return name;
          },
        });
      const m = await model([toolTurn(call('t1', '{}', 'c1'), call('t2', '{}', 'c2'), call('t3', '{}', 'c3')), answer()]);
      const r = await run(mode, m.client(), USER, { tools: { t1: slow('t1', 30), t2: slow('t2', 5), t3: slow('t3', 15) }, concurrency: 1 });
      expect(maxInFlight).toBe(1);
      expect(order).toEqual(['start t1', 'end t1', 'start t2', 'end t2', 'start t3', 'end t3']);
      expect(r.steps[0]!.executions.map((e) => e.content)).toEqual(['t1', 't2', 't3']);
    });

    it('concurrency: 2 over three calls keeps at most two in flight', async () => {
      let inFlight = 0;
      let maxInFlight = 0;
      const slow = defineTool({
        parameters: { type: 'object' } as const,
        execute: async (_args, ctx) => {
          inFlight++;
          maxInFlight = Math.max(maxInFlight, inFlight);
          await new Promise((r) => setTimeout(r, 20));
          inFlight--;
          return ctx.callId;
        },
      });
      const m = await model([toolTurn(call('slow', '{}', 'c1'), call('slow', '{}', 'c2'), call('slow', '{}', 'c3')), answer()]);
      const r = await run(mode, m.client(), USER, { tools: { slow }, concurrency: 2 });
      expect(maxInFlight).toBe(2);
      expect(r.steps[0]!.executions.map((e) => e.content)).toEqual(['c1', 'c2', 'c3']);
    });
  });

  describe('cancellation', () => {
    it('abort while a tool runs: rejects promptly with the AbortError, does not wait for the tool, and the tool sees ctx.signal aborted', async () => {
      const m = await model([toolTurn(call('get_weather', '{"city": "Paris"}', 'call_slow')), answer()]);
      const started = deferred();
      const release = deferred<string>();
      let toolSignal: AbortSignal | undefined;
      let toolFinished = false;
      const weather = weatherTool(async (_args, ctx) => {
        toolSignal = ctx.signal;
        started.resolve();
        // Ignores the signal on purpose: the loop must not wait for it.
        const v = await release.promise;
        toolFinished = true;
        return v;
      });
      const controller = new AbortController();
      const p = run(mode, m.client(), USER, { tools: { get_weather: weather.tool }, signal: controller.signal });
      p.catch(() => undefined);
      await within(started.promise, 2000, 'the tool to start');
      expect(toolSignal?.aborted).toBe(false);
      const t0 = performance.now();
      controller.abort();
      const error = await within(rejection(p), 1000, 'the loop to reject after abort');
      // Not waiting for the tool or the server, which never finish: prompt, with room for a busy machine.
      expect(performance.now() - t0).toBeLessThan(2500);
      expect(error).toBeInstanceOf(DOMException);
      expect((error as DOMException).name).toBe('AbortError');
      expect(error).toBe(controller.signal.reason);
      expect(toolFinished).toBe(false);
      expect(toolSignal?.aborted).toBe(true);
      expect(m.server.requests).toHaveLength(1);
      release.resolve('too late');
      await new Promise((r) => setTimeout(r, 20));
      expect(m.server.requests).toHaveLength(1);
    });

    it('abort with a reason rejects with that reason', async () => {
      const m = await model([toolTurn(call('get_weather', '{"city": "Paris"}', 'call_slow')), answer()]);
      const started = deferred();
      const weather = weatherTool(async (_a, ctx) => {
        started.resolve();
        await new Promise((_r, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('tool saw abort'))));
      });
      const controller = new AbortController();
      const p = run(mode, m.client(), USER, { tools: { get_weather: weather.tool }, signal: controller.signal });
      p.catch(() => undefined);
      await within(started.promise, 2000, 'the tool to start');
      const reason = new Error('user pressed stop');
      controller.abort(reason);
      expect(await within(rejection(p), 1000, 'the loop to reject')).toBe(reason);
    });

    it('abort during the model request: rejects promptly with the AbortError and the server sees the socket close', async () => {
      const partial = buildTurn(ID, answer('This answer never ends')).stream.split('\n\n').slice(0, 2).join('\n\n') + '\n\n';
      const m = await model([
        toolTurn(call('get_weather', '{"city": "Paris"}', 'call_w')),
        // Step 2: the blocking call never gets a response; the stream sends its first events and stalls.
        (req) => (mode === 'blocking' ? { hang: true } : sseResponse(partial, { keepOpen: true })),
      ]);
      const controller = new AbortController();
      const p = run(mode, m.client(), USER, { tools: { get_weather: weatherTool().tool }, signal: controller.signal });
      p.catch(() => undefined);
      const second = await within(m.server.waitForRequest(1), 2000, 'the second model request');
      await new Promise((r) => setTimeout(r, 30));
      const t0 = performance.now();
      controller.abort();
      const error = await within(rejection(p), 1000, 'the loop to reject after abort');
      // Not waiting for the tool or the server, which never finish: prompt, with room for a busy machine.
      expect(performance.now() - t0).toBeLessThan(2500);
      expect((error as Error).name).toBe('AbortError');
      expect(error).toBe(controller.signal.reason);
      await within(second.socketClosed, 1000, 'the server to see the socket close');
      expect(second.isSocketClosed).toBe(true);
    });

    it('an already aborted signal rejects without calling the model', async () => {
      const m = await model([answer()]);
      const controller = new AbortController();
      controller.abort();
      const error = await within(rejection(run(mode, m.client(), USER, { tools: { get_weather: weatherTool().tool }, signal: controller.signal })), 1000, 'the loop');
      expect((error as Error).name).toBe('AbortError');
      await new Promise((r) => setTimeout(r, 20));
      expect(m.server.requests).toHaveLength(0);
    });
  });

  it('usage is summed over every step, detail counts included', async () => {
    const m = await model([
      { calls: [call('get_weather', '{"city": "Paris"}', 'c1')], usage: { input: 100, output: 20, cached: 40, reasoning: 8 } },
      { calls: [call('get_weather', '{"city": "Rome"}', 'c2')], usage: { input: 150, output: 30, cached: 0, reasoning: 12 } },
      { text: 'Both sunny.', usage: { input: 200, output: 10, cached: 100, reasoning: 0 } },
    ]);
    const r = await run(mode, m.client(), USER, { tools: { get_weather: weatherTool().tool } });
    expect(r.steps.map((s) => s.response.usage?.inputTokens)).toEqual([100, 150, 200]);
    expect(r.usage).toEqual({ inputTokens: 450, outputTokens: 60, totalTokens: 510, cachedInputTokens: 140, reasoningTokens: 20 });
  });

  it('tools receive a context: step, call id, the conversation so far, the model turn, a live signal', async () => {
    const seen: Array<{ step: number; callId: string; roles: string[]; toolCallIds: string[]; aborted: boolean }> = [];
    const weather = weatherTool((_a, ctx) => {
      seen.push({
        step: ctx.step,
        callId: ctx.callId,
        roles: ctx.messages.map((x) => x.role),
        toolCallIds: ctx.response?.toolCalls.map((c) => c.id) ?? [],
        aborted: ctx.signal.aborted,
      });
      return 'ok';
    });
    const m = await model([toolTurn(call('get_weather', '{"city": "A"}', 'c1')), toolTurn(call('get_weather', '{"city": "B"}', 'c2')), answer()]);
    await run(mode, m.client(), USER, { tools: { get_weather: weather.tool } });
    expect(seen).toEqual([
      { step: 1, callId: 'c1', roles: ['user', 'assistant'], toolCallIds: ['c1'], aborted: false },
      { step: 2, callId: 'c2', roles: ['user', 'assistant', 'tool', 'assistant'], toolCallIds: ['c2'], aborted: false },
    ]);
  });

  it('the tools sent to the model come from the definitions; request fields ride along unchanged', async () => {
    const m = await model([answer()]);
    await run(mode, m.client(), { ...USER, system: 'Be brief.', temperature: 0.2 }, { tools: { get_weather: weatherTool().tool, get_time: timeTool } });
    const body = m.server.requests[0]!.body as Record<string, unknown>;
    expect(body.tools).toEqual([
      { type: 'function', function: { name: 'get_weather', description: 'Weather for a city', parameters: weatherParameters } },
      { type: 'function', function: { name: 'get_time', parameters: timeTool.parameters } },
    ]);
    expect(body.temperature).toBe(0.2);
    expect((body.messages as unknown[])[0]).toEqual({ role: 'system', content: 'Be brief.' });
  });
});

describe('streamTools', () => {
  it('events of a failing loop: the error rejects the iteration and final()', async () => {
    const m = await model([toolTurn(call('nope', '{}', 'call_x'))]);
    const stream = streamTools(m.client(), USER, { tools: { get_weather: weatherTool().tool } });
    const events: ToolLoopEvent[] = [];
    const error = await rejection(
      (async () => {
        for await (const e of stream) events.push(e);
      })(),
    );
    expect(error).toBeInstanceOf(UnknownToolError);
    expect(await rejection(stream.final())).toBe(error);
    expect(events[0]).toEqual({ type: 'step-start', step: 1 });
    expect(events.some((e) => e.type === 'tool-call')).toBe(true);
  });

  it('abort while iterating, during a tool: the iteration rejects with the AbortError', async () => {
    const m = await model([toolTurn(call('get_weather', '{"city": "Paris"}', 'call_slow')), answer()]);
    const started = deferred();
    const weather = weatherTool(async () => {
      started.resolve();
      await new Promise(() => undefined);
    });
    const controller = new AbortController();
    const stream = streamTools(m.client(), USER, { tools: { get_weather: weather.tool }, signal: controller.signal });
    const events: ToolLoopEvent[] = [];
    const iterating = (async () => {
      for await (const e of stream) events.push(e);
    })();
    iterating.catch(() => undefined);
    await within(started.promise, 2000, 'the tool to start');
    controller.abort();
    const error = await within(rejection(iterating), 1000, 'the iteration to reject');
    expect((error as Error).name).toBe('AbortError');
    expect(events.filter((e) => e.type === 'tool-execution-start')).toHaveLength(1);
    expect(events.some((e) => e.type === 'tool-execution-result')).toBe(false);
  });

  it('abort while iterating, during step 2 of the model stream: rejects and releases the connection', async () => {
    const partial = buildTurn(ID, answer('A long answer that stalls')).stream.split('\n\n').slice(0, 3).join('\n\n') + '\n\n';
    const m = await model([toolTurn(call('get_weather', '{"city": "Paris"}', 'call_w')), () => sseResponse(partial, { keepOpen: true })]);
    const controller = new AbortController();
    const stream = streamTools(m.client(), USER, { tools: { get_weather: weatherTool().tool }, signal: controller.signal });
    const events: ToolLoopEvent[] = [];
    const gotDelta = deferred();
    const iterating = (async () => {
      for await (const e of stream) {
        events.push(e);
        if (e.type === 'text-delta' && e.step === 2) gotDelta.resolve();
      }
    })();
    iterating.catch(() => undefined);
    await within(gotDelta.promise, 2000, 'a text delta of step 2');
    controller.abort();
    expect(((await within(rejection(iterating), 1000, 'the iteration')) as Error).name).toBe('AbortError');
    await within(m.server.requests[1]!.socketClosed, 1000, 'the socket to close');
  });

  it('breaking out of the iteration stops the loop and tells running tools to stop', async () => {
    const m = await model([toolTurn(call('get_weather', '{"city": "Paris"}', 'call_w')), answer()]);
    let toolSignal: AbortSignal | undefined;
    const weather = weatherTool((_a, ctx) => {
      toolSignal = ctx.signal;
      return 'ok';
    });
    const stream = streamTools(m.client(), USER, { tools: { get_weather: weather.tool } });
    for await (const e of stream) if (e.type === 'tool-execution-result') break;
    expect(toolSignal?.aborted).toBe(true);
    await expect(stream.final()).rejects.toBeInstanceOf(WireforgeError);
    await new Promise((r) => setTimeout(r, 20));
    expect(m.server.requests).toHaveLength(1);
  });
});

describe('an error result on a wire with an error flag', () => {
  it('Anthropic: a reported error reaches the wire as a tool_result with is_error: true', async () => {
    const m = await startScriptedModel('anthropic-messages', [
      { calls: [{ id: 'toolu_01Err', name: 'get_weather', args: { city: 'Paris' } }] },
      { text: 'Sorry, the weather service is down.' },
    ]);
    open.push(m);
    const weather = weatherTool(() => {
      throw new Error('weather service down');
    });
    const r = await runTools(m.client(), USER, { tools: { get_weather: weather.tool } });
    expect(r.stoppedBy).toBe('answer');
    const sent = (m.server.requests[1]!.body as { messages: Array<{ role: string; content: unknown }> }).messages.at(-1)!;
    expect(sent.role).toBe('user');
    expect(sent.content).toEqual([expect.objectContaining({ type: 'tool_result', tool_use_id: 'toolu_01Err', is_error: true })]);
    const block = (sent.content as Array<{ content: unknown }>)[0]!;
    expect(typeof block.content === 'string' ? block.content : JSON.stringify(block.content)).toContain('weather service down');
  });
});

describe('defineTool typing', () => {
  it('types args from an `as const` JSON Schema (checked by tsc: pnpm typecheck)', () => {
    const schema = {
      type: 'object',
      properties: {
        city: { type: 'string' },
        days: { type: 'integer' },
        unit: { enum: ['c', 'f'] },
        tags: { type: 'array', items: { type: 'string' } },
        exact: { type: 'boolean' },
      },
      required: ['city', 'unit'],
      additionalProperties: false,
    } as const;
    type Args = { city: string; unit: 'c' | 'f'; days?: number; tags?: string[]; exact?: boolean };

    const tool = defineTool({
      parameters: schema,
      execute: (args, ctx) => {
        expectTypeOf(args).toEqualTypeOf<Args>();
        expectTypeOf(args.city).toBeString();
        expectTypeOf(args.unit).toEqualTypeOf<'c' | 'f'>();
        expectTypeOf(args.days).toEqualTypeOf<number | undefined>();
        expectTypeOf(ctx).toEqualTypeOf<ToolContext>();
        // @ts-expect-error not in the schema
        void args.country;
        return { ok: true as const, city: args.city };
      },
    });
    expectTypeOf<FromSchema<typeof schema>>().toEqualTypeOf<Args>();
    expectTypeOf(tool).toEqualTypeOf<ToolDefinition<Args, { ok: true; city: string }>>();
    expectTypeOf(tool.execute).parameter(0).toEqualTypeOf<Args>();

    // A schema that cannot be read into a type leaves args open rather than wrong.
    const loose = defineTool({ parameters: { type: 'object' }, execute: (args) => Object.keys(args).length });
    expectTypeOf(loose.execute).parameter(0).toEqualTypeOf<Record<string, unknown>>();

    // A tool defined this way fits runTools' tool set.
    expectTypeOf({ weather: tool, loose }).toMatchTypeOf<RunToolsOptions['tools']>();

    expect(tool.parameters).toBe(schema);
    expect(tool.execute({ city: 'Oslo', unit: 'c' }, {} as ToolContext)).toEqual({ ok: true, city: 'Oslo' });
  });
});

/** The scripted turn as the right kind of response for the request (stream or JSON). */
function respond(turn: ScriptedTurn, req: { body: unknown }) {
  const streaming = (req.body as { stream?: boolean }).stream === true;
  const b = buildTurn(ID, turn);
  return streaming ? sseResponse(b.stream) : { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(b.json) };
}
