// Each synthetic pathology shows in the trace where its incident says it should, and the
// mechanism that answers it changes what the trace shows.
import { describe, expect, it } from 'vitest';
import { IMPATIENT_TIMEOUT_MS } from '../../src/models/index.ts';
import { CAP_MS, callsOf, runRung } from './syntheticWorld.ts';

describe('synthetic:looper (the same question sixteen times)', () => {
  it('re-asks the catalog until the third identical call is short-circuited, then carries on (arm on)', async () => {
    const run = await runRung('looper', 1, 'on');
    const calls = callsOf(run, 0);
    expect(calls.map((c) => c.outcome)).toEqual(['ok', 'ok', 'short_circuited', 'ok']);
    expect(new Set(calls.slice(0, 3).map((c) => c.key)).size).toBe(1);
    expect(calls[3]!.name).toBe('wb__files_write');
    expect(run.results[0]!.reason).toBe('answered');
  });

  it('re-asks it until the ceiling when nothing makes the answer look different (arm off)', async () => {
    const run = await runRung('looper', 1, 'off', { ceiling: 6 });
    const calls = callsOf(run, 0);
    expect(run.results[0]!.reason).toBe('ceiling');
    expect(calls).toHaveLength(6);
    expect(calls.every((c) => c.name === 'wb__catalog_lookup' && c.key === calls[0]!.key && c.outcome === 'ok')).toBe(true);
    expect(run.server.sent('files_write')).toEqual([]);
  });

  it('follows a step without a catalog call as the reference does', async () => {
    const [looper, reference] = [await runRung('looper', 1, 'off'), await runRung('reference', 1, 'off')];
    expect(callsOf(looper, 2)).toEqual(callsOf(reference, 2));
  });
});

describe('synthetic:retrier (a dead tool called six times in one turn)', () => {
  it('sends a dead call once and stops at the refusal with the breaker on', async () => {
    const run = await runRung('retrier', 1, 'on');
    const calls = callsOf(run, 2);
    expect(calls.map((c) => `${c.name}:${c.outcome}`)).toEqual([
      'wb__browser_navigate:failed', 'wb__browser_navigate:refused', 'wb__files_read:ok',
    ]);
    expect(run.server.sent('browser_navigate')).toHaveLength(1);
  });

  it('sends it six times in the turn, unchanged, with the breaker off', async () => {
    const run = await runRung('retrier', 1, 'off');
    const navigate = callsOf(run, 2).filter((c) => c.name === 'wb__browser_navigate');
    expect(navigate).toHaveLength(6);
    expect(new Set(navigate.map((c) => c.key)).size).toBe(1);
    expect(run.server.sent('browser_navigate')).toHaveLength(6);
    expect(callsOf(run, 2).at(-1)!.name).toBe('wb__files_read');
  });
});

describe('synthetic:impatient (a long wait whose reply was lost)', () => {
  it('asks a wait for 100 s and then follows the remainingMs it is given', async () => {
    const run = await runRung('impatient', 1, 'on');
    const asked = run.server.sent('jobs_wait').map((c) => c.args.timeoutMs);
    expect(asked[0]).toBe(IMPATIENT_TIMEOUT_MS);
    expect(asked).toEqual([100_000, 100_000 - CAP_MS, 100_000 - 2 * CAP_MS, 100_000 - 3 * CAP_MS]);
    expect(run.results[1]!.reason).toBe('answered');
  });

  it('leaves calls without a timeoutMs as the reference sends them', async () => {
    const [impatient, reference] = [await runRung('impatient', 1, 'on'), await runRung('reference', 1, 'on')];
    expect(callsOf(impatient, 0)).toEqual(callsOf(reference, 0));
  });
});

describe('synthetic:oblivious (a refresh that must not promise too much)', () => {
  it('never calls harness__refresh_tools, so the tool that appeared stays unseen, where the reference refreshes', async () => {
    const [oblivious, reference] = [await runRung('oblivious', 1, 'on'), await runRung('reference', 1, 'on')];
    const refreshes = (run: typeof oblivious) => run.events.filter((e) => e.type === 'tool.call' && e['gen_ai.tool.name'] === 'harness__refresh_tools');
    expect(refreshes(oblivious)).toHaveLength(0);
    expect(refreshes(reference)).toHaveLength(1);
    expect(oblivious.server.sent('notes_read')).toHaveLength(0);
    expect(reference.server.sent('notes_read')).toHaveLength(1);
  });
});
