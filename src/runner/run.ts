// `ladder run`: N passes of each rung on each arm, interleaved, K at a time, each isolated,
// written as they happen. A run can be interrupted (Ctrl-C, or killed outright) and resumed:
// complete passes are kept, incomplete ones made again, none twice.
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { AimdState } from '../models/pace.ts';
import { TraceWriter } from '../trace/index.ts';
import { openJudge } from '../judge/judge.ts';
import { CostLimit } from './costLimit.ts';
import type { CostStop, PassCostOf } from './costLimit.ts';
import { writeManifest } from '../results/manifest.ts';
import type { RunStatus } from '../results/manifest.ts';
import { runPass } from './pass.ts';
import type { PassId } from './plan.ts';
import { planPasses } from './plan.ts';
import type { PreparedRun } from './prepare.ts';
import { createProgress } from './progress.ts';
import { PassPool } from './pool.ts';
import { parseShard } from './seeds.ts';
import { createStreak, erroredCause, keepsTraces } from './streak.ts';
import type { Culprit, Errored, StreakStop } from './streak.ts';
import { passCost, spendText } from './spend.ts';
import { completedPass, removeFile, RUN_LOG, tracePath, workspacesPath } from '../results/store.ts';
import { freshTempRoot, runTempRoot } from './workspace.ts';

export interface ExecuteWorld {
  /** Progress: a bar when it is a terminal, plain lines otherwise. */
  progress: NodeJS.WritableStream & { isTTY?: boolean };
  /** Ctrl-C: stop starting passes, abort the ones running. */
  signal?: AbortSignal;
  /** Where pass folders are made; the system's temp dir by default. */
  tempBase?: string;
}

export interface RunResult {
  status: RunStatus;
  out: string;
  /** Passes complete in the folder now, of the planned total. */
  complete: number;
  planned: number;
  /** Passes that hit a harness error (a bug, said in one line each). */
  errors: string[];
  /**
   * Set when the run stopped itself because passes kept erroring: 3 in a row failed by one party
   * (a provider or a server that is down), or every pass it made, whoever failed each. How many,
   * the last one's error, and who failed each. Those passes are left incomplete, so --resume
   * makes them again. `refused`: a server refused Ladder's protocol, which stops the run at once.
   */
  stopped?: { passes: number; line: string; by: Culprit[]; every: boolean; refused?: true };
  /** US dollars spent by the passes complete in the folder (null: the model has no price). */
  spentUsd: number | null;
  /** Set when a response counted had no token count: spentUsd is then a lower bound. */
  spentLowerBound?: true;
  /** Set when --max-cost stopped the run before its next pass (resumable). */
  costStop?: CostStop;
  /** Where the provider's concurrency settled, when the run called one. */
  concurrency?: AimdState;
}

/**
 * Each pass's own signal, all aborted with the run's by one listener. The MCP SDK's connect adds
 * an abort listener to the signal it is given and never removes it: on the run's signal every
 * server start of the run stayed attached, with its client, until the run ended (Node warned
 * at the 11th). One listener, not one a pass, so 16 passes at a time add no warning either.
 */
function passSignals(run: AbortSignal): { open: () => { signal: AbortSignal; close: () => void }; dispose: () => void } {
  const live = new Set<AbortController>();
  const abortAll = () => { for (const controller of live) controller.abort(run.reason); };
  run.addEventListener('abort', abortAll, { once: true });
  return {
    open: () => {
      const controller = new AbortController();
      if (run.aborted) controller.abort(run.reason);
      else live.add(controller);
      return { signal: controller.signal, close: () => live.delete(controller) };
    },
    dispose: () => run.removeEventListener('abort', abortAll),
  };
}

export async function executeRun(prepared: PreparedRun, world: ExecuteWorld): Promise<RunResult> {
  const { out, manifest } = prepared;
  const started = performance.now();
  await mkdir(out, { recursive: true });
  await writeManifest(out, { ...manifest, status: 'running' });
  const judge = await openJudge(prepared.judge);
  using runLog = TraceWriter.open(join(out, RUN_LOG), { startedAt: started });
  runLog.emit({
    type: 'run.start', runId: manifest.runId, time: new Date().toISOString(), ladderVersion: manifest.ladderVersion,
    'gen_ai.request.model': manifest.model.spec, arms: manifest.arms, passes: manifest.passes, seed: manifest.seed,
    rungs: manifest.rungs.map((r) => r.name), content: manifest.options.content ?? 'full',
    ...(manifest.replay === undefined ? {} : { replayOf: manifest.replay.runId }),
  });

  const byName = new Map(prepared.rungs.map((loaded) => [loaded.rung.name, loaded]));
  const plan = planPasses({
    rungs: manifest.rungs.map((r) => r.name), arms: manifest.arms, passes: manifest.passes, seed: manifest.seed,
    shard: manifest.options.shard === null ? undefined : parseShard(manifest.options.shard),
  });
  const done = new Map<string, { clean: number; done: number }>();
  const todo: PassId[] = [];
  const { pricing, pace } = prepared;
  // What the passes already made spent (a resumed run), for the progress line and --max-cost.
  // A rung with judge checks spent on its judges too, whatever the run's model costs.
  const hasJudge = (rung: string): boolean => byName.get(rung)!.rung.steps.some((step) => step.checks.some((check) => 'judge' in check));
  const earlier: PassCostOf[] = [];
  for (const id of plan) {
    const file = tracePath(out, id);
    const end = await completedPass(file);
    if (end === undefined) {
      await removeFile(file);
      todo.push(id);
      continue;
    }
    const t = done.get(id.arm) ?? { clean: 0, done: 0 };
    done.set(id.arm, { clean: t.clean + (end.passed ? 1 : 0), done: t.done + 1 });
    const cost = await passCost(file, pricing, hasJudge(id.rung));
    if (cost !== null) earlier.push({ rung: id.rung, ...cost });
  }
  // The run's one running total (null: the model has no price, so there is none, nor a limit).
  const spending = pricing.status === 'unpriced' ? undefined : new CostLimit(prepared.maxCost, earlier);

  const tempRoot = runTempRoot(out, world.tempBase);
  await freshTempRoot(tempRoot);
  const progress = createProgress({
    total: plan.length, done, arms: manifest.arms, stream: world.progress, todo, concurrency: manifest.options.concurrency,
    status: () => spendText(pricing, spending, pace),
  });
  const errors: string[] = [];
  let complete = plan.length - todo.length;
  // Ctrl-C, or the run stopping itself when a provider keeps failing: passes in flight end alike.
  const giveUp = new AbortController();
  const signal = world.signal === undefined ? giveUp.signal : AbortSignal.any([world.signal, giveUp.signal]);
  const interrupted = () => signal.aborted;
  const streak = createStreak();
  let stopped: RunResult['stopped'];
  const keyOf = (id: PassId): string => `${id.rung}\u0000${id.arm}\u0000${id.pass}`;
  /** Passes this run made and counted complete (a harness error's pass is not). */
  const counted = new Set<string>();
  /**
   * The passes of a stop say only that something was down: made again on --resume (what they
   * spent stays counted: those calls were paid for).
   */
  const stop = async (over: StreakStop, every: boolean): Promise<void> => {
    for (const [i, id] of over.ids.entries()) {
      if (keepsTraces(over.by[i]!)) continue;
      await removeFile(tracePath(out, id));
      await rm(workspacesPath(out, id), { recursive: true, force: true });
      if (counted.delete(keyOf(id))) complete -= 1;
    }
    stopped = { passes: over.ids.length, line: over.line, by: over.by, every, ...(over.refused === true ? { refused: true as const } : {}) };
  };
  // Start a pass when the provider's level (or the fixed concurrency) has room and the cost
  // limit admits it; a rising level, a pass ending or a stop asks again.
  const pool = new PassPool<PassId>((id, running) => {
    if (interrupted()) return 'stop';
    if (running >= (pace?.level ?? manifest.options.concurrency)) return 'wait';
    return spending?.admit(keyOf(id), id.rung, running) ?? 'start';
  });
  const streakEnds = async (id: PassId, errored: Errored | undefined): Promise<void> => {
    const over = streak.record(id, errored);
    if (over === undefined || stopped !== undefined) return;
    await stop(over, false);
    giveUp.abort();
  };
  const unsubscribe = pace?.subscribe(() => pool.wake());
  const wake = () => pool.wake();
  signal.addEventListener('abort', wake, { once: true });
  const perPass = passSignals(signal);
  /** What the pass in `file` spent, counted toward the run's spending and its limit. */
  const count = async (id: PassId, file: string): Promise<void> => {
    const cost = await passCost(file, pricing, hasJudge(id.rung));
    if (cost !== null) spending?.finished(keyOf(id), id.rung, cost.usd, cost.missing);
  };
  try {
    await pool.run(todo, async (id) => {
      const loaded = byName.get(id.rung)!;
      const file = tracePath(out, id);
      const passStarted = performance.now();
      const pass = perPass.open();
      try {
        const outcome = await runPass({
          rung: loaded.rung, id, tracePath: file, agent: prepared.agent, timeFactor: prepared.timeFactorOf(loaded),
          mode: manifest.options.mode, tempRoot, signal: pass.signal,
          content: manifest.options.content ?? 'full', secrets: prepared.secrets,
          ...(manifest.options.keepWorkspaces === true ? { snapshots: workspacesPath(out, id) } : {}),
          judge,
        });
        // A pass that ends as Ctrl-C lands may have seen its servers die of the same signal
        // (a terminal sends it to the whole process group): it is made again, not kept.
        if (outcome.interrupted || interrupted()) {
          spending?.released(keyOf(id));
          await removeFile(file);
          await rm(workspacesPath(out, id), { recursive: true, force: true });
          return;
        }
        await count(id, file);
        complete += 1;
        counted.add(keyOf(id));
        const errored = erroredCause(outcome);
        progress.passDone(id, {
          passed: outcome.passed, stepsPassed: outcome.steps.filter((s) => s.passed).length, steps: loaded.rung.steps.length,
          ms: performance.now() - passStarted, ...(errored === undefined ? {} : { errored: errored.cause }),
        });
        await streakEnds(id, errored);
      } catch (error) {
        // A harness bug in one pass: said, left incomplete (resume makes it again), the run goes
        // on unless the bug keeps coming (the streak, as for a provider that is down).
        const line = error instanceof Error ? `${error.name}: ${error.message.split('\n')[0]}` : String(error);
        errors.push(`${id.rung} ${id.arm} #${id.pass}: ${line}`);
        // Its model calls were made, and paid for, even if the pass is made again.
        await count(id, file).catch(() => spending?.released(keyOf(id)));
        progress.passDone(id, { error: line });
        await streakEnds(id, { cause: line, line, by: 'ladder' });
      } finally {
        pass.close();
      }
    });
  } finally {
    unsubscribe?.();
    signal.removeEventListener('abort', wake);
    perPass.dispose();
    progress.stop();
    await rm(tempRoot, { recursive: true, force: true });
  }
  // Every pass it made errored, whatever the mix of who failed them (fewer than three, or the
  // parties took turns): the run stops as the streak would have, never "complete".
  const every = stopped === undefined && !interrupted() ? streak.everyErrored() : undefined;
  if (every !== undefined) await stop(every, true);
  const costStop = spending?.stopped;
  // A stop that kept its passes (a diverged replay) still made them all: not complete all the same.
  const status = complete === plan.length && stopped === undefined ? 'complete' : interrupted() || costStop !== undefined || stopped !== undefined ? 'interrupted' : 'failed';
  await writeManifest(out, { ...manifest, status, endedAt: new Date().toISOString() });
  runLog.emit({ type: 'run.end', status, passes: complete, ms: Math.round(performance.now() - started) });
  return {
    status, out, complete, planned: plan.length, errors, spentUsd: spending?.spentUsd ?? null,
    ...(spending?.lowerBound === true ? { spentLowerBound: true as const } : {}), ...(stopped === undefined ? {} : { stopped }),
    ...(costStop === undefined ? {} : { costStop }), ...(pace === undefined ? {} : { concurrency: pace.state }),
  };
}
