// `ladder run`: N passes of each rung on each arm, interleaved, K at a time, each isolated,
// written as they happen. A run can be interrupted (Ctrl-C, or killed outright) and resumed:
// complete passes are kept, incomplete ones made again, none twice.
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { TraceWriter } from '../trace/index.ts';
import { writeManifest } from './manifest.ts';
import type { RunStatus } from './manifest.ts';
import { runPass } from './pass.ts';
import type { PassId } from './plan.ts';
import { planPasses } from './plan.ts';
import type { PreparedRun } from './prepare.ts';
import { createProgress } from './progress.ts';
import { parseShard } from './seeds.ts';
import { createStreak, erroredCause } from './streak.ts';
import { completedPass, removeFile, RUN_LOG, tracePath, workspacesPath } from './store.ts';
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
   * Set when the run stopped itself because passes kept erroring the same way (a provider that
   * is down): how many in a row, and the last one's error. Those passes are left incomplete, so
   * --resume makes them again.
   */
  stopped?: { passes: number; line: string };
}

/** Runs `work` over `items` in order, at most `limit` at a time, starting none once `stop()` says so. */
async function pool<T>(items: readonly T[], limit: number, stop: () => boolean, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length && !stop()) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

export async function executeRun(prepared: PreparedRun, world: ExecuteWorld): Promise<RunResult> {
  const { out, manifest } = prepared;
  const started = performance.now();
  await mkdir(out, { recursive: true });
  await writeManifest(out, { ...manifest, status: 'running' });
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
  }

  const tempRoot = runTempRoot(out, world.tempBase);
  await freshTempRoot(tempRoot);
  const progress = createProgress({
    total: plan.length, done, arms: manifest.arms, stream: world.progress, todo, concurrency: manifest.options.concurrency,
  });
  const errors: string[] = [];
  let complete = plan.length - todo.length;
  // Ctrl-C, or the run stopping itself when a provider keeps failing: passes in flight end alike.
  const giveUp = new AbortController();
  const signal = world.signal === undefined ? giveUp.signal : AbortSignal.any([world.signal, giveUp.signal]);
  const interrupted = () => signal.aborted;
  const streak = createStreak();
  let stopped: RunResult['stopped'];
  try {
    await pool(todo, manifest.options.concurrency, interrupted, async (id) => {
      const loaded = byName.get(id.rung)!;
      const file = tracePath(out, id);
      const passStarted = performance.now();
      try {
        const outcome = await runPass({
          rung: loaded.rung, id, tracePath: file, agent: prepared.agent, timeFactor: prepared.timeFactorOf(loaded),
          mode: manifest.options.mode, tempRoot, signal,
          content: manifest.options.content ?? 'full', secrets: prepared.secrets,
          ...(manifest.options.keepWorkspaces === true ? { snapshots: workspacesPath(out, id) } : {}),
        });
        // A pass that ends as Ctrl-C lands may have seen its servers die of the same signal
        // (a terminal sends it to the whole process group): it is made again, not kept.
        if (outcome.interrupted || interrupted()) {
          await removeFile(file);
          await rm(workspacesPath(out, id), { recursive: true, force: true });
          return;
        }
        complete += 1;
        const errored = erroredCause(outcome);
        progress.passDone(id, {
          passed: outcome.passed, stepsPassed: outcome.steps.filter((s) => s.passed).length, steps: loaded.rung.steps.length,
          ms: performance.now() - passStarted, ...(errored === undefined ? {} : { errored: errored.cause }),
        });
        const streakOver = streak.record(id, errored);
        if (streakOver !== undefined && stopped === undefined) {
          // The streak's passes say only that the provider was down: made again on --resume.
          for (const over of streakOver.ids) await removeFile(tracePath(out, over));
          complete -= streakOver.ids.length;
          stopped = { passes: streakOver.ids.length, line: streakOver.line };
          giveUp.abort();
        }
      } catch (error) {
        // A harness bug in one pass: said, left incomplete (resume makes it again), the run goes on.
        const line = error instanceof Error ? `${error.name}: ${error.message.split('\n')[0]}` : String(error);
        errors.push(`${id.rung} ${id.arm} #${id.pass}: ${line}`);
        progress.passDone(id, { error: line });
      }
    });
  } finally {
    progress.stop();
    await rm(tempRoot, { recursive: true, force: true });
  }
  const status = complete === plan.length ? 'complete' : interrupted() ? 'interrupted' : 'failed';
  await writeManifest(out, { ...manifest, status, endedAt: new Date().toISOString() });
  runLog.emit({ type: 'run.end', status, passes: complete, ms: Math.round(performance.now() - started) });
  return { status, out, complete, planned: plan.length, errors, ...(stopped === undefined ? {} : { stopped }) };
}
