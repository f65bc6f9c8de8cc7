import { describe, expect, it } from 'vitest';
import { transientError } from '../../src/server/faults.ts';
import { LISTING_FAILED_MESSAGE } from '../../src/server/listingFaults.ts';
import { createWorkbench } from '../../src/server/workbench.ts';
import { connected, ManualClock, settle, tempDir } from './helpers.ts';

async function failures(seed: number, calls: number): Promise<boolean[]> {
  await using wb = await connected({ seed, faults: { errorRate: { catalog_lookup: 0.5 } } });
  const out: boolean[] = [];
  for (let i = 0; i < calls; i++) out.push((await wb.call('catalog_lookup', { topic: 'jobs' })).isError);
  return out;
}

describe('tool faults', () => {
  it('fail the same calls for the same seed, and other calls for another seed', async () => {
    const a = await failures(11, 24);
    expect(await failures(11, 24)).toEqual(a);
    expect(a.filter(Boolean).length).toBeGreaterThan(4);
    expect(a.filter(Boolean).length).toBeLessThan(20);
    expect(await failures(12, 24)).not.toEqual(a);
  });

  it('fail with a transient error that says the call had no effect', async () => {
    await using wb = await connected({ faults: { errorRate: { files_write: 1 } } });
    expect(await wb.call('files_write', { path: 'x.txt', content: 'x' })).toEqual({
      text: transientError('files_write'),
      isError: true,
    });
    expect((await wb.call('files_list')).text).not.toContain('x.txt');
  });

  it('fail a tool twice and then let it work (failFirst)', async () => {
    await using wb = await connected({ faults: { failFirst: { sql_describe: 2 } } });
    const outcomes = [];
    for (let i = 0; i < 4; i++) outcomes.push((await wb.call('sql_describe')).isError);
    expect(outcomes).toEqual([true, true, false, false]);
  });

  it('apply * to every tool without its own entry', async () => {
    await using wb = await connected({ faults: { errorRate: { '*': 1, catalog_lookup: 0 } } });
    expect((await wb.call('logs_read')).isError).toBe(true);
    expect((await wb.call('catalog_lookup', { topic: 'jobs' })).isError).toBe(false);
  });

  it('hold a reply for the added latency, in workbench time', async () => {
    const time = new ManualClock();
    await using wb = await connected({ clock: time.clock, sleep: time.sleep, faults: { latencyMs: { catalog_search: 2_000 } } });
    let done = false;
    const call = wb.call('catalog_search', { query: 'jobs' }).then((r) => ((done = true), r));
    await time.advance(1_999);
    expect(done).toBe(false);
    await time.advance(1);
    expect((await call).isError).toBe(false);
  });

  it('refuse a fault for a tool that does not exist, naming it', async () => {
    await using dir = tempDir();
    expect(() => createWorkbench({ workspace: dir.dir, faults: { errorRate: { files_reed: 0.5 } } })).toThrow(
      /^faults\.errorRate: unknown tool "files_reed"; use one of files_list/,
    );
    expect(() => createWorkbench({ workspace: dir.dir, faults: { errorRate: { files_read: 2 } } })).toThrow(
      /faults\.errorRate\.files_read/,
    );
    expect(() => createWorkbench({ workspace: dir.dir, faults: { unknownFault: true } as never })).toThrow(RangeError);
  });
});

describe('listing faults', () => {
  it('fail the first listings with an error, then list', async () => {
    await using wb = await connected({ faults: { listing: { failFirst: 2 } } });
    await expect(wb.client.listTools()).rejects.toThrow(LISTING_FAILED_MESSAGE);
    await expect(wb.client.listTools()).rejects.toThrow(LISTING_FAILED_MESSAGE);
    expect((await wb.client.listTools()).tools.length).toBeGreaterThan(10);
  });

  it('stall a listing for the configured workbench time, leaving other requests alone', async () => {
    const time = new ManualClock();
    await using wb = await connected({ clock: time.clock, sleep: time.sleep, faults: { listing: { stallMs: 5_000, stallFirst: 1 } } });
    let listed = false;
    const listing = wb.client.listTools().then((r) => ((listed = true), r));
    await settle();
    expect((await wb.call('catalog_lookup', { topic: 'jobs' })).isError).toBe(false);
    await time.advance(4_999);
    expect(listed).toBe(false);
    await time.advance(1);
    expect((await listing).tools.length).toBeGreaterThan(10);
    let second = false;
    const next = wb.client.listTools().then(() => (second = true));
    await settle();
    await settle();
    expect(second).toBe(true);
    await next;
  });
});

describe('workbench options', () => {
  it('refuse a missing workspace and a bad time factor in one line each', async () => {
    expect(() => createWorkbench({ workspace: '/nonexistent/ladder-ws' })).toThrow(
      'workspace /nonexistent/ladder-ws does not exist; create it or pass another folder',
    );
    await using dir = tempDir();
    expect(() => createWorkbench({ workspace: dir.dir, timeFactor: 0 })).toThrow(/^workbench options\.timeFactor: /);
    expect(() => createWorkbench({ workspace: dir.dir, dbFile: '../out.db' })).toThrow(/outside the workspace/);
    expect(() => createWorkbench({ workspace: dir.dir, setupSql: 'create tabel t (x)' })).toThrow(
      'workbench options.setupSql: near "tabel": syntax error',
    );
  });
});
