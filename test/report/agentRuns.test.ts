// Which agent, which version: two runs of different external agents on the same rungs and seeds
// compare paired like any two runs, each side labelled by its agent, and every first line
// (compare, show, the run's last screen, the HTML) names agent and version beside the model.
// The runs are the recorded fixture `after` twice, each with the agent a run records.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compareRuns } from '../../src/report/compare.ts';
import { compareOutput, runEndLines, runReportHtml } from '../../src/report/output.ts';
import { showText } from '../../src/report/show.ts';
import { differences } from '../../src/results/manifest.ts';
import type { Manifest, ManifestAgent } from '../../src/results/manifest.ts';
import { tempDir } from './runBuilder.ts';

const tmp = tempDir('ladder-agent-runs-');
afterAll(() => tmp.remove());

const CLAUDE: ManifestAgent = { name: 'claude-code', kind: 'exec', file: 'claude-code', sha256: 'c'.repeat(64), version: '2.1.328' };
const CODEX: ManifestAgent = { name: 'codex', kind: 'exec', file: 'codex', sha256: 'd'.repeat(64), version: '0.171.0' };

/** The fixture run `after`, as if `agent` had run it (no agent: the built-in loop). */
function runOf(id: string, agent: ManifestAgent | undefined): string {
  const dir = join(tmp.dir, id);
  cpSync('test/fixtures/runs/after', dir, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...manifest, runId: id, ...(agent === undefined ? {} : { agent }) }));
  return dir;
}

const claude = runOf('claude', CLAUDE);
const codex = runOf('codex', CODEX);
const loop = runOf('loop', undefined);

describe('two runs of different agents', () => {
  it('compare paired like any two runs, each side labelled by its agent', async () => {
    const report = await compareRuns(claude, codex);
    expect(report.comparisons.map((c) => c.label)).toEqual([
      'codex (codex 0.171.0) against claude (claude-code 2.1.328), arm on',
      'codex (codex 0.171.0) against claude (claude-code 2.1.328), arm off',
    ]);
    // Same rungs and seeds: every pass and step-run has its pair.
    for (const c of report.comparisons) {
      expect(c.shared.passes).toBeGreaterThan(0);
      expect(c.leftOut.seedMismatches).toBe(0);
      expect(c.leftOut.passesOnlyInA + c.leftOut.passesOnlyInB).toBe(0);
    }
    expect(report.a.agent).toEqual({ name: 'claude-code', version: '2.1.328' });
    expect(report.b.agent).toEqual({ name: 'codex', version: '0.171.0' });
    expect(report.notes).toContain('The runs were made by different agents: claude-code 2.1.328 (A) and codex 0.171.0 (B); pairs still share rung, pass and seed.');
  });

  it('name agent and version beside the model in the first lines of the table, Markdown and HTML', async () => {
    const table = (await compareOutput(claude, codex, { format: 'table' })).text.split('\n');
    const intro = table.filter((l) => /^[AB]: run /.test(l));
    expect(intro).toEqual([
      expect.stringMatching(/^A: run claude \(complete\), agent claude-code 2\.1\.328, model synthetic:looper, git /),
      expect.stringMatching(/^B: run codex \(complete\), agent codex 0\.171\.0, model synthetic:looper, git /),
    ]);
    expect((await compareOutput(claude, codex, { format: 'md' })).text).toMatch(/A: run claude \(complete\), agent claude-code 2\.1\.328, model synthetic:looper/);
    expect(await runReportHtml(codex)).toMatch(/Run codex \(complete\), agent codex 0\.171\.0, model synthetic:looper, git /);
  });

  it('a run of one agent against the built-in loop says which side had none', async () => {
    const report = await compareRuns(loop, codex);
    expect(report.comparisons[0]!.label).toBe('codex (codex 0.171.0) against loop, arm on');
    expect(report.notes).toContain("The runs were made by different agents: Ladder's own loop (A) and codex 0.171.0 (B); pairs still share rung, pass and seed.");
    // Two runs of one agent read as before: no agent in the label, no note.
    const same = await compareRuns(runOf('codex-again', CODEX), codex);
    expect(same.comparisons[0]!.label).toBe('codex against codex-again, arm on');
    expect(same.notes.filter((n) => n.includes('agents'))).toEqual([]);
  });
});

describe('the first line of show and of the run\'s last screen', () => {
  it('names the agent and its version for a run of an external agent', async () => {
    expect((await showText({ run: codex })).split('\n')[0]).toMatch(/^Run codex \(agent codex 0\.171\.0, model synthetic:looper\): /);
    expect((await showText({ run: codex, rung: 'dead-browser' })).split('\n')[0]).toBe('Run codex (agent codex 0.171.0, model synthetic:looper).');
    expect((await runEndLines(codex, 'results/codex', 'npx ladder'))[0]).toBe('Run codex: agent codex 0.171.0, model synthetic:looper.');
  });

  it('is unchanged for the built-in loop, and says when a run recorded no version', async () => {
    expect((await showText({ run: loop })).split('\n')[0]).toMatch(/^Run loop \(synthetic:looper\): /);
    expect((await runEndLines(loop, 'results/loop', 'npx ladder'))[0]).toMatch(/^NOTE: /);
    const old = runOf('old', { ...CODEX, version: undefined });
    expect((await runEndLines(old, 'results/old', 'npx ladder'))[0]).toBe('Run old: agent codex (version not recorded), model synthetic:looper.');
  });
});

describe('resuming or merging across agent versions', () => {
  it('is refused: the passes of one run come from one agent version; runs before versions were recorded are not', () => {
    const manifest = JSON.parse(readFileSync(join(codex, 'manifest.json'), 'utf8')) as Manifest;
    const other = { ...manifest, agent: { ...CODEX, version: '0.172.0' } };
    expect(differences(manifest, other, { shard: true })).toEqual(['agent version "0.171.0" vs "0.172.0"']);
    expect(differences(manifest, { ...manifest, agent: { ...CODEX, version: undefined } }, { shard: true })).toEqual([]);
  });
});
