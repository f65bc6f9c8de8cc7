// The workbench with its wait cap off (config.waitCap false): the arm that measures what the cap
// buys has to run the same server without it.
import { describe, expect, it } from 'vitest';
import { connected, ManualClock } from './helpers.ts';

async function workbench(waitCap: boolean) {
  const time = new ManualClock();
  return { time, wb: await connected({ clock: time.clock, sleep: time.sleep, waitCap }) };
}

describe('jobs_wait with the cap off', () => {
  it('waits past 30 s, as long as timeoutMs asks, and returns done', async () => {
    const { time, wb } = await workbench(false);
    await using _ = wb;
    await wb.call('jobs_start', { kind: 'build' });
    const wait = wb.call('jobs_wait', { timeoutMs: 100_000 });
    await time.advance(45_000);
    const reply = JSON.parse((await wait).text);
    expect(reply).toMatchObject({ done: true, waitedMs: 45_000 });
    expect(reply.remainingMs).toBeUndefined();
  });

  it('stops at 30 s with the cap on, as the control', async () => {
    const { time, wb } = await workbench(true);
    await using _ = wb;
    await wb.call('jobs_start', { kind: 'build' });
    const wait = wb.call('jobs_wait', { timeoutMs: 100_000 });
    await time.advance(45_000);
    expect(JSON.parse((await wait).text)).toMatchObject({ done: false, waitedMs: 30_000, remainingMs: 70_000 });
  });

  it('describes no cap it does not have', async () => {
    for (const waitCap of [true, false]) {
      const { wb } = await workbench(waitCap);
      await using _ = wb;
      const tool = (await wb.client.listTools()).tools.find((t) => t.name === 'jobs_wait')!;
      expect(tool.description?.includes('30 s')).toBe(waitCap);
      expect(JSON.stringify(tool.inputSchema).includes('30 s')).toBe(waitCap);
    }
  });
});
