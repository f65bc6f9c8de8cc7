// The synthetic agents as a model: seeded, deterministic, following the reference through the
// real loop and lane. The pathologies are in synthetic-pathologies.test.ts.
import { describe, expect, it } from 'vitest';
import { createModel, createSyntheticModel, ModelConfigError, SYNTHETIC_POLICIES } from '../../src/models/index.ts';
import type { ModelRequest } from '../../src/models/types.ts';
import { CAP_MS, SCRIPT, callsOf, runRung, timeless } from './syntheticWorld.ts';

describe('seeds', () => {
  it('gives the same trace twice for the same seed and arm', async () => {
    for (const policy of SYNTHETIC_POLICIES) {
      const [a, b] = [await runRung(policy, 7, 'on'), await runRung(policy, 7, 'on')];
      expect(timeless(a.events), policy).toEqual(timeless(b.events));
      expect(a.conversation, policy).toEqual(b.conversation);
    }
  });

  it('changes the reported token counts with the seed, and nothing the reference does', async () => {
    const [a, b] = [await runRung('reference', 1, 'on'), await runRung('reference', 2, 'on')];
    const tokens = (run: typeof a) => run.events.flatMap((e) => (e.type === 'model.response' ? [[e['gen_ai.usage.input_tokens'], e['gen_ai.usage.output_tokens']]] : []));
    expect(tokens(a)).not.toEqual(tokens(b));
    expect(a.conversation).toEqual(b.conversation);
    expect(a.results.map((r) => r.reason)).toEqual(b.results.map((r) => r.reason));
    expect(a.results.map((r) => r.answer)).toEqual(SCRIPT.steps.map((s) => s.answer));
  });
});

describe('synthetic:reference', () => {
  it('makes the reference calls one per round and answers every step with the reference answer', async () => {
    const run = await runRung('reference', 1, 'on');
    expect(run.results.map((r) => r.reason)).toEqual(['answered', 'answered', 'answered', 'answered', 'answered']);
    expect(run.results.map((r) => r.rounds)).toEqual([3, 3, 3, 3, 2]);
    expect(callsOf(run, 0).map((c) => c.name)).toEqual(['wb__catalog_lookup', 'wb__files_write']);
    const asked = run.conversation.flatMap((m) => (m.role === 'assistant' ? [m.toolCalls?.length ?? 0] : []));
    expect(Math.max(...asked)).toBe(1);
  });

  it('waits out a capped wait by asking again for the remainingMs it was given', async () => {
    const run = await runRung('reference', 1, 'on');
    expect(run.server.sent('jobs_wait').map((c) => c.args.timeoutMs)).toEqual([60_000, 60_000 - CAP_MS]);
  });

  it('calls harness__refresh_tools once when a tool it needs is missing, then finds the tool next turn', async () => {
    const run = await runRung('reference', 1, 'on');
    expect(callsOf(run, 3).map((c) => c.name)).toEqual(['wb__notes_enable', 'harness__refresh_tools']);
    expect(callsOf(run, 4).map((c) => c.name)).toEqual(['wb__notes_read']);
  });

  it('skips a missing tool without refreshing when no refresh is offered (roster off)', async () => {
    const run = await runRung('reference', 1, 'off');
    expect(callsOf(run, 3).map((c) => c.name)).toEqual(['wb__notes_enable']);
    expect(run.server.sent('notes_read')).toHaveLength(1);
  });

  it('gives every tool call of the conversation its own id', async () => {
    const run = await runRung('reference', 1, 'on');
    const ids = run.conversation.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []).map((c) => c.id) : []));
    expect(ids.length).toBeGreaterThan(5);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('follows every step in one turn and answers them all at the end in one-shot mode', async () => {
    const run = await runRung('reference', 1, 'on', { oneShot: true });
    expect(run.results).toHaveLength(1);
    expect(run.server.received.map((c) => c.name)).toEqual([
      'catalog_lookup', 'files_write', 'jobs_wait', 'jobs_wait', 'browser_navigate', 'files_read', 'notes_enable',
    ]);
    expect(run.results[0]!.answer).toBe(SCRIPT.steps.map((s) => s.answer).join('\n\n'));
  });
});

describe('making one', () => {
  it('builds synthetic:<policy> through createModel when given a script and a seed', async () => {
    const model = createModel('synthetic:looper', { script: SCRIPT, seed: 3 });
    expect([model.spec, model.provider, model.model]).toEqual(['synthetic:looper', 'synthetic', 'looper']);
    const request: ModelRequest = { messages: [{ role: 'user', content: 'go' }], tools: [{ name: 'wb__catalog_lookup', description: '', inputSchema: {} }] };
    const response = await model.complete(request);
    expect(response.toolCalls).toEqual([{ id: 'synthetic_1', name: 'wb__catalog_lookup', args: { topic: 'sql' } }]);
    expect(response.details).toEqual({ provider: 'synthetic', policy: 'looper', seed: 3 });
  });

  it('refuses to build one without a script or a seed, in one line', () => {
    expect(() => createModel('synthetic:looper')).toThrow(ModelConfigError);
    expect(() => createModel('synthetic:looper', { script: SCRIPT })).toThrow(/reference solution and a seed/);
  });

  it('rejects an empty script and a request past its last step', async () => {
    expect(() => createSyntheticModel('reference', { script: { steps: [] }, seed: 1 })).toThrow('synthetic:reference: the script needs at least one step');
    const model = createSyntheticModel('reference', { script: { steps: [{ calls: [], answer: 'a' }] }, seed: 1 });
    const two: ModelRequest = { messages: [{ role: 'user', content: '1' }, { role: 'assistant', content: 'a' }, { role: 'user', content: '2' }], tools: [] };
    await expect(model.complete(two)).rejects.toThrow('request has 2 user messages, the script has 1 steps');
  });
});
