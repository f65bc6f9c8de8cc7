// An external agent whose steps ran as separate conversations is said wherever the run is named:
// `ladder show` (the list and the step's transcript), the run's last screen, `ladder compare`
// (table and Markdown) and the HTML report. A run whose steps carried the earlier ones, or
// whose traces were written before that was read, says nothing of it.
import { cpSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { summarizeRun } from '../../src/report/summary.ts';
import { compareOutput, runEndLines, runReportHtml } from '../../src/report/output.ts';
import { showText } from '../../src/report/show.ts';
import type { Manifest } from '../../src/results/manifest.ts';
import { tempDir } from './runBuilder.ts';

const tmp = tempDir('ladder-conversations-');
afterAll(() => tmp.remove());

/**
 * The fixture run `after` as an exec agent's (dead-browser has two steps), each second step's
 * step.end marked `carried` as given; undefined leaves the traces as they were written.
 */
function runOf(id: string, carried: ((arm: string, pass: number) => boolean) | undefined): string {
  const dir = join(tmp.dir, id);
  cpSync('test/fixtures/runs/after', dir, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
  const agent = { name: 'mine', kind: 'exec', file: 'mine.yaml', sha256: 'e'.repeat(64), version: '1.0.0' };
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...manifest, runId: id, agent }));
  if (carried === undefined) return dir;
  const folder = join(dir, 'traces', 'dead-browser');
  for (const file of readdirSync(folder)) {
    const [arm, pass] = file.replace('.jsonl', '').split('-') as [string, string];
    // The fixture has a damaged trace on purpose: its lines are left as they are, only step.end is marked.
    const text = readFileSync(join(folder, file), 'utf8').replace(/^.*"type":"step\.end","t":\d+,"step":1,.*$/gm, (line) => {
      const event = JSON.parse(line) as Record<string, unknown>;
      return JSON.stringify({ ...event, carried: carried(arm, Number(pass)) });
    });
    writeFileSync(join(folder, file), text);
  }
  return dir;
}

const SAID = /Separate conversations: /;

describe('steps that ran as separate conversations', () => {
  // Carried on arm off only: arm on's second steps ran as new conversations.
  const separate = runOf('separate', (arm) => arm === 'off');
  const carried = runOf('carried', () => true);
  const before = runOf('before', undefined);

  it('are counted in the summary, against the steps read', async () => {
    const summary = await summarizeRun(separate);
    // Five two-step passes counted (the sixth is the fixture's damaged one), two of them on arm on.
    const read = 5;
    expect(summary.conversations).toEqual({ read, separate: 2 });
    expect((await summarizeRun(carried)).conversations).toEqual({ read, separate: 0 });
    expect((await summarizeRun(before)).conversations).toBeUndefined();
  });

  it('are said by show, the run\'s last screen, compare and the HTML report', async () => {
    const sentence = 'Separate conversations: 2 of 5 steps after the first began as a new conversation';
    expect(await showText({ run: separate })).toContain(`NOTE: ${sentence}`);
    expect((await runEndLines(separate, 'results/separate', 'npx ladder')).join(' ')).toContain(`NOTE: ${sentence.slice(0, 40)}`);
    expect((await compareOutput(separate, undefined, { format: 'table' })).text.replace(/\s+/g, ' ')).toContain(`Run (separate): ${sentence}`);
    expect((await compareOutput(before, separate, { format: 'md' })).text).toContain(`B (separate): ${sentence}`);
    expect(await runReportHtml(separate)).toContain(sentence);
  });

  it("are marked on the step's own transcript, in show and the HTML", async () => {
    const text = await showText({ run: separate, rung: 'dead-browser', arm: 'on' });
    expect(text).toMatch(/Ended: .*; a new conversation: the agent's first request of the step did not carry the earlier steps/);
    expect(await showText({ run: separate, rung: 'dead-browser', arm: 'off' })).not.toMatch(/a new conversation/);
    expect(await runReportHtml(separate)).toContain("a new conversation: the agent's first request of the step did not carry the earlier steps");
  });

  it('are not said when every step carried the earlier ones, or the traces never recorded it', async () => {
    for (const run of [carried, before]) {
      expect(await showText({ run })).not.toMatch(SAID);
      expect((await runEndLines(run, 'results/x', 'npx ladder')).join('\n')).not.toMatch(SAID);
      expect((await compareOutput(run, undefined, { format: 'table' })).text).not.toMatch(SAID);
      expect(await runReportHtml(run)).not.toMatch(SAID);
    }
  });
});
