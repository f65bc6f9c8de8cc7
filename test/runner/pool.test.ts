import { describe, expect, it } from 'vitest';
import { PassPool } from '../../src/runner/pool.ts';
import type { Admission } from '../../src/runner/pool.ts';

/** Work that ends when the test says so, recording what runs at once. */
function gatedWork() {
  const ends = new Map<number, () => void>();
  const started: number[] = [];
  let running = 0;
  let most = 0;
  const work = (item: number) => new Promise<void>((resolve) => {
    started.push(item);
    running += 1;
    most = Math.max(most, running);
    ends.set(item, () => {
      running -= 1;
      resolve();
    });
  });
  const end = async (item: number) => {
    ends.get(item)!();
    await new Promise((r) => setImmediate(r));
  };
  return { work, end, started, most: () => most };
}

const flush = () => new Promise((r) => setImmediate(r));

describe('the pass pool', () => {
  it('starts passes in order, as many at once as the rule admits', async () => {
    const g = gatedWork();
    const pool = new PassPool<number>((_item, running) => (running < 2 ? 'start' : 'wait'));
    const done = pool.run([0, 1, 2, 3], g.work);
    await flush();
    expect(g.started).toStrictEqual([0, 1]);
    await g.end(1);
    expect(g.started).toStrictEqual([0, 1, 2]);
    await g.end(0);
    await g.end(2);
    await g.end(3);
    expect(await done).toStrictEqual({ started: 4, stopped: false });
    expect(g.most()).toBe(2);
  });

  it('asks again when woken, so a level that rises starts more at once', async () => {
    const g = gatedWork();
    let level = 1;
    const pool = new PassPool<number>((_item, running) => (running < level ? 'start' : 'wait'));
    const done = pool.run([0, 1, 2], g.work);
    await flush();
    expect(g.started).toStrictEqual([0]);
    level = 3;
    pool.wake();
    await flush();
    expect(g.started).toStrictEqual([0, 1, 2]);
    for (const i of [0, 1, 2]) await g.end(i);
    await done;
  });

  it('stops starting when the rule says stop, and waits for the passes already running', async () => {
    const g = gatedWork();
    const verdicts: Admission[] = ['start', 'start', 'stop'];
    const pool = new PassPool<number>(() => verdicts.shift() ?? 'start');
    const done = pool.run([0, 1, 2, 3], g.work);
    await flush();
    let settled = false;
    void done.then(() => void (settled = true));
    await g.end(0);
    expect(settled).toBe(false);
    await g.end(1);
    expect(await done).toStrictEqual({ started: 2, stopped: true });
    expect(g.started).toStrictEqual([0, 1]);
  });

  it('refuses to wait with nothing running, which would never end', async () => {
    const pool = new PassPool<number>(() => 'wait');
    await expect(pool.run([0], async () => undefined)).rejects.toThrow('the admission rule waits with no pass running');
  });

  it('throws the first error of a work once every started pass has settled', async () => {
    const g = gatedWork();
    const pool = new PassPool<number>((_item, running) => (running < 2 ? 'start' : 'wait'));
    const bug = new Error('bug');
    const done = pool.run([0, 1], (item) => (item === 0 ? Promise.reject(bug) : g.work(item)));
    await flush();
    let settled = false;
    void done.catch(() => void (settled = true));
    await flush();
    expect(settled).toBe(false);
    await g.end(1);
    await expect(done).rejects.toBe(bug);
  });

  it('does nothing with no items', async () => {
    expect(await new PassPool<number>(() => 'stop').run([], async () => undefined)).toStrictEqual({ started: 0, stopped: false });
  });
});
