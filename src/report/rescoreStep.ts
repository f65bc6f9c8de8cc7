// One step-run judged again: each check of the current rung step against the step's recorded
// evidence (stepEvidence.ts) and, for `file` and `sql`, the step-end workspace snapshot. The
// step's verdict is decided as the run decides it (src/runner/pass.ts): passed only when the
// step ended by answering and every check passes.
import { normalize, sep } from 'node:path';
import { answerCheckOf, describeCheck, runChecks } from '../rungs/checks.ts';
import type { CheckResult, StepRecord } from '../rungs/checks.ts';
import type { JudgeFn } from '../judge/judge.ts';
import type { Check, Rung } from '../rungs/schema.ts';
import type { UnpackedSnapshot } from '../runner/snapshot.ts';
import type { StepRun } from './passes.ts';
import type { StepEvidence } from './stepEvidence.ts';

/** A check that could not be judged again, and why. */
export interface Unknown {
  unknown: string;
}

export type CheckOutcome = { check: Check; result: CheckResult | Unknown };

/** Where a step's workspace comes from: the unpacked snapshot, or why there is none. */
export type SnapshotSource = () => Promise<UnpackedSnapshot | string>;

export interface StepInput {
  rung: Rung;
  /** The recorded step-run (its reason, verdict and answer time). */
  step: StepRun;
  evidence: StepEvidence;
  snapshot: SnapshotSource;
  /** Why answer checks cannot be judged, when the trace holds no answer text. */
  noText: string;
  /** Why calledWith checks cannot be judged, when the trace holds no call arguments. */
  noArgs: string;
  oneshot: boolean;
  /** What answers judge checks: the run's kept verdicts, and a model when one was given. */
  judge?: JudgeFn;
  /** The step-run, kept with a verdict bought for it. */
  at?: { rung: string; arm: string; pass: number; step: number };
}

export type Decision = { passed: boolean; failed: CheckResult[]; why: string } | { unknown: string[] };

const hasWorkbench = (rung: Rung): boolean => Object.values(rung.servers).some((spec) => 'workbench' in spec);

/** The kept entry a file check's path is, or lies under (a symbolic link, a file over the bounds). */
function leftOut(snapshot: UnpackedSnapshot, path: string): { path: string; why: string } | undefined {
  const normal = normalize(path).split(sep).join('/');
  return snapshot.skipped.find((s) => normal === s.path || normal.startsWith(`${s.path}/`));
}

async function judgeCheck(check: Check, input: StepInput): Promise<CheckResult | Unknown> {
  const { evidence } = input;
  const record: StepRecord = {
    answer: evidence.answer ?? '', calls: evidence.calls, rounds: evidence.rounds, toolsOfferedPerRound: evidence.toolsOfferedPerRound,
    serversConfigured: evidence.serversConfigured, workspace: '',
  };
  if (('answer' in check || 'judge' in check) && evidence.answer === undefined) return { unknown: input.noText };
  if ('judge' in check) {
    // The prompt as the run gave it to the judge: the rung's (a rescore with a changed prompt is new content).
    record.prompt = input.rung.steps[input.step.step]!.prompt;
    if (input.judge !== undefined) record.judge = input.judge;
    if (input.at !== undefined) record.at = input.at;
    const result = (await runChecks([check], record))[0]!;
    return result.unjudged === true ? { unknown: result.why!.replace(/^not judged: /, '') } : result;
  }
  // Without arguments a calledWith is still decided when its tool was never called.
  if ('calledWith' in check && !evidence.callArgs && evidence.calls.some((c) => c.tool === check.calledWith.tool)) return { unknown: input.noArgs };
  // As in a run: a rung without a workbench has no database, and its sql checks fail saying so.
  const database = 'sql' in check && hasWorkbench(input.rung);
  if ('file' in check || database) {
    const found = await input.snapshot();
    if (typeof found === 'string') return { unknown: found };
    if ('file' in check) {
      const gone = leftOut(found, check.file.path);
      if (gone !== undefined) return { unknown: `${gone.path} was not kept (${gone.why})` };
    }
    record.workspace = found.workspace;
    if (database) {
      if (found.databasePath === undefined) {
        const why = found.skipped.find((s) => s.why.startsWith('the database'))?.why;
        return { unknown: `the snapshot holds no database${why === undefined ? '' : ` (${why})`}` };
      }
      record.databasePath = found.databasePath;
    }
  }
  return (await runChecks([check], record))[0]!;
}

export async function judgeChecks(checks: readonly Check[], input: StepInput): Promise<CheckOutcome[]> {
  const outcomes: CheckOutcome[] = [];
  for (const check of checks) outcomes.push({ check, result: await judgeCheck(check, input) });
  return outcomes;
}

/** As the run decides a step; a check not judged again leaves it undecided unless something else fails it. */
export function decide(step: StepRun, outcomes: readonly CheckOutcome[]): Decision {
  const failed = outcomes.flatMap(({ result }) => ('passed' in result && !result.passed ? [result] : []));
  const unknown = outcomes.filter(({ result }) => 'unknown' in result).map(({ check }) => describeCheck(check));
  const reason = step.reason === 'answered' ? undefined : `the step ended: ${step.reason}`;
  if (reason !== undefined || failed.length > 0) return { passed: false, failed, why: reason ?? failed[0]!.why ?? '' };
  if (unknown.length > 0) return { unknown };
  return { passed: true, failed, why: '' };
}

/**
 * When the first response that passes the step's answer checks now came. The run measured it
 * just after that response's event; the recorded time is kept when it is the same response,
 * and another response gives that response's `t`.
 */
export function answeredAtNow(input: StepInput): number | undefined {
  const { rung, step, evidence } = input;
  // One-shot: one run judged against every step, so its answer must pass every step's answer checks.
  const judged = input.oneshot ? rung.steps : [rung.steps[step.step]!];
  const checks = judged.flatMap((s) => answerCheckOf(s.checks) ?? []);
  if (checks.length === 0) return undefined;
  const first = evidence.responses.find((r) => r.text !== undefined && checks.every((passes) => passes(r.text!)));
  if (first === undefined) return undefined;
  const recorded = step.answeredAt === undefined ? undefined : evidence.responses.filter((r) => r.t <= step.answeredAt!).at(-1);
  return recorded === first ? step.answeredAt : first.t;
}
