import { describe, expect, it } from 'vitest';
import type { Sleep } from '../../src/reliability/clock.ts';
import type { FaultsInput } from '../../src/server/options.ts';
import { connected, ManualClock, settle } from './helpers.ts';

const LINT_OUTPUT = 'lint ok: 0 problems';
const AGAIN_WITHIN_BUDGET = (ms: number) =>
  `Not finished yet; one call waits at most 30 s. Call jobs_wait again with timeoutMs: ${ms}.`;
const BUDGET_SPENT = 'Not finished, and your timeoutMs is used up. Call jobs_wait again with a new timeoutMs to keep waiting.';

/** A workbench on the manual clock that also counts the sleepers still waiting. */
async function manual(faults: FaultsInput = {}) {
  const time = new ManualClock();
  let pending = 0;
  const sleep: Sleep = (ms, signal) => {
    pending += 1;
    return time.sleep(ms, signal).finally(() => (pending -= 1));
  };
  const wb = await connected({ clock: time.clock, sleep, faults });
  return { time, wb, pending: () => pending };
}

const view = (id: string, kind: string, status: string, elapsedMs: number) => ({ id, kind, status, elapsedMs });

describe('jobs_wait replies', () => {
  it('is declared read-only and closed-world', async () => {
    const { wb } = await manual();
    await using _ = wb;
    const wait = (await wb.client.listTools()).tools.find((tool) => tool.name === 'jobs_wait');
    expect(wait?.annotations).toEqual({ readOnlyHint: true, openWorldHint: false });
  });

  it('carries the outputs and no next step once the jobs are done', async () => {
    const { time, wb } = await manual();
    await using _ = wb;
    await wb.call('jobs_start', { kind: 'lint' });
    const wait = wb.call('jobs_wait', { timeoutMs: 60_000 });
    await time.advance(3_000);
    expect(JSON.parse((await wait).text)).toEqual({
      done: true,
      jobs: [view('job-1', 'lint', 'done', 3_000)],
      outputs: { 'job-1': LINT_OUTPUT },
      waitedMs: 3_000,
    });
  });

  it('gives a capped wait the outputs of the finished jobs only, and the whole remainingMs to pass on', async () => {
    const { time, wb } = await manual();
    await using _ = wb;
    await wb.call('jobs_start', { kind: 'lint' });
    await wb.call('jobs_start', { kind: 'build' });
    const wait = wb.call('jobs_wait', { timeoutMs: 100_000.6 });
    await time.advance(30_000);
    expect(JSON.parse((await wait).text)).toEqual({
      done: false,
      jobs: [view('job-1', 'lint', 'done', 3_000), view('job-2', 'build', 'running', 30_000)],
      outputs: { 'job-1': LINT_OUTPUT },
      remainingMs: 70_000,
      waitedMs: 30_000,
      next: AGAIN_WITHIN_BUDGET(70_000),
    });
  });

  it('says the budget is spent, with no output of a running job, when timeoutMs runs out', async () => {
    const { time, wb } = await manual();
    await using _ = wb;
    await wb.call('jobs_start', { kind: 'build' });
    const wait = wb.call('jobs_wait', { timeoutMs: 4_999.6 });
    await time.advance(5_000);
    expect(JSON.parse((await wait).text)).toEqual({
      done: false,
      jobs: [view('job-1', 'build', 'running', 5_000)],
      outputs: {},
      waitedMs: 5_000,
      next: BUDGET_SPENT,
    });
  });
});

describe('jobs_wait on every job', () => {
  it('waits for a job started while it waits, not only for the jobs there were when it began', async () => {
    const { time, wb } = await manual();
    await using _ = wb;
    await wb.call('jobs_start', { kind: 'lint' });
    let settled = false;
    const wait = wb.call('jobs_wait', { timeoutMs: 20_000 }).finally(() => (settled = true));
    await time.advance(1_000);
    await wb.call('jobs_start', { kind: 'build' });
    await time.advance(5_000); // lint is done at 3 s; build is still running
    expect(settled).toBe(false);
    await time.advance(14_000);
    const reply = JSON.parse((await wait).text);
    expect(reply.done).toBe(false);
    expect(reply.jobs.map((job: { id: string; status: string }) => [job.id, job.status])).toEqual([['job-1', 'done'], ['job-2', 'running']]);
  });
});

describe('jobs_wait on a congested job board (faults.jobReadMs)', () => {
  it('charges slow reads to the wait and still returns the outputs when there is time for them', async () => {
    const { time, wb } = await manual({ jobReadMs: 1_000 });
    await using _ = wb;
    await wb.call('jobs_start', { kind: 'lint' });
    const wait = wb.call('jobs_wait', { timeoutMs: 60_000 });
    await time.advance(4_000); // reads 0-1 s, sleep to 2 s, read 2-3 s sees it done, final read 3-4 s
    expect(JSON.parse((await wait).text)).toEqual({
      done: true,
      jobs: [view('job-1', 'lint', 'done', 3_000)],
      outputs: { 'job-1': LINT_OUTPUT },
      waitedMs: 4_000,
    });
  });

  it('returns at the cap with the jobs unavailable when no read answers in time', async () => {
    const { time, wb } = await manual({ jobReadMs: 40_000 });
    await using _ = wb;
    await wb.call('jobs_start', { kind: 'build' });
    let settled = false;
    const wait = wb.call('jobs_wait', { timeoutMs: 120_000 }).finally(() => (settled = true));
    await time.advance(29_999);
    expect(settled).toBe(false);
    await time.advance(1);
    expect(JSON.parse((await wait).text)).toEqual({
      done: false,
      jobs: null,
      jobsUnavailable: true,
      outputsUnavailable: true,
      remainingMs: 90_000,
      waitedMs: 30_000,
      next: AGAIN_WITHIN_BUDGET(90_000),
    });
  });

  it('returns the list without outputs when the final read could not finish before the cap', async () => {
    const { time, wb } = await manual({ jobReadMs: 20_000 });
    await using _ = wb;
    await wb.call('jobs_start', { kind: 'build' });
    const wait = wb.call('jobs_wait', { timeoutMs: 120_000 });
    await time.advance(20_000); // one read took 20 s; another and the final read cannot fit in 10 s
    expect(JSON.parse((await wait).text)).toEqual({
      done: false,
      jobs: [view('job-1', 'build', 'running', 20_000)],
      outputsUnavailable: true,
      remainingMs: 100_000,
      waitedMs: 20_000,
      next: AGAIN_WITHIN_BUDGET(100_000),
    });
  });
});

describe('jobs_wait timers', () => {
  it('releases its deadline timer when the jobs finish first', async () => {
    const { time, wb, pending } = await manual();
    await using _ = wb;
    await wb.call('jobs_start', { kind: 'lint' });
    expect(pending()).toBe(1); // the job's own end
    const wait = wb.call('jobs_wait', { timeoutMs: 60_000 });
    await time.advance(3_000);
    expect(JSON.parse((await wait).text).done).toBe(true);
    expect(pending()).toBe(0);
  });

  it('stops waiting when the client cancels the call', async () => {
    const { time, wb, pending } = await manual();
    await using _ = wb;
    await wb.call('jobs_start', { kind: 'build' });
    const cancel = new AbortController();
    const wait = wb.client.callTool({ name: 'jobs_wait', arguments: { timeoutMs: 60_000 } }, undefined, {
      signal: cancel.signal,
    });
    await time.advance(2_500);
    expect(pending()).toBe(3); // the build's end, the wait's deadline, its poll sleep
    cancel.abort(new Error('caller gave up'));
    await expect(wait).rejects.toThrow('caller gave up');
    await settle();
    expect(pending()).toBe(1);
  });
});
