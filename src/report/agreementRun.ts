// `ladder judge agreement`: a judge asked about step-runs a run already decided with
// deterministic checks, and how often the two agree. Only step-runs whose verdict is wholly
// deterministic count: a step whose rung holds a judge check was partly judged already. The
// deterministic verdict is the one the run recorded (answered, and every check passed), so the
// judge is measured against exactly what the report counted.
import { join } from 'node:path';
import { createModel } from '../models/index.ts';
import type { AdapterOptions } from '../models/index.ts';
import { currentRungs } from './rescore.ts';
import { ReportInputError } from '../results/read.ts';
import { readPassEvidence } from './stepEvidence.ts';
import { loadRun } from './summary.ts';
import { agreement } from './agreement.ts';
import type { Agreement } from './agreement.ts';
import { JUDGEMENTS, openJudge } from '../judge/judge.ts';

/** What the judge is asked when no rubric is given: the task, done. */
export const DEFAULT_RUBRIC = 'The agent did what the task asked, completely and correctly, and its final answer says so truthfully.';

export interface AgreementOptions {
  cwd: string;
  /** The judge model; the run's own model by default. */
  model?: string;
  rubric?: string;
  /** Rung files to read the steps from (default: the files the manifest names). */
  rungs?: readonly string[];
  world?: AdapterOptions;
  /** Told after each step-run judged: done of total. */
  progress?: (done: number, total: number) => void;
}

/** A step-run on which the judge and the checks disagree, or which the judge could not rate. */
export interface Rated {
  rung: string;
  arm: string;
  pass: number;
  step: number;
  checks: boolean;
  judge: boolean | null;
  why: string;
}

export interface AgreementReport {
  model: string;
  rubric: string;
  agreement: Agreement;
  disagreements: Rated[];
  /** Step-runs the judge gave no verdict for (its reply unreadable, its provider failing), each with why. */
  unrated: Rated[];
  /** Step-runs left out, one line per reason with their count. */
  leftOut: string[];
  /** Verdicts bought this time, and what they cost (null when the model is unpriced). */
  bought: number;
  costUsd: number | null;
}

export async function judgeAgreement(dir: string, options: AgreementOptions): Promise<AgreementReport> {
  const run = await loadRun(dir);
  const model = options.model ?? (run.manifest.model.synthetic ? undefined : run.manifest.model.spec);
  if (model === undefined) {
    throw new ReportInputError(`${dir}: the run's model (${run.manifest.model.spec}) is a synthetic agent and cannot judge; name a judge with --model, e.g. --model openai:gpt-5-mini`);
  }
  const rubric = options.rubric ?? DEFAULT_RUBRIC;
  // Made now, so a missing key is one line before anything is asked.
  createModel(model, options.world ?? {});
  const rungs = await currentRungs(run, { cwd: options.cwd, ...(options.rungs === undefined ? {} : { rungs: options.rungs }) });
  const file = join(dir, JUDGEMENTS);
  const judge = await openJudge({ file, defaultModel: model, adapter: (spec) => createModel(spec, options.world ?? {}) });
  const oneshot = run.manifest.options.mode === 'oneshot';
  const left = new Map<string, number>();
  const leave = (why: string): void => void left.set(why, (left.get(why) ?? 0) + 1);
  const todo = run.passes.flatMap((pass) => pass.steps.map((step) => ({ pass, step })));
  const pairs: { checks: boolean; judge: boolean }[] = [];
  const disagreements: Rated[] = [];
  const unrated: Rated[] = [];
  /** What each verdict bought this time cost (one served kept cost nothing). */
  const costs: (number | null)[] = [];
  let done = 0;
  let lastPass: (typeof todo)[number]['pass'] | undefined;
  let evidence: Awaited<ReturnType<typeof readPassEvidence>> | undefined;
  for (const { pass, step } of todo) {
    done += 1;
    const rung = rungs.get(pass.rung)?.rung;
    const own = rung?.steps[step.step];
    if (own === undefined) {
      leave('no rung file with that step');
    } else if (own.checks.some((c) => 'judge' in c)) {
      leave('the step holds a judge check, so its recorded verdict is partly judged');
    } else {
      if (pass !== lastPass) evidence = await readPassEvidence(dir, (lastPass = pass));
      const seen = evidence!.steps.get(oneshot ? 0 : step.step);
      if (seen === undefined || seen.answer === undefined) {
        leave(evidence!.content === 'redacted' ? 'the trace was redacted (--redact content): no text to judge' : 'the trace holds no text to judge');
      } else {
        const id = { rung: pass.rung, arm: pass.arm, pass: pass.pass, step: step.step };
        const verdict = await judge({ rubric, step: { prompt: own.prompt, calls: seen.calls, answer: seen.answer }, at: id });
        if ('unknown' in verdict) {
          unrated.push({ ...id, checks: step.passed, judge: null, why: verdict.unknown });
        } else {
          if (!verdict.cached) costs.push(verdict.costUsd);
          pairs.push({ checks: step.passed, judge: verdict.passed });
          if (verdict.passed !== step.passed) disagreements.push({ ...id, checks: step.passed, judge: verdict.passed, why: verdict.why });
        }
      }
    }
    options.progress?.(done, todo.length);
  }
  return {
    model, rubric, agreement: agreement(pairs), disagreements, unrated,
    leftOut: [...left].map(([why, n]) => `${n} step-run${n === 1 ? '' : 's'}: ${why}`),
    bought: costs.length,
    costUsd: costs.includes(null) ? null : costs.reduce<number>((sum, c) => sum + c!, 0),
  };
}
