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

describe('jobs_wait at a small time factor', () => {
  it('scales the cap: at 0.02 one call ends 600 ms of the real clock in, and a second call completes', async () => {
    // The real clock is injected, so a loaded machine cannot stretch it: 600 ms of it are the
    // 30 s cap, and the 45 s build ends 900 ms after it started.
    const time = new ManualClock();
    await using wb = await connected({ clock: time.clock, sleep: time.sleep, timeFactor: 0.02 });
    await wb.call('jobs_start', { kind: 'build' });
    let settled = false;
    const first = wb.call('jobs_wait', { timeoutMs: 120_000, pollIntervalMs: 1_000 }).finally(() => (settled = true));
    await time.advance(599);
    expect(settled).toBe(false);
    await time.advance(1);
    const reply = JSON.parse((await first).text);
    expect(reply).toMatchObject({ done: false, waitedMs: 30_000, remainingMs: 90_000 });
    const second = wb.call('jobs_wait', { timeoutMs: reply.remainingMs });
    await time.advance(300);
    const done = JSON.parse((await second).text);
    expect(done).toMatchObject({ done: true, waitedMs: 15_000 });
    expect(done.outputs['job-1']).toMatch(/^build ok/);
  });
});

