// Progress: a bar on a terminal (passes done of total, clean passes so far per arm, elapsed,
// ETA), one plain line per finished pass anywhere else (CI logs, pipes, tests).
import cliProgress from 'cli-progress';
import type { PassId } from './plan.ts';
import { passLabel } from './plan.ts';

export interface Progress {
  /**
   * A pass ended: `passed` when every step passed; `harnessError` when a server did not start
   * (the pass is complete but errored). `{ error }` is a pass that could not be made at all.
   */
  passDone(id: PassId, result: PassResult | { error: string }): void;
  stop(): void;
}

export interface PassResult {
  passed: boolean;
  stepsPassed: number;
  steps: number;
  ms: number;
  harnessError?: string;
}

function resultText(r: PassResult): string {
  const time = seconds(r.ms);
  if (r.harnessError !== undefined) return `errored (${time}): ${r.harnessError}`;
  return `${r.passed ? 'passed' : 'failed'} (${r.stepsPassed}/${r.steps} steps, ${time})`;
}

export interface ProgressInput {
  total: number;
  /** Passes already complete (resume), per arm: [clean, done]. */
  done: Map<string, { clean: number; done: number }>;
  arms: readonly string[];
  stream: NodeJS.WritableStream & { isTTY?: boolean };
  now?: () => number;
}

function tallyText(arms: readonly string[], tally: Map<string, { clean: number; done: number }>): string {
  return arms.map((arm) => {
    const t = tally.get(arm) ?? { clean: 0, done: 0 };
    return `${arm} ${t.clean}/${t.done}`;
  }).join(', ');
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

export function createProgress(input: ProgressInput): Progress {
  const tally = new Map(input.done);
  const count = () => [...tally.values()].reduce((sum, t) => sum + t.done, 0);
  const record = (id: PassId, clean: boolean): void => {
    const t = tally.get(id.arm) ?? { clean: 0, done: 0 };
    tally.set(id.arm, { clean: t.clean + (clean ? 1 : 0), done: t.done + 1 });
  };
  if (input.stream.isTTY === true) {
    const bar = new cliProgress.SingleBar({
      stream: input.stream,
      format: 'passes {bar} {value}/{total} | clean so far: {arms} | {duration_formatted} elapsed, ETA {eta_formatted}',
      etaBuffer: 20,
      hideCursor: true,
    }, cliProgress.Presets.shades_classic);
    bar.start(input.total, count(), { arms: tallyText(input.arms, tally) });
    // A single bar cannot print above itself; harness errors wait until it stops.
    const errors: string[] = [];
    return {
      passDone(id, result) {
        if ('error' in result) errors.push(`pass ${passLabel(id)}: ${result.error}`);
        else {
          record(id, result.passed);
          if (result.harnessError !== undefined) errors.push(`pass ${passLabel(id)} errored: ${result.harnessError}`);
        }
        bar.update(count(), { arms: tallyText(input.arms, tally) });
      },
      stop: () => {
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
      write(`[${count()}/${input.total}] ${passLabel(id)} ${resultText(result)} | clean so far: ${tallyText(input.arms, tally)}`);
    },
    stop: () => undefined,
  };
}
