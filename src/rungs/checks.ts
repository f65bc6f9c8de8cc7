// A step's checks, judged over what the step did. Each says why it failed, in words a rung
// author can act on. Checks read the pass's workspace and database but never change them.
import { readFile } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import type Database from 'better-sqlite3';
import type { JudgedAt, JudgeFn } from '../judge/judge.ts';
import { calledWithWhy, sequenceWhy } from './callChecks.ts';
import type { Check } from './schema.ts';

/** One tool call the model asked for, whatever the harness did with it. */
export interface StepCall {
  tool: string;
  /** The call key (tool plus canonical arguments): equal keys are identical calls. */
  key: string;
  /**
   * The arguments as the trace records them (the workspace path written `{workspace}`); absent
   * for a call whose arguments were not a JSON object.
   */
  args?: Readonly<Record<string, unknown>>;
  outcome: string;
}

/** What a step did, as the checks see it. */
export interface StepRecord {
  /** The model's final text for the step ('' when it never answered). */
  answer: string;
  calls: readonly StepCall[];
  /** Model requests of the step. */
  rounds: number;
  /** Tools offered on each model request of the step. */
  toolsOfferedPerRound: readonly number[];
  /** Servers configured for the pass: a round offered zero tools only matters when > 0. */
  serversConfigured: number;
  workspace: string;
  /** The workbench database, when the rung has one. */
  databasePath?: string;
  /** The step's prompt, for a judge check ('' or absent when not known). */
  prompt?: string;
  /** What answers judge checks; without it they fail saying there is no judge. */
  judge?: JudgeFn;
  /** Which step-run this is, kept with a verdict bought for it. */
  at?: JudgedAt;
}

export interface CheckResult {
  check: string;
  passed: boolean;
  /** Why it failed; absent when it passed. */
  why?: string;
  /** A judge check's verdict: the model that gave it (every judged verdict is labelled so). */
  judgedBy?: string;
  /** A judge check's verdict bought for this step: what it cost (null: the judge is unpriced); absent when it was served kept. */
  judgeUsd?: number | null;
  /** A judge check no judge answered (`why` says why): a rescore leaves it undecided. */
  unjudged?: true;
}

export async function runChecks(checks: readonly Check[], step: StepRecord): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const check of checks) results.push(await runCheck(check, step));
  return results;
}

export function describeCheck(check: Check): string {
  const [kind, value] = Object.entries(check)[0]!;
  return `${kind} ${JSON.stringify(value)}`;
}

async function runCheck(check: Check, step: StepRecord): Promise<CheckResult> {
  const name = describeCheck(check);
  const fail = (why: string): CheckResult => ({ check: name, passed: false, why });
  const pass: CheckResult = { check: name, passed: true };

  if ('file' in check) {
    const path = insideWorkspace(step.workspace, check.file.path);
    if (path === undefined) return fail(`${check.file.path} is outside the workspace`);
    const text = await readFile(path, 'utf8').catch(() => undefined);
    if (!check.file.exists) return text === undefined ? pass : fail(`${check.file.path} exists but should not`);
    if (text === undefined) return fail(`${check.file.path} does not exist`);
    if (check.file.matches !== undefined && !new RegExp(check.file.matches, 'm').test(text)) {
      return fail(`${check.file.path} does not match /${check.file.matches}/`);
    }
    return pass;
  }
  if ('sql' in check) {
    // `db` names a database file in the workspace (a third-party server's); default the workbench's.
    const databasePath = check.sql.db === undefined ? step.databasePath : join(step.workspace, check.sql.db);
    if (databasePath === undefined) return fail('the rung has no workbench database to query; name the file with db');
    const rows = await queryRows(databasePath, check.sql.query);
    if (typeof rows === 'string') return fail(`the query failed: ${rows}`);
    const got = JSON.stringify(rows);
    return got === JSON.stringify(check.sql.rows) ? pass : fail(`expected rows ${JSON.stringify(check.sql.rows)}, got ${got}`);
  }
  if ('called' in check) {
    return step.calls.some((c) => c.tool === check.called) ? pass : fail(`${check.called} was never called`);
  }
  if ('succeeded' in check) {
    // The work was done, not only asked for: a call that failed, timed out or was refused did not.
    const outcomes = step.calls.filter((c) => c.tool === check.succeeded).map((c) => c.outcome);
    if (outcomes.includes('ok')) return pass;
    return fail(outcomes.length === 0 ? `${check.succeeded} was never called` : `${check.succeeded} never answered ok (${[...new Set(outcomes)].join(', ')})`);
  }
  if ('notCalled' in check) {
    const count = step.calls.filter((c) => c.tool === check.notCalled).length;
    return count === 0 ? pass : fail(`${check.notCalled} was called ${count} time(s)`);
  }
  if ('answer' in check) {
    const why = answerWhy(check.answer, step.answer);
    return why === undefined ? pass : fail(why);
  }
  if ('maxRepeats' in check) {
    const worst = mostRepeated(step.calls);
    return worst.repeats <= check.maxRepeats
      ? pass
      : fail(`${worst.tool} was repeated ${worst.repeats} time(s) with identical arguments (at most ${check.maxRepeats})`);
  }
  if ('calledWith' in check) {
    const why = calledWithWhy(step.calls, check.calledWith.tool, check.calledWith.args);
    return why === undefined ? pass : fail(why);
  }
  if ('sequence' in check) {
    const { tools, strict } = Array.isArray(check.sequence) ? { tools: check.sequence, strict: false } : check.sequence;
    const why = sequenceWhy(step.calls, tools, strict);
    return why === undefined ? pass : fail(why);
  }
  if ('maxCalls' in check) {
    const made = step.calls.length;
    return made <= check.maxCalls ? pass : fail(`${made} tool call(s) were made (at most ${check.maxCalls})`);
  }
  if ('judge' in check) {
    if (step.judge === undefined) return { ...fail('not judged: judge checks are answered by a model, and none was given here'), unjudged: true };
    const verdict = await step.judge({
      rubric: check.judge.rubric, ...(check.judge.model === undefined ? {} : { model: check.judge.model }),
      step: { prompt: step.prompt ?? '', calls: step.calls, answer: step.answer }, ...(step.at === undefined ? {} : { at: step.at }),
    });
    if ('unknown' in verdict) return { ...fail(`not judged: ${verdict.unknown}`), unjudged: true };
    const judged = { judgedBy: verdict.model, ...(verdict.cached ? {} : { judgeUsd: verdict.costUsd }) };
    return verdict.passed ? { ...pass, ...judged } : { ...fail(`judged by ${verdict.model}: ${verdict.why}`), ...judged };
  }
  if ('maxRounds' in check) {
    return step.rounds <= check.maxRounds ? pass : fail(`${step.rounds} model request(s) were made (at most ${check.maxRounds})`);
  }
  // noZeroToolRounds: a round offered no tools while servers are configured cannot be
  // answered correctly by construction (docs/incidents.md, "A tool-list cache nobody could read").
  const zero = step.toolsOfferedPerRound.filter((n) => n === 0).length;
  return step.serversConfigured === 0 || zero === 0 ? pass : fail(`${zero} round(s) were offered no tools`);
}

type AnswerCheck = Extract<Check, { answer: unknown }>['answer'];

/** Why a text fails one answer check, or undefined when it passes. */
function answerWhy(check: AnswerCheck, answer: string): string | undefined {
  const { matches, mentions = [] } = check;
  if (answer === '') return 'the step ended without an answer';
  if (matches !== undefined && !new RegExp(matches, 'i').test(answer)) return `the answer does not match /${matches}/i`;
  const missing = mentions.filter((m) => !answer.toLowerCase().includes(m.toLowerCase()));
  return missing.length === 0 ? undefined : `the answer does not mention ${missing.map((m) => JSON.stringify(m)).join(', ')}`;
}

/**
 * Whether a text would already pass every answer check of a step (the time-to-answer metric's
 * "first response that would pass"); undefined when the step has no answer check.
 */
export function answerCheckOf(checks: readonly Check[]): ((text: string) => boolean) | undefined {
  const answers = checks.flatMap((check) => ('answer' in check ? [check.answer] : []));
  if (answers.length === 0) return undefined;
  return (text) => answers.every((check) => answerWhy(check, text) === undefined);
}

/** The call repeated most often after its first ask: repeats = identical calls - 1. */
export function mostRepeated(calls: readonly StepCall[]): { tool: string; repeats: number } {
  const counts = new Map<string, { tool: string; n: number }>();
  for (const call of calls) {
    const entry = counts.get(call.key) ?? { tool: call.tool, n: 0 };
    entry.n += 1;
    counts.set(call.key, entry);
  }
  let worst = { tool: '', repeats: 0 };
  for (const { tool, n } of counts.values()) if (n - 1 > worst.repeats) worst = { tool, repeats: n - 1 };
  return worst;
}

/** The file's full path when it is the workspace or under it; a name like `..notes` is under it. */
function insideWorkspace(workspace: string, path: string): string | undefined {
  const root = resolve(workspace);
  const full = resolve(root, path);
  return full === root || full.startsWith(root + sep) ? full : undefined;
}

async function queryRows(databasePath: string, query: string): Promise<unknown[][] | string> {
  // The native binding is loaded by the first sql check, not by every command that loads rungs.
  const { default: Database } = await import('better-sqlite3');
  let db: Database.Database | undefined;
  try {
    // Read-only: a check never changes the database, and never creates one that is not there.
    db = new Database(databasePath, { readonly: true });
    return db.prepare(query).raw(true).all() as unknown[][];
  } catch (error) {
    return (error as Error).message;
  } finally {
    db?.close();
  }
}
