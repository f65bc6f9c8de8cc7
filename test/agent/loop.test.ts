// The loop against a real lane: how a step ends, what it records, and a conversation every
// provider accepts.
import { afterEach, describe, expect, it } from 'vitest';
import { CEILING_TEXT, runStep } from '../../src/agent/index.ts';
import type { AgentContext, StepSpec } from '../../src/agent/index.ts';
import type { Lane } from '../../src/lane/index.ts';
import type { ChatMessage, ModelRequest, ModelResponse } from '../../src/models/types.ts';
import { retryingModel } from './failing.ts';
import { FakeModel, ok, world } from './world.ts';
import type { FakeTool } from './world.ts';

const lanes: Lane[] = [];
afterEach(async () => {
  await Promise.all(lanes.splice(0).map((lane) => lane.close()));
});

const echo: FakeTool = { name: 'echo', handler: (args) => ok(`echo ${JSON.stringify(args)}`) };

async function setup(tools: FakeTool[] = [echo], arm = 'on') {
  const w = await world(tools, arm);
  lanes.push(w.lane);
  return w;
}

const step = (over: Partial<StepSpec> = {}): StepSpec => ({ index: 0, prompt: 'do it', ceiling: 10, timeLimitMs: 10_000, ...over });
const toolMessages = (conversation: ChatMessage[]) => conversation.filter((m) => m.role === 'tool');

describe('the ceiling', () => {
  it('ends the step at the ceiling with exactly that many calls made, answering the calls over it', async () => {
    const { lane, server, trace } = await setup();
    const model = new FakeModel((_, n) => ({ calls: [{ name: 'wb__echo', args: { n, i: 0 } }, { name: 'wb__echo', args: { n, i: 1 } }] }));
    const conversation: ChatMessage[] = [];
    const result = await runStep({ model, lane, emit: trace.emit }, conversation, step({ ceiling: 5 }));

    expect(result.reason).toBe('ceiling');
    expect(result.calls).toHaveLength(5);
    expect(result.rounds).toBe(3);
    expect(server.received).toHaveLength(5);
    expect(trace.ofType('tool.call')).toHaveLength(5);
    const answers = toolMessages(conversation);
    expect(answers).toHaveLength(6);
    expect(answers.at(-1)).toMatchObject({ content: CEILING_TEXT, isError: true });
    expect(answers.at(-2)!.content).not.toBe(CEILING_TEXT);
  });

  it('lets the model answer after a round that spends exactly the ceiling', async () => {
    const { lane, trace } = await setup();
    const model = new FakeModel((_, n) => (n === 1 ? { calls: [{ name: 'wb__echo', args: { a: 1 } }, { name: 'wb__echo', args: { a: 2 } }] } : { text: 'done' }));
    const result = await runStep({ model, lane, emit: trace.emit }, [], step({ ceiling: 2 }));
    expect(result).toMatchObject({ reason: 'answered', answer: 'done', rounds: 2 });
    expect(result.calls).toHaveLength(2);
  });

  it('makes no call at a ceiling of 0 and ends at the ceiling when the model asks for one', async () => {
    const { lane, server, trace } = await setup();
    const model = new FakeModel(() => ({ calls: [{ name: 'wb__echo' }] }));
    const result = await runStep({ model, lane, emit: trace.emit }, [], step({ ceiling: 0 }));
    expect(result.reason).toBe('ceiling');
    expect(result.calls).toEqual([]);
    expect(server.received).toEqual([]);
  });
});

describe('the time limit', () => {
  it('ends the step while a tool call hangs, answering that call and the ones after it', async () => {
    let release!: () => void;
    const hung = new Promise<void>((resolve) => { release = resolve; });
    const { lane, trace } = await setup([
      { name: 'slow', handler: async () => { await hung; return ok('late'); } },
      { name: 'echo', handler: () => ok('echo') },
    ]);
    const model = new FakeModel(() => ({ calls: [{ name: 'wb__slow' }, { name: 'wb__echo' }] }));
    const conversation: ChatMessage[] = [];
    const result = await runStep({ model, lane, emit: trace.emit }, conversation, step({ timeLimitMs: 150 }));
    release();

    expect(result.reason).toBe('time_limit');
    expect(result.ms).toBeGreaterThanOrEqual(140);
    expect(result.ms).toBeLessThan(2_000);
    expect(result.calls).toEqual([expect.objectContaining({ tool: 'wb__slow', outcome: 'abandoned' })]);
    const answers = toolMessages(conversation);
    expect(answers.map((m) => m.toolName)).toEqual(['wb__slow', 'wb__echo']);
    expect(answers[0]!.content).toContain('may still be running');
    expect(answers[1]!.content).toContain('was not made');
  });

  it('aborts a model request that outlives the limit through its signal', async () => {
    let sawAbort = false;
    const { lane, trace } = await setup();
    const model = new FakeModel(() => ({}));
    model.complete = (_request: ModelRequest, signal?: AbortSignal) =>
      new Promise<ModelResponse>((_, reject) => signal?.addEventListener('abort', () => { sawAbort = true; reject(signal.reason); }));
    const result = await runStep({ model, lane, emit: trace.emit }, [], step({ timeLimitMs: 100 }));

    expect(result.reason).toBe('time_limit');
    expect(sawAbort).toBe(true);
    expect(trace.ofType('model.response').map((e) => e['error.type'])).toEqual(['time_limit']);
  });

  it('ends the step even when the adapter ignores its signal', async () => {
    const { lane, trace } = await setup();
    const model = new FakeModel(() => new Promise(() => undefined));
    const result = await runStep({ model, lane, emit: trace.emit }, [], step({ timeLimitMs: 100 }));
    expect(result.reason).toBe('time_limit');
  });
});

describe('errors and interrupts', () => {
  it('ends the step as errored with one line when the provider keeps failing', async () => {
    const { lane, trace } = await setup();
    const model = retryingModel();
    const result = await runStep({ model, lane, emit: trace.emit }, [], step());

    expect(result.reason).toBe('errored');
    expect(result.error).toMatch(/^failing: server error after 4 attempts: HTTP 503/);
    expect(result.error).not.toContain('\n');
    expect(model.attempts).toBe(4);
    expect(trace.ofType('model.response')).toEqual([
      expect.objectContaining({ attempts: 4, 'error.type': 'server', toolCalls: [] }),
    ]);
  });

  it('ends the step as errored("interrupted") when the run is interrupted during a call', async () => {
    const stop = new AbortController();
    // Interrupted once the call is running on the server: an event, not a guess at how long that takes.
    const { lane, trace } = await setup([{ name: 'slow', handler: () => {
      stop.abort();
      return new Promise<never>(() => undefined);
    } }]);
    const model = new FakeModel(() => ({ calls: [{ name: 'wb__slow' }] }));
    const result = await runStep({ model, lane, emit: trace.emit, signal: stop.signal }, [], step());
    expect(result).toMatchObject({ reason: 'errored', error: 'interrupted' });
  });

  it('rejects a ceiling or time limit that cannot be met', async () => {
    const { lane, trace } = await setup();
    const ctx: AgentContext = { model: new FakeModel(() => ({})), lane, emit: trace.emit };
    await expect(runStep(ctx, [], step({ ceiling: -1 }))).rejects.toThrow('step 0: ceiling must be an integer >= 0, got -1');
    await expect(runStep(ctx, [], step({ ceiling: 1.5 }))).rejects.toThrow(RangeError);
    await expect(runStep(ctx, [], step({ timeLimitMs: 0 }))).rejects.toThrow('timeLimitMs must be a finite number > 0, got 0');
  });
});
