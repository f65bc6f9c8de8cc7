// Progress: a bar on a terminal (passes done of total, clean passes so far per arm, elapsed,
// ETA), one plain line per finished pass anywhere else (CI logs, pipes, tests).
import cliProgress from 'cli-progress';
import type { PassId } from './plan.ts';
import { passLabel } from './plan.ts';

export interface Progress {
  /**
   * A pass ended: `passed` when every step passed; `errored` (the cause, in a few words) when a
   * provider or the harness ended it, not the model. `{ error }` is a pass that could not be
   * made at all.
   */
  passDone(id: PassId, result: PassResult | { error: string }): void;
  stop(): void;
}

export interface PassResult {
  passed: boolean;
  stepsPassed: number;
  steps: number;
  ms: number;
  errored?: string;
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

function resultText(r: PassResult): string {
  if (r.errored !== undefined) return `errored (${r.errored}) after ${seconds(r.ms)}`;
  return `${r.passed ? 'passed' : 'failed'} (${r.stepsPassed}/${r.steps} steps, ${seconds(r.ms)})`;
}

/**
 * A duration as `45s`, `3m05s` or `1h02m`: rounded once, to the unit shown, before it is split,
 * so a minute never reads `3m60s` (cli-progress rounds the seconds after splitting).
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '?';
  const total = Math.round(ms / 1000);
  if (total < 60) return `${total}s`;
  if (total < 3600) return `${Math.floor(total / 60)}m${String(total % 60).padStart(2, '0')}s`;
  const minutes = Math.round(ms / 60_000);
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}

/**
 * Time left: each rung's remaining passes at that rung's mean pass time so far (one rung can be
 * a hundred times slower than another: jobs-past-the-cap waits in real time), a rung with none
 * done yet at the mean of all passes, the sum shared by the passes that run at once.
 * Undefined until a pass has ended.
 */
export function estimateLeftMs(remaining: ReadonlyMap<string, number>, times: ReadonlyMap<string, readonly number[]>, concurrency: number): number | undefined {
  const all = [...times.values()].flat();
  if (all.length === 0) return undefined;
  const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  const overall = mean(all);
  let work = 0;
  for (const [rung, left] of remaining) {
    const done = times.get(rung);
    work += left * (done === undefined || done.length === 0 ? overall : mean(done));
  }
  const running = Math.max(1, Math.min(concurrency, [...remaining.values()].reduce((s, n) => s + n, 0)));
  return work / running;
}

export interface ProgressInput {
  total: number;
  /** Passes already complete (resume), per arm: [clean, done]. */
  done: Map<string, { clean: number; done: number }>;
  arms: readonly string[];
  stream: NodeJS.WritableStream & { isTTY?: boolean };
  /** The passes still to make, for the ETA; none given, no ETA. */
  todo?: readonly PassId[];
  concurrency?: number;
  now?: () => number;
  /** What the run has spent and how many passes it runs at once now, when there is something to say. */
  status?: () => string;
}

function tallyText(arms: readonly string[], tally: Map<string, { clean: number; done: number }>): string {
  return arms.map((arm) => {
    const t = tally.get(arm) ?? { clean: 0, done: 0 };
    return `${arm} ${t.clean}/${t.done}`;
  }).join(', ');
}

export function createProgress(input: ProgressInput): Progress {
  const tally = new Map(input.done);
  const status = (): string => {
    const text = input.status?.() ?? '';
    return text === '' ? '' : ` | ${text}`;
  };
  const count = () => [...tally.values()].reduce((sum, t) => sum + t.done, 0);
  const record = (id: PassId, clean: boolean): void => {
    const t = tally.get(id.arm) ?? { clean: 0, done: 0 };
    tally.set(id.arm, { clean: t.clean + (clean ? 1 : 0), done: t.done + 1 });
  };
  const remaining = new Map<string, number>();
  for (const id of input.todo ?? []) remaining.set(id.rung, (remaining.get(id.rung) ?? 0) + 1);
  const times = new Map<string, number[]>();
  const timed = (id: PassId, ms: number): void => {
    remaining.set(id.rung, Math.max(0, (remaining.get(id.rung) ?? 1) - 1));
    times.set(id.rung, [...(times.get(id.rung) ?? []), ms]);
  };
  const eta = (): string => {
    const left = estimateLeftMs(remaining, times, input.concurrency ?? 1);
    return left === undefined ? 'ETA after the first pass' : `ETA ${formatDuration(left)}`;
  };
  if (input.stream.isTTY === true) {
    const now = input.now ?? Date.now;
    const started = now();
    const bar = new cliProgress.SingleBar({
      stream: input.stream,
      // {elapsed} and {left} are ours: cli-progress's own {eta_formatted} reads `3m60s`, and
      // {eta} is a built-in name a payload cannot override.
      format: 'passes {bar} {value}/{total} | clean so far: {arms}{status} | {elapsed} elapsed, {left}',
      hideCursor: true,
    }, cliProgress.Presets.shades_classic);
    const payload = () => ({ arms: tallyText(input.arms, tally), status: status(), elapsed: formatDuration(now() - started), left: eta() });
    bar.start(input.total, count(), payload());
    // The elapsed time moves between passes too.
    const tick = setInterval(() => bar.update(count(), payload()), 1000);
    tick.unref();
    // A single bar cannot print above itself; harness errors wait until it stops.
    const errors: string[] = [];
    return {
      passDone(id, result) {
        if ('error' in result) errors.push(`pass ${passLabel(id)}: ${result.error}`);
        else {
          record(id, result.passed);
          timed(id, result.ms);
          if (result.errored !== undefined) errors.push(`pass ${passLabel(id)} errored: ${result.errored}`);
        }
        bar.update(count(), payload());
      },
      stop: () => {
        clearInterval(tick);
        bar.stop();
        for (const line of errors) input.stream.write(`${line}\n`);
      },
    };
  }
  const write = (line: string) => input.stream.write(`${line}\n`);
  return {
    passDone(id, result) {
      if ('error' in result) {
        write(`pass ${passLabel(id)}: ${result.error}`);
        return;
      }
      record(id, result.passed);
      write(`[${count()}/${input.total}] ${passLabel(id)} ${resultText(result)} | clean so far: ${tallyText(input.arms, tally)}${status()}`);
    },
    stop: () => undefined,
  };
}
