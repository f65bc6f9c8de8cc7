// The call marks of a transcript (`ladder show`, the HTML report) on real runs: a two-step rung
// of call checks over the workbench, run by the synthetic looper (it repeats the catalog lookup
// until an arm's mechanisms stop it), in steps mode and in one-shot mode. Then its rung file
// edited: only the failed checks, which the trace names, are marked, and the transcript says why.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLadder } from '../../src/cli/runLadder.ts';
import type { RunArgs } from '../../src/cli/runLadder.ts';
import { showText } from '../../src/report/show.ts';
import { loadRun } from '../../src/report/summary.ts';
import { checkNamed, rungChecks } from '../../src/report/transcript/marks.ts';
import { sha256 } from '../../src/results/manifest.ts';
import { passGrids } from '../../src/report/transcript/run.ts';
import { transcriptHtml } from '../../src/report/render/transcriptHtml.ts';
import { describeCheck } from '../../src/rungs/checks.ts';
import type { Check } from '../../src/rungs/schema.ts';
import { removeTempDirs, ROOT, tempDir } from '../runner/helpers.ts';

const RUNG = `name: tiny-marks
description: Look up the service port in the catalog, then answer again without looking.
origin: test fixture
syntheticPolicy: looper
servers:
  wb:
    workbench: {}
steps:
  - prompt: Which port does the service listen on, according to the catalog?
    ceiling: 4
    checks:
      - called: wb__catalog_lookup
      - answer: { mentions: ['8080'] }
      - calledWith: { tool: wb__catalog_lookup, args: { topic: '/^config\\//' } }
      - maxRepeats: 1
      - maxCalls: 2
      - sequence: { tools: [wb__catalog_lookup, wb__catalog_lookup], strict: true }
    reference:
      calls:
        - tool: wb__catalog_lookup
          args: { topic: config/service }
      answer: The catalog says the service listens on port 8080.
  - prompt: Which port was it again?
    ceiling: 4
    checks:
      - notCalled: wb__catalog_lookup
    reference:
      answer: It is 8080.
`;

let dir: string;
let rungFile: string;
let steps: string;
let oneshot: string;

async function run(args: Omit<RunArgs, 'rungs' | 'model' | 'passes' | 'seed' | 'timeFactor' | 'concurrency'>): Promise<void> {
  const code = await runLadder({ rungs: [rungFile], model: 'synthetic:looper?p=1', passes: 1, seed: 5, timeFactor: 0.01, concurrency: 1, ...args }, {
    cwd: ROOT, env: {}, stdout: () => {}, progress: new PassThrough(), signal: new AbortController().signal, tempBase: await tempDir('ladder-marks-passes-'),
  });
  expect(code).toBe(0);
}

/** The lines of a step's transcript in `ladder show` from its first call to its end, colourless. */
async function shown(out: string, arm: string, step: number): Promise<string[]> {
  const text = await showText({ run: out, rung: 'tiny-marks', arm, pass: 0, step, cwd: ROOT });
  const lines = text.split('\n');
  return lines.slice(lines.findIndex((l) => l.includes('→')), lines.findIndex((l) => l.startsWith('  Ended:')))
    .filter((l) => l.includes('→') || / {6}[✓✗] /.test(l));
}

beforeAll(async () => {
  dir = await tempDir('ladder-marks-');
  rungFile = join(dir, 'tiny-marks.yaml');
  await writeFile(rungFile, RUNG);
  steps = join(dir, 'steps');
  oneshot = join(dir, 'oneshot');
  await run({ out: steps });
  await run({ out: oneshot, mode: 'oneshot' });
}, 180_000);

afterAll(removeTempDirs);

describe('the transcript marks under each call the checks it satisfied or broke', () => {
  it('arm off: the first lookup satisfies called and calledWith, the first two the strict sequence; the third breaks maxRepeats and maxCalls', async () => {
    expect(await shown(steps, 'off', 0)).toEqual([
      '    → wb__catalog_lookup {"topic":"config/service"}',
      '      ✓ called wb__catalog_lookup',
      '      ✓ calledWith {"topic":"/^config\\\\//"}',
      '      ✓ sequence strict wb__catalog_lookup, wb__catalog_lookup: 1 of 2',
      '    → wb__catalog_lookup {"topic":"config/service"}',
      '      ✓ sequence strict wb__catalog_lookup, wb__catalog_lookup: 2 of 2',
      '    → wb__catalog_lookup {"topic":"config/service"}',
      '      ✗ maxRepeats 1: repeat 2 of an identical call',
      '      ✗ maxCalls 2: call 3, the first over the limit',
      '    → wb__catalog_lookup {"topic":"config/service"}',
      '      ✗ maxRepeats 1: repeat 3 of an identical call',
      // Past the ceiling: never made, so no check counted it.
      '    → wb__catalog_lookup {"topic":"config/service"}',
    ]);
  });

  it('arm on: the short-circuited repeat is a call like the others to the checks, and is marked', async () => {
    const on = await shown(steps, 'on', 0);
    expect(on.slice(-3)).toEqual([
      '    → wb__catalog_lookup {"topic":"config/service"}',
      '      ✗ maxRepeats 1: repeat 2 of an identical call',
      '      ✗ maxCalls 2: call 3, the first over the limit',
    ]);
    const text = await showText({ run: steps, rung: 'tiny-marks', arm: 'on', pass: 0, step: 0, cwd: ROOT });
    expect(text).toMatch(/short-circuited as a repeat.*\n {6}✗ maxRepeats 1: repeat 2 of an identical call\n/);
    expect(text).not.toContain('Note: Calls are marked');
  });

  it('steps mode: a step\'s checks mark its own calls only (step 1 made none, so its notCalled held and marks nothing)', async () => {
    expect(await shown(steps, 'off', 1)).toEqual([]);
    expect((await shown(steps, 'off', 0)).some((l) => l.includes('notCalled'))).toBe(false);
  });

  it('one-shot: every step was judged on the one run recorded as step 0, so step 1\'s check marks step 0\'s calls', async () => {
    const first = await shown(oneshot, 'off', 0);
    // The ceilings add up in one-shot: eight lookups, each breaking step 1's notCalled.
    expect(first.filter((l) => l.includes('notCalled'))).toEqual(Array.from({ length: 8 }, () => '      ✗ notCalled wb__catalog_lookup'));
    expect(first).toContain('      ✓ called wb__catalog_lookup');
  });

  it('a redacted run: the calls carry no arguments, so calledWith marks nothing; the other checks mark as before', async () => {
    const redacted = join(dir, 'redacted');
    await run({ out: redacted, redact: 'content' });
    const off = await shown(redacted, 'off', 0);
    expect(off.filter((l) => !l.includes('→'))).toEqual([
      '      ✓ called wb__catalog_lookup',
      '      ✓ sequence strict wb__catalog_lookup, wb__catalog_lookup: 1 of 2',
      '      ✓ sequence strict wb__catalog_lookup, wb__catalog_lookup: 2 of 2',
      '      ✗ maxRepeats 1: repeat 2 of an identical call',
      '      ✗ maxCalls 2: call 3, the first over the limit',
      '      ✗ maxRepeats 1: repeat 3 of an identical call',
    ]);
  });

  it('the HTML report marks the same calls', async () => {
    const grids = await passGrids(await loadRun(steps), {}, ROOT);
    const off = grids[0]!.pairs[0]!.columns.find((c) => c.arm === 'off')!.view!;
    const html = transcriptHtml(off, 't');
    expect(html).toContain('<div class="s k good">✓ called wb__catalog_lookup</div>');
    expect(html).toContain('<div class="s k bad">✗ maxCalls 2: call 3, the first over the limit</div>');
    expect(html.match(/class="s k /g)).toHaveLength(7);
  });
});

describe('a rung file changed since the run', () => {
  it('marks only the checks that failed, read back from the trace, and says why', async () => {
    const edited = join(dir, 'edited');
    await run({ out: edited });
    await writeFile(rungFile, `${RUNG}# edited after the run\n`);
    try {
      const text = await showText({ run: edited, rung: 'tiny-marks', arm: 'off', pass: 0, step: 0, cwd: ROOT });
      const named = JSON.parse(await readFile(join(edited, 'manifest.json'), 'utf8')).rungs[0].file;
      expect(text).toContain(`Note: Calls are marked with the checks that failed only: ${named} has changed since this run.`);
      // The same seed, the same passes: the marks of the run in steps mode, less the satisfied ones.
      const failedOnly = (await shown(steps, 'off', 0)).filter((l) => !l.includes('✓'));
      expect(failedOnly.filter((l) => l.includes('✗'))).toHaveLength(3);
      expect(await shown(edited, 'off', 0)).toEqual(failedOnly);
      // From another folder the file is not found: the same marks, another reason. The manifest
      // names it relative to where the run was made (`../../tmp/...`): from a folder as many
      // levels below one that does not hold it, those `..` never climb out to it.
      const elsewhere = join(dir, 'elsewhere', ...named.split('/').filter((part: string) => part === '..').map(() => 'below'));
      expect(await showText({ run: edited, rung: 'tiny-marks', arm: 'off', pass: 0, cwd: elsewhere })).toMatch(/Note: Calls are marked with the checks that failed only: .*tiny-marks\.yaml is not found from the current folder\./);
    } finally {
      await writeFile(rungFile, RUNG);
    }
  });

  it('finds the rung file the run used, or says in words why not', async () => {
    const entry = (file: string, text = RUNG) => ({ name: 'tiny-marks', file, sha256: sha256(text), timeFactor: 1 });
    await mkdir(join(dir, 'a-folder.yaml'));
    await writeFile(join(dir, 'unloadable.yaml'), 'name: [');
    expect(await rungChecks(entry('tiny-marks.yaml'), dir)).toMatchObject({ missing: null, steps: [{ length: 6 }, [{ notCalled: 'wb__catalog_lookup' }]] });
    expect(await rungChecks(entry('tiny-marks.yaml', 'another text'), dir)).toEqual({ steps: undefined, missing: 'tiny-marks.yaml has changed since this run' });
    expect(await rungChecks(entry('gone.yaml'), dir)).toEqual({ steps: undefined, missing: 'gone.yaml is not found from the current folder' });
    expect(await rungChecks(entry('a-folder.yaml'), dir)).toEqual({ steps: undefined, missing: 'a-folder.yaml cannot be read (EISDIR)' });
    expect(await rungChecks(entry('unloadable.yaml', 'name: ['), dir)).toEqual({ steps: undefined, missing: 'unloadable.yaml no longer loads' });
  });

  it('reads every kind of check back from its name in a trace, and nothing else', () => {
    const checks: Check[] = [
      { file: { path: 'out.txt', exists: true, matches: '^42$' } }, { sql: { query: 'SELECT 1', rows: [[1]] } }, { called: 'a__b' }, { succeeded: 'a__b' },
      { notCalled: 'a__b' }, { answer: { mentions: ['x'] } }, { maxRepeats: 2 }, { noZeroToolRounds: true },
      { calledWith: { tool: 'a__b', args: { path: '/x y/' } } }, { sequence: ['a__b', 'a__c'] }, { sequence: { tools: ['a__b', 'a__c'], strict: true } },
      { maxCalls: 3 }, { maxRounds: 2 }, { judge: { rubric: 'The answer is kind.' } },
    ];
    for (const check of checks) expect(checkNamed(describeCheck(check))).toEqual(check);
    for (const name of ['called', 'called a__b', 'calls "a__b"', 'maxCalls -1', '', 'maxCalls 3 4']) expect(checkNamed(name)).toBeUndefined();
  });
});

describe('the recorded run the tests read', () => {
  it('is the rung given, in both modes', async () => {
    for (const out of [steps, oneshot]) expect(JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8')).rungs[0].name).toBe('tiny-marks');
  });
});
