import { describe, expect, it } from 'vitest';
import { connected, ManualClock } from './helpers.ts';

async function manual() {
  const time = new ManualClock();
  const wb = await connected({ clock: time.clock, sleep: time.sleep, seed: 7 });
  return { time, wb };
}

const lines = (text: string) => text.split('\n').slice(1);

describe('logs_read', () => {
  it('gives different answers to two reads, even at the same instant', async () => {
    const { wb } = await manual();
    await using _ = wb;
    const first = await wb.call('logs_read');
    const second = await wb.call('logs_read');
    expect(first.isError).toBe(false);
    expect(second.text).not.toBe(first.text);
    expect(first.text).toBe('no lines from line 1 yet (the log has 0 lines so far); read again later');
    expect(lines(second.text)).toEqual(['1 [+0.000s] DEBUG logs: a reader found no new lines']);
  });

  it('grows with workbench time, one background line per interval', async () => {
    const { time, wb } = await manual();
    await using _ = wb;
    await time.advance(6_000);
    const read = await wb.call('logs_read');
    expect(read.text.split('\n')[0]).toMatch(/^log lines 1-3 of 3/);
    expect(lines(read.text).map((line) => line.split(' ')[1])).toEqual(['[+2.000s]', '[+4.000s]', '[+6.000s]']);
  });

  it('shows jobs starting and finishing at the times they did', async () => {
    const { time, wb } = await manual();
    await using _ = wb;
    await time.advance(1_000);
    await wb.call('jobs_start', { kind: 'lint' });
    await time.advance(5_000);
    const read = await wb.call('logs_read', { contains: 'jobs:' });
    expect(lines(read.text)).toEqual([
      '1 [+1.000s] INFO  jobs: job-1 (lint) started',
      '4 [+4.000s] INFO  jobs: job-1 (lint) finished: lint ok: 0 problems',
    ]);
  });

  it('pages from a line number, and says where to continue', async () => {
    const { time, wb } = await manual();
    await using _ = wb;
    await time.advance(20_000);
    const page = await wb.call('logs_read', { fromLine: 4, maxLines: 3 });
    expect(page.text.split('\n')[0]).toBe(
      'log lines 4-6 of 10; the log keeps growing: read again with fromLine 7 for newer lines',
    );
    expect(lines(page.text).map((line) => line.split(' ')[0])).toEqual(['4', '5', '6']);
  });

  it('is the same log for the same seed', async () => {
    const a = await manual();
    const b = await manual();
    await using _a = a.wb;
    await using _b = b.wb;
    await a.time.advance(30_000);
    await b.time.advance(30_000);
    expect((await a.wb.call('logs_read')).text).toBe((await b.wb.call('logs_read')).text);
  });

  it('refuses a line past the end, saying how long the log is', async () => {
    const { time, wb } = await manual();
    await using _ = wb;
    await time.advance(4_000);
    expect(await wb.call('logs_read', { fromLine: 9 })).toEqual({
      text: 'fromLine 9 is past the end: the log has 2 lines so far',
      isError: true,
    });
  });

  it('records files written through the tools', async () => {
    const { wb } = await manual();
    await using _ = wb;
    await wb.call('files_write', { path: 'a.txt', content: 'abc' });
    expect((await wb.call('logs_read', { contains: 'files:' })).text).toContain('INFO  files: wrote a.txt (3 bytes)');
  });
});
