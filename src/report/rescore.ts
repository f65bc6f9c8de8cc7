// `ladder rescore <run>`: the checks of the current rung files judged again against what a run
// recorded, without running anything. Answer checks read the step's last assistant message,
// call checks the calls, `noZeroToolRounds` the tools offered per request, and `file` / `sql`
// the step-end workspace that `ladder run --keep-workspaces` kept. A step passes only when it
// ended by answering and every check passes, as in the run; a step that ended at its ceiling,
// its time limit or errored keeps that reason.
//
// A check that cannot be judged again (no snapshot, no answer text in the trace) leaves the
// step-run undecided unless another check already fails it; an undecided step-run keeps its
// recorded verdict and is listed as kept. The traces are never changed.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { JUDGEMENTS, openJudge } from '../judge/judge.ts';
import type { JudgeFn } from '../judge/judge.ts';
import { createModel } from '../models/index.ts';
import type { AdapterOptions } from '../models/index.ts';
import { describeCheck } from '../rungs/checks.ts';
import { loadRung, RungError } from '../rungs/load.ts';
import type { LoadedRung } from '../rungs/load.ts';
import { sha256 } from '../results/manifest.ts';
import type { ManifestRung } from '../results/manifest.ts';
import { oneshotPrompt } from '../runner/oneshot.ts';
import { armSlug } from '../runner/plan.ts';
import { findRungFiles, InputError } from '../runner/rungFiles.ts';
import { SnapshotError, snapshotFile, unpackSnapshot } from '../runner/snapshot.ts';
import type { UnpackedSnapshot } from '../runner/snapshot.ts';
import { workspacesPath } from '../results/store.ts';
import type { PassRecord, StepRun } from './passes.ts';
import { answeredAtNow, decide, judgeChecks } from './rescoreStep.ts';
import type { CheckOutcome, SnapshotSource } from './rescoreStep.ts';
import { ReportInputError } from '../results/read.ts';
import { readPassEvidence } from './stepEvidence.ts';
import type { PassEvidence, StepEvidence } from './stepEvidence.ts';
import type { LoadedRun, StepVerdict } from './summary.ts';
import { loadRun, verdictKey, withVerdicts } from './summary.ts';

export interface RescoreOptions {
  /** Rung files, folders or names to judge with (default: the files the manifest names). */
  rungs?: readonly string[];
  cwd: string;
  /**
   * `--judge-model`: the model that answers judge checks the run kept no verdict for (and those
   * that name none); without it only the run's kept verdicts answer, and no model is asked.
   */
  judgeModel?: string;
  /** Seams for the judge model's adapter (endpoint, key, environment). */
  judgeWorld?: AdapterOptions;
}

export interface StepRunId {
  rung: string;
  arm: string;
  pass: number;
  step: number;
}

export interface Flip extends StepRunId {
  to: 'passed' | 'failed';
  /** Why it fails now (the first failed check, or the step's reason), or '' when it passes now. */
  why: string;
}

export interface NotJudged {
  rung: string;
  step: number;
  check: string;
  why: string;
  stepRuns: number;
}

export interface RescoreReport {
  /** The rung files judged with; `changed` when the file differs from the one the run used. */
  rungFiles: { rung: string; file: string | null; changed: boolean }[];
  stepRuns: number;
  flipped: Flip[];
  notJudged: NotJudged[];
  /** Step-runs that keep their recorded verdict: a check could not be judged again and decided nothing. */
  kept: (StepRunId & { checks: string[] })[];
  /** One line per rung not rescored (no rung file, steps changed) and per changed prompt. */
  rungNotes: string[];
  /** Step-runs judged again (the rest keep their recorded verdicts). */
  judged: number;
  /** Snapshots that could not be read, one line each (the first few). */
  snapshotProblems: string[];
}

export interface RescoreResult {
  recorded: LoadedRun;
  rescored: LoadedRun;
  report: RescoreReport;
}

/** What the rung files are now, by rung name: the manifest's files, or those given. */
export async function currentRungs(run: LoadedRun, options: Pick<RescoreOptions, 'rungs' | 'cwd'>): Promise<Map<string, LoadedRung>> {
  const files = options.rungs !== undefined && options.rungs.length > 0
    ? findRungFiles(options.rungs, options.cwd)
    : run.manifest.rungs.map((r) => {
      if (!existsSync(resolve(options.cwd, r.file))) {
        throw new ReportInputError(`${r.file}: the rung file of ${r.name} named in the run's manifest is not there; ` +
          'run from the folder the run was made in, or name the rung files: ladder rescore <run> <rung files..>');
      }
      return r.file;
    });
  const rungs = new Map<string, LoadedRung>();
  for (const file of files) {
    try {
      const loaded = await loadRung(resolve(options.cwd, file));
      rungs.set(loaded.rung.name, { ...loaded, file });
    } catch (error) {
      if (error instanceof RungError) throw new InputError(error.problems.map((line) => line.replace(resolve(options.cwd, file), file)));
      throw error;
    }
  }
  return rungs;
}


const MAX_PROBLEMS = 10; // as for traces: enough to find the cause

/** Judges a run's recorded steps against the current rung files. */
export async function rescoreRun(dir: string, options: RescoreOptions): Promise<RescoreResult> {
  const recorded = await loadRun(dir);
  const rungs = await currentRungs(recorded, options);
  const model = recorded.manifest.model;
  const judge = await openJudge({
    file: join(dir, JUDGEMENTS),
    ...(options.judgeModel !== undefined
      ? { defaultModel: options.judgeModel, adapter: (spec: string) => createModel(spec, options.judgeWorld ?? {}) }
      : { offline: 'rescore asks a model only with --judge-model', ...(model.synthetic ? {} : { defaultModel: model.spec }) }),
  });
  const rescorer = new Rescorer(dir, recorded, await mkdtemp(join(tmpdir(), 'ladder-rescore-')), judge);
  try {
    for (const name of rungs.keys()) {
      if (!recorded.manifest.rungs.some((r) => r.name === name)) rescorer.report.rungNotes.push(`${name}: not a rung of this run; its file is not used`);
    }
    for (const entry of recorded.manifest.rungs) await rescorer.rung(entry, rungs.get(entry.name));
  } finally {
    await rm(rescorer.scratch, { recursive: true, force: true });
  }
  return { recorded, rescored: withVerdicts(recorded, rescorer.verdicts), report: rescorer.finish() };
}

class Rescorer {
  readonly report: RescoreReport = { rungFiles: [], stepRuns: 0, judged: 0, flipped: [], notJudged: [], kept: [], rungNotes: [], snapshotProblems: [] };
  readonly verdicts = new Map<string, StepVerdict>();
  readonly #notJudged = new Map<string, NotJudged>();
  readonly #oneshot: boolean;
  readonly #noSnapshot: string;

  constructor(readonly dir: string, readonly run: LoadedRun, readonly scratch: string, readonly judge?: JudgeFn) {
    this.#oneshot = run.manifest.options.mode === 'oneshot';
    this.#noSnapshot = run.manifest.options.keepWorkspaces === true
      ? 'its workspace snapshot is not in the results folder'
      : 'no workspace snapshots (the run was made without --keep-workspaces)';
  }

  async rung(entry: ManifestRung, loaded: LoadedRung | undefined): Promise<void> {
    const passes = this.run.passes.filter((p) => p.rung === entry.name);
    const stepRuns = passes.reduce((n, p) => n + p.steps.length, 0);
    this.report.stepRuns += stepRuns;
    this.report.rungFiles.push({ rung: entry.name, file: loaded?.file ?? null, changed: loaded !== undefined && sha256(loaded.text) !== entry.sha256 });
    const keep = `its ${stepRuns} step-runs keep their recorded verdicts`;
    if (loaded === undefined) {
      this.report.rungNotes.push(`${entry.name}: no rung file given for it; ${keep}`);
      return;
    }
    const recordedSteps = Math.max(0, ...passes.map((p) => p.steps.length));
    if (passes.length > 0 && recordedSteps !== loaded.rung.steps.length) {
      this.report.rungNotes.push(`${entry.name}: ${loaded.file} has ${loaded.rung.steps.length} steps, the run recorded ${recordedSteps}; ` +
        `${keep} (rescore judges the recorded steps one for one)`);
      return;
    }
    let promptsCompared = false;
    for (const pass of passes) {
      const evidence = await readPassEvidence(this.dir, pass);
      if (!promptsCompared && evidence.content === 'full') {
        promptsCompared = true;
        const changes = promptChanges(loaded, evidence, this.#oneshot);
        if (changes === 'reordered') {
          this.report.rungNotes.push(`${entry.name}: ${loaded.file} has the run's steps in another order (by their prompts); ${keep}`);
          return;
        }
        this.report.rungNotes.push(...changes);
      }
      for (const step of pass.steps) await this.stepRun(loaded, pass, step, evidence);
    }
  }

  async stepRun(loaded: LoadedRung, pass: PassRecord, step: StepRun, evidence: PassEvidence): Promise<void> {
    const id: StepRunId = { rung: pass.rung, arm: pass.arm, pass: pass.pass, step: step.step };
    // One-shot: one run of the agent (recorded as step 0, with one snapshot) judged against every step.
    const ran = this.#oneshot ? 0 : step.step;
    let unpacked: UnpackedSnapshot | string | undefined;
    const snapshot: SnapshotSource = async () => (unpacked ??= await this.#unpack(pass, ran));
    const input = {
      rung: loaded.rung, step, evidence: evidence.steps.get(ran) ?? noEvidence(step.step, evidence), snapshot,
      noText: evidence.content === 'redacted'
        ? 'the run was redacted (--redact content), so its traces hold no answer text'
        : 'trace format 1 holds no answer text',
      noArgs: evidence.content === 'redacted'
        ? 'the run was redacted (--redact content), so its traces hold no call arguments'
        : 'trace format 1 holds no call arguments',
      oneshot: this.#oneshot,
      ...(this.judge === undefined ? {} : { judge: this.judge }), at: id,
    };
    const outcomes = await judgeChecks(loaded.rung.steps[step.step]!.checks, input);
    if (typeof unpacked === 'object') await rm(join(unpacked.workspace, '..'), { recursive: true, force: true });
    this.#tally(pass.rung, step.step, outcomes);
    const decision = decide(step, outcomes);
    if ('unknown' in decision) {
      this.report.kept.push({ ...id, checks: decision.unknown });
      return;
    }
    this.report.judged += 1;
    const answeredAt = evidence.content === 'full' ? answeredAtNow(input) : step.answeredAt;
    this.verdicts.set(verdictKey(pass.rung, pass.arm, pass.pass, step.step), { passed: decision.passed, failedChecks: decision.failed.length, answeredAt });
    if (decision.passed !== step.passed) this.report.flipped.push({ ...id, to: decision.passed ? 'passed' : 'failed', why: decision.why });
  }

  async #unpack(pass: PassRecord, step: number): Promise<UnpackedSnapshot | string> {
    const file = snapshotFile(workspacesPath(this.dir, { rung: pass.rung, armSlug: armSlug(pass.arm), pass: pass.pass }), step);
    if (!existsSync(file)) return this.#noSnapshot;
    try {
      return await unpackSnapshot(file, await mkdtemp(join(this.scratch, 'step-')));
    } catch (error) {
      if (!(error instanceof SnapshotError)) throw error;
      if (this.report.snapshotProblems.length < MAX_PROBLEMS) this.report.snapshotProblems.push(error.message.replace(file, relative(this.dir, file)));
      return 'its workspace snapshot cannot be read';
    }
  }

  #tally(rung: string, step: number, outcomes: readonly CheckOutcome[]): void {
    for (const { check, result } of outcomes) {
      if (!('unknown' in result)) continue;
      const key = `${rung}\u0000${step}\u0000${describeCheck(check)}\u0000${result.unknown}`;
      const seen = this.#notJudged.get(key) ?? { rung, step, check: describeCheck(check), why: result.unknown, stepRuns: 0 };
      seen.stepRuns += 1;
      this.#notJudged.set(key, seen);
    }
  }

  /** The report, checks not judged again in rung and step order (then as first met). */
  finish(): RescoreReport {
    const rungAt = (name: string): number => this.run.manifest.rungs.findIndex((r) => r.name === name);
    const notJudged = [...this.#notJudged.values()].sort((x, y) => rungAt(x.rung) - rungAt(y.rung) || x.step - y.step);
    return { ...this.report, notJudged };
  }
}

function noEvidence(step: number, evidence: PassEvidence): StepEvidence {
  return {
    step, prompt: undefined, answer: evidence.content === 'full' ? '' : undefined, responses: [], calls: [], callArgs: evidence.content === 'full',
    rounds: 0, toolsOfferedPerRound: [],
    serversConfigured: 0,
  };
}

/**
 * The steps' prompts now against those the run recorded: 'reordered' when they are the same
 * prompts in another order (the recorded answers would be judged against other steps' checks),
 * else one line per step whose prompt was edited.
 */
function promptChanges(loaded: LoadedRung, evidence: PassEvidence, oneshot: boolean): string[] | 'reordered' {
  const { name, steps } = loaded.rung;
  const now = oneshot ? [oneshotPrompt(steps.map((s) => s.prompt))] : steps.map((s) => s.prompt);
  const then = now.map((_, i) => evidence.steps.get(i)?.prompt);
  if (then.some((p) => p === undefined)) return [];
  const differs = now.map((prompt, i) => prompt !== then[i]);
  const sorted = (list: (string | undefined)[]): string => JSON.stringify([...list].sort());
  if (!oneshot && differs.some(Boolean) && sorted(now) === sorted(then)) return 'reordered';
  return differs.flatMap((d, i) => (d
    ? [`${name} step ${i}: the prompt differs from the one the run recorded; its checks were judged on the answers to the recorded prompt`]
    : []));
}
