// Judge checks in a real run (the workbench over stdio, synthetic agents) answered by the strict
// OpenAI stand-in with scripted verdicts; then rescored from the kept verdicts without a model,
// with a model, and the judge's agreement with the checks measured.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJudgeAgreement } from '../../src/cli/judge.ts';
import { runRescore } from '../../src/cli/rescore.ts';
import { runLadder } from '../../src/cli/runLadder.ts';
import type { RunArgs } from '../../src/cli/runLadder.ts';
import { JUDGEMENTS, readJudgements } from '../../src/judge/judge.ts';
import type { AgreementReport } from '../../src/report/agreementRun.ts';
import { agreementText } from '../../src/report/agreementText.ts';
import type { AdapterOptions } from '../../src/models/index.ts';
import { FakeProvider, openaiReply } from '../models/fakeServer.ts';
import { removeTempDirs, ROOT, tempDir } from '../runner/helpers.ts';

const CATALOG = 'test/runner/fixtures/tiny-catalog.yaml';
const RUBRIC = 'The answer gives the port the catalog lists.';
const verdict = (v: 'pass' | 'fail', why: string) => openaiReply(JSON.stringify({ verdict: v, why }));

let server: FakeProvider;
let adapter: AdapterOptions;
let dir: string;
let judged: string;
let out: string;

async function run(args: RunArgs): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const code = await runLadder(args, {
    cwd: ROOT, env: {}, stdout: (line) => lines.push(line), progress: new PassThrough(), adapter, signal: new AbortController().signal, tempBase: await tempDir('ladder-judge-passes-'),
  });
  return { code, lines };
}

async function traceSteps(folder: string, arm: string, pass: number): Promise<Record<string, unknown>[]> {
  const text = await readFile(join(folder, 'traces', 'tiny-catalog', arm, `${pass}.jsonl`), 'utf8');
  return text.trim().split('\n').map((l) => JSON.parse(l)).filter((e) => e.type === 'step.end');
}

beforeAll(async () => {
  server = await FakeProvider.start();
  adapter = { baseUrl: `${server.url}/v1`, apiKey: 'k', env: {}, retry: { maxAttempts: 1 } };
  dir = await tempDir('ladder-judge-run-');
  judged = join(dir, 'tiny-catalog.yaml');
  const rung = (await readFile(join(ROOT, CATALOG), 'utf8')).replace(
    "      - answer: { mentions: ['8080'] }",
    `      - answer: { mentions: ['8080'] }\n      - judge: { rubric: '${RUBRIC}', model: 'openai:judge-m' }`,
  );
  await writeFile(judged, rung);
  // More verdicts than asks: identical transcripts are judged once, so fewer may be asked.
  server.reply(...Array.from({ length: 4 }, () => verdict('pass', 'It gives 8080, as the catalog lists.')));
  out = join(dir, 'run');
  const result = await run({ rungs: [judged], model: 'synthetic:looper?p=1', passes: 2, seed: 5, timeFactor: 0.01, concurrency: 1, out });
  expect(result.code).toBe(0);
  server.dropReplies();
}, 180_000);

afterAll(async () => {
  await server.close();
  await removeTempDirs();
});

describe('a run with a judge check', () => {
  it('asks the check\'s model about each distinct step, labels every judged verdict in the trace, and keeps them with their cost', async () => {
    const kept = [...(await readJudgements(join(out, JUDGEMENTS))).values()];
    expect(kept.length).toBeGreaterThan(0);
    // One request per verdict bought: none refused by the strict stand-in.
    expect(server.seen).toHaveLength(kept.length);
    expect(server.seen.every((s) => s.refused === undefined && s.body.model === 'judge-m')).toBe(true);
    for (const j of kept) expect(j).toMatchObject({ type: 'judge', model: 'openai:judge-m', rubric: RUBRIC, passed: true, inputTokens: 30, outputTokens: 9 });
    const check = `judge {"rubric":"${RUBRIC}","model":"openai:judge-m"}`;
    const [on] = await traceSteps(out, 'on', 0);
    expect(on).toMatchObject({ passed: true, failedChecks: [], judged: [{ check, passed: true, model: 'openai:judge-m' }] });
    // Arm off ends at its ceiling: the judge passed it, the step still failed (it did not answer).
    const [off] = await traceSteps(out, 'off', 0);
    expect(off).toMatchObject({ passed: false, reason: 'ceiling', judged: [{ check, passed: true, model: 'openai:judge-m' }] });
  });

  it('is rescored from the kept verdicts without asking; a changed rubric is left undecided until a model is given', async () => {
    const asked = server.seen.length;
    const errors: string[] = [];
    const lines: string[] = [];
    const world = { cwd: ROOT, out: (t: string) => lines.push(...t.split('\n')), err: (l: string) => errors.push(l), judgeWorld: adapter };
    expect(await runRescore({ run: out, rungs: [judged], out: join(dir, 'same.json') }, world)).toBe(0);
    expect(server.seen).toHaveLength(asked);
    const same = JSON.parse(await readFile(join(dir, 'same.json'), 'utf8')).rescore;
    expect(same).toMatchObject({ flipped: [], kept: [], notJudged: [] });

    const changed = join(dir, 'changed.yaml');
    await writeFile(changed, (await readFile(judged, 'utf8')).replace(RUBRIC, 'The answer also names the catalog entry.'));
    expect(await runRescore({ run: out, rungs: [changed], out: join(dir, 'offline.json') }, world)).toBe(0);
    const offline = JSON.parse(await readFile(join(dir, 'offline.json'), 'utf8')).rescore;
    // The off arm's steps fail anyway (ceiling); the on arm's wait for a verdict.
    expect(offline.kept.map((k: { arm: string }) => k.arm)).toStrictEqual(['on', 'on']);
    expect(offline.notJudged).toStrictEqual([expect.objectContaining({
      why: 'no kept verdict for this step from openai:judge-m, and rescore asks a model only with --judge-model', stepRuns: 4,
    })]);

    server.reply(...Array.from({ length: 4 }, () => verdict('fail', 'It does not name the entry.')));
    expect(await runRescore({ run: out, rungs: [changed], out: join(dir, 'asked.json'), judgeModel: 'openai:judge-m' }, world)).toBe(0);
    const rescored = JSON.parse(await readFile(join(dir, 'asked.json'), 'utf8')).rescore;
    expect(rescored.flipped).toStrictEqual([0, 1].map((pass) => ({
      rung: 'tiny-catalog', arm: 'on', pass, step: 0, to: 'failed',
      why: 'judged by openai:judge-m: It does not name the entry.',
    })));
    expect(server.seen.length).toBeGreaterThan(asked);
    expect(errors).toStrictEqual([]);
    server.dropReplies();
  });

  it('refuses a judge model it cannot make, in one line, before judging anything', async () => {
    const errors: string[] = [];
    const code = await runRescore({ run: out, rungs: [judged], judgeModel: 'judge-m' }, { cwd: ROOT, out: () => undefined, err: (l) => errors.push(l) });
    expect(code).toBe(2);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^ladder rescore: model spec "judge-m": no provider; use /);
  });
});

describe("a judge's spending", () => {
  it("counts toward the run's, though the run's model is free: priced at --prices, on step.end, in the run's last line and within --max-cost", async () => {
    const prices = join(dir, 'judge-prices.json');
    // A price for the judge at the stand-in's address: $1,000 and $4,000 a million, so each verdict (30 in, 9 out) costs $0.066.
    await writeFile(prices, JSON.stringify({ prices: [{ model: 'openai:judge-m', baseUrl: `${server.url}/v1`, input: 1000, output: 4000 }] }));
    server.reply(...Array.from({ length: 4 }, (_, i) => verdict('pass', `It gives 8080 (${i}).`)));
    const priced = join(dir, 'priced');
    const { code, lines } = await run({ rungs: [judged], model: 'synthetic:looper?p=1', passes: 2, seed: 5, timeFactor: 0.01, concurrency: 1, out: priced, prices, maxCost: 5 });
    server.dropReplies();
    expect(code).toBe(0);
    const bought = [...(await readJudgements(join(priced, JUDGEMENTS))).values()];
    expect(bought.length).toBeGreaterThan(0);
    for (const j of bought) expect(j.costUsd).toBeCloseTo(0.066, 12);
    // Each bought verdict's cost rides on the step.end of the pass that bought it; one served kept carries none.
    const costs = (await Promise.all(['on', 'off'].flatMap((arm) => [0, 1].map((pass) => traceSteps(priced, arm, pass)))))
      .flat().flatMap((end) => (end['judged'] as { usd?: number }[]).map((j) => j.usd));
    expect(costs.filter((usd) => usd !== undefined)).toHaveLength(bought.length);
    expect(costs.filter((usd) => usd === undefined)).toHaveLength(4 - bought.length);
    expect(lines.find((l) => l.startsWith('complete: '))).toMatch(new RegExp(`, \\$${(0.066 * bought.length).toFixed(2).replace('.', '\\.')} spent$`));
  }, 120_000);
});

describe('a judge model a rung names', () => {
  it('is made before the run starts: a missing key is one line, and no results folder is left', async () => {
    const lines: string[] = [];
    const errors: string[] = [];
    const where = join(dir, 'no-key');
    const code = await runLadder({ rungs: [judged], model: 'synthetic:looper', passes: 1, out: where }, {
      cwd: ROOT, env: {}, stdout: (l) => lines.push(l), stderr: (l) => errors.push(l), progress: new PassThrough(), signal: new AbortController().signal,
    });
    expect(code).toBe(2);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(new RegExp(`^ladder run: .*tiny-catalog\\.yaml: steps\\.0\\.checks\\.2\\.judge\\.model: .*OPENAI_API_KEY`));
    expect(existsSync(where)).toBe(false);
  });
});

describe('ladder judge agreement', () => {
  async function agreement(args: Parameters<typeof runJudgeAgreement>[0]) {
    const lines: string[] = [];
    const errors: string[] = [];
    const code = await runJudgeAgreement(args, { cwd: ROOT, out: (t) => lines.push(...t.split('\n')), err: (l) => errors.push(l), adapter });
    return { code, lines, errors };
  }

  it('measures a judge that passes everything: half the verdicts agree, and kappa says it told nothing', async () => {
    // Against the rung without its judge check: every verdict of the run is the checks' own.
    server.reply(...Array.from({ length: 4 }, () => verdict('pass', 'Looks done.')));
    const { code, lines, errors } = await agreement({ run: out, rungs: [CATALOG], model: 'openai:judge-2', json: true });
    expect(errors.at(-1)).toBe('judged 4 of 4 step-runs');
    expect(code).toBe(0);
    const report = JSON.parse(lines.join('\n')) as AgreementReport;
    expect(report.agreement).toMatchObject({ n: 4, bothPassed: 2, judgeOnly: 2, bothFailed: 0, checksOnly: 0, raw: 0.5, kappa: 0 });
    expect(report.disagreements.map((d) => [d.arm, d.checks, d.judge, d.why])).toStrictEqual([
      ['off', false, true, 'Looks done.'], ['off', false, true, 'Looks done.'],
    ].sort());
    expect(report.leftOut).toStrictEqual([]);
    expect(report.bought).toBeGreaterThan(0);
    server.dropReplies();

    // Asked again, it pays nothing: every verdict was kept.
    const asked = server.seen.length;
    const again = await agreement({ run: out, rungs: [CATALOG], model: 'openai:judge-2' });
    expect(server.seen).toHaveLength(asked);
    expect(again.lines).toContain('Raw agreement   50% (95% CI 15% to 85%)');
    expect(again.lines.slice(0, 9)).toStrictEqual([
      'Judge openai:judge-2 against the deterministic checks, on 4 step-runs',
      'Rubric: The agent did what the task asked, completely and correctly, and its final answer says so truthfully.',
      '',
      '                 judge pass  judge fail',
      '  checks pass             2           0',
      '  checks fail             2           0',
      '',
      'Raw agreement   50% (95% CI 15% to 85%)',
      // n = 4, observed = chance = 0.5: se = sqrt(0.25 / (4 * 0.25)) = 0.5, times 1.96.
      "Cohen's kappa   0.00 (95% CI -0.98 to 0.98): slight agreement beyond chance",
    ]);
    expect(again.lines).toContain("Verdicts bought this time: none; every one was kept in the run's judgements.jsonl");
    // The first time, the verdicts were bought from a local server: no per-token price.
    expect(agreementText({ ...report, bought: 2, costUsd: 0 })).toContain("Verdicts bought this time: 2 ($0); kept ones were served from the run's judgements.jsonl");
    expect(agreementText({ ...report, bought: 2, costUsd: null })).toContain("Verdicts bought this time: 2 (unpriced); kept ones were served from the run's judgements.jsonl");
    expect(again.lines).toContain('  tiny-catalog off #0 step 0: fail / pass: Looks done.');
  });

  it('leaves out steps whose verdict was partly judged, and says why it cannot judge a synthetic run without --model', async () => {
    const judgedRung = await agreement({ run: out, rungs: [judged], model: 'openai:judge-2', json: true });
    const report = JSON.parse(judgedRung.lines.join('\n')) as AgreementReport;
    expect(report.agreement.n).toBe(0);
    expect(report.leftOut).toStrictEqual(['4 step-runs: the step holds a judge check, so its recorded verdict is partly judged']);

    const none = await agreement({ run: out, rungs: [CATALOG] });
    expect(none.code).toBe(2);
    expect(none.errors).toStrictEqual([expect.stringMatching(/^ladder judge agreement: .*the run's model \(synthetic:looper\?p=1\) is a synthetic agent and cannot judge; name a judge with --model/)]);
  });
});
