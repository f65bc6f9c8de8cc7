import { describe, expect, it } from 'vitest';
import { connected, ManualClock, settle } from './helpers.ts';

async function manual(options = {}) {
  const time = new ManualClock();
  const wb = await connected({ clock: time.clock, sleep: time.sleep, ...options });
  return { time, wb };
}

describe('jobs tools', () => {
  it('start a job that runs for its configured time', async () => {
    const { time, wb } = await manual();
    await using _ = wb;
    const started = JSON.parse((await wb.call('jobs_start', { kind: 'lint' })).text);
    expect(started).toEqual({ started: { id: 'job-1', kind: 'lint', status: 'running', elapsedMs: 0 } });
    await time.advance(2_999);
    expect(JSON.parse((await wb.call('jobs_list')).text).jobs[0].status).toBe('running');
    await time.advance(1);
    expect(JSON.parse((await wb.call('jobs_list')).text).jobs).toEqual([
      { id: 'job-1', kind: 'lint', status: 'done', elapsedMs: 3_000 },
    ]);
  });

  it('names the kinds when asked for one it does not have', async () => {
    const { wb } = await manual();
    await using _ = wb;
    expect(await wb.call('jobs_start', { kind: 'deploy' })).toEqual({
      text: 'unknown job kind "deploy"; kinds are build, lint, test',
      isError: true,
    });
  });

  it('say in the wait description that one call stops after 30 s and should be repeated', async () => {
    const { wb } = await manual();
    await using _ = wb;
    const wait = (await wb.client.listTools()).tools.find((tool) => tool.name === 'jobs_wait');
    expect(wait?.description).toContain('stops waiting after 30 s');
    expect(wait?.description).toContain('call jobs_wait again with timeoutMs set to remainingMs');
  });

  it('return a wait at the 30 s cap with a legal remainingMs, and finish it on the second call', async () => {
    const { time, wb } = await manual();
    await using _ = wb;
    await wb.call('jobs_start', { kind: 'build' }); // 45 s
    await wb.call('jobs_start', { kind: 'test' }); // 40 s
    let settled = false;
    const first = wb.call('jobs_wait', { timeoutMs: 120_000 }).finally(() => (settled = true));
    await time.advance(29_999);
    expect(settled).toBe(false);
    await time.advance(1);
    await settle();
    expect(settled).toBe(true);
    const capped = JSON.parse((await first).text);
    expect(capped.done).toBe(false);
    expect(capped.waitedMs).toBe(30_000);
    expect(capped.remainingMs).toBe(90_000);
    expect(capped.jobs.map((job: { status: string }) => job.status)).toEqual(['running', 'running']);
    expect(capped.next).toContain('timeoutMs: 90000');

    const second = wb.call('jobs_wait', { timeoutMs: capped.remainingMs });
    await time.advance(15_000);
    const finished = JSON.parse((await second).text);
    expect(finished.done).toBe(true);
    expect(finished.remainingMs).toBeUndefined();
    expect(finished.jobs.map((job: { status: string }) => job.status)).toEqual(['done', 'done']);
    expect(finished.outputs['job-1']).toMatch(/^build ok: build-[0-9a-f]{8}$/);
    expect(finished.outputs['job-2']).toBe('test ok: 128 passed, 0 failed');
  });

  it('return as soon as the jobs are done, inside the cap', async () => {
    const { time, wb } = await manual();
    await using _ = wb;
    await wb.call('jobs_start', { kind: 'lint' });
    const wait = wb.call('jobs_wait', { jobIds: ['job-1'], timeoutMs: 60_000, pollIntervalMs: 500 });
    await time.advance(3_000);
    const reply = JSON.parse((await wait).text);
    expect(reply).toMatchObject({ done: true, waitedMs: 3_000, outputs: { 'job-1': 'lint ok: 0 problems' } });
    expect(reply.remainingMs).toBeUndefined();
  });

  it('omit remainingMs when the caller budget is spent, and say how to go on', async () => {
    const { time, wb } = await manual();
    await using _ = wb;
    await wb.call('jobs_start', { kind: 'build' });
    const wait = wb.call('jobs_wait', { timeoutMs: 5_000 });
    await time.advance(5_000);
    const reply = JSON.parse((await wait).text);
    expect(reply.done).toBe(false);
    expect(reply.waitedMs).toBe(5_000);
    expect('remainingMs' in reply).toBe(false);
    expect(reply.next).toContain('timeoutMs is used up');
  });

  it('wait only for the jobs named', async () => {
    const { time, wb } = await manual();
    await using _ = wb;
    await wb.call('jobs_start', { kind: 'build' });
    await wb.call('jobs_start', { kind: 'lint' });
    const wait = wb.call('jobs_wait', { jobIds: ['job-2'] });
    await time.advance(3_000);
    const reply = JSON.parse((await wait).text);
    expect(reply.done).toBe(true);
    expect(reply.jobs.map((job: { id: string }) => job.id)).toEqual(['job-2']);
  });

  it('refuse an unknown job id before waiting', async () => {
    const { wb } = await manual();
    await using _ = wb;
    expect(await wb.call('jobs_wait', { jobIds: ['job-9'] })).toEqual({
      text: 'unknown job id job-9; jobs are: none yet',
      isError: true,
    });
  });

  it('refuse a timeoutMs below the schema minimum', async () => {
    const { wb } = await manual();
    await using _ = wb;
    const reply = await wb.call('jobs_wait', { timeoutMs: 999 });
    expect(reply.isError).toBe(true);
    expect(reply.text).toContain('timeoutMs');
  });

  it('report a job configured to fail as failed, with its output', async () => {
    const { time, wb } = await manual({ jobs: { deploy: { durationMs: 1_000, fails: true, output: 'deploy failed: disk full' } } });
    await using _ = wb;
    await wb.call('jobs_start', { kind: 'deploy' });
    const wait = wb.call('jobs_wait', {});
    await time.advance(1_000);
    const reply = JSON.parse((await wait).text);
    expect(reply.done).toBe(true);
    expect(reply.jobs[0].status).toBe('failed');
    expect(reply.outputs).toEqual({ 'job-1': 'deploy failed: disk full' });
  });
});

describe('jobs_wait in real time at a small time factor', () => {
  it('returns well before the real cap with a legal remainingMs, and a second call completes', async () => {
    // The 30 s cap lasts 600 ms of real time. No bound on real time here (a loaded machine may
    // stretch any of it; the manual-clock tests pin the cap): the first wait ends capped, at
    // least 30 s of workbench time in, and the second finishes the 45 s build.
    await using wb = await connected({ timeFactor: 0.02 });
    await wb.call('jobs_start', { kind: 'build' });
    const first = JSON.parse((await wb.call('jobs_wait', { timeoutMs: 120_000, pollIntervalMs: 1_000 })).text);
    expect(first.done).toBe(false);
    expect(first.waitedMs).toBeGreaterThanOrEqual(30_000);
    expect(Number.isInteger(first.remainingMs)).toBe(true);
    expect(first.remainingMs).toBeGreaterThanOrEqual(1_000);
    expect(first.remainingMs).toBeLessThanOrEqual(120_000 - first.waitedMs);
    const second = JSON.parse((await wb.call('jobs_wait', { timeoutMs: first.remainingMs })).text);
    expect(second.done).toBe(true);
    expect(second.outputs['job-1']).toMatch(/^build ok/);
  });
});
