// The runner's throughput and memory: every rung, both arms, synthetic agents at time factor
// 0.01, each measurement a fresh `ladder run` process (bench/runnerChild.ts) so its peak RSS
// is its own. Run twice, at `passes` and at `longPasses` per rung and arm: memory that is flat
// as the pass count grows shows the runner keeps nothing per pass (traces stream to disk).
// The figure is the runner process's own memory; each pass's servers are separate processes
// that end with the pass.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface RunnerBenchOptions {
  /** Passes per rung and arm of the main measurement (the 10). */
  passes?: number;
  /**
   * Passes per rung and arm of the memory comparison. 100 (the figure) is 1,800 passes,
   * about half an hour at the measured rate on 2 cores; 30 shows the trend in ten minutes.
   */
  longPasses?: number;
  concurrency?: number;
  timeFactor?: number;
}

export interface RunnerFigures extends Record<string, number> {
  passesPerMinute: number;
  runPeakRssMb: number;
  runnerPasses: number;
  runnerLongPasses: number;
  passesPerMinuteLong: number;
  runPeakRssMbLong: number;
}

interface ChildFigures {
  passes: number;
  ms: number;
  maxRssMb: number;
  code: number;
}

async function measure(passes: number, options: Required<Omit<RunnerBenchOptions, 'longPasses' | 'passes'>>): Promise<ChildFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'ladder-bench-'));
  try {
    const request = { passes, out: join(dir, 'run'), concurrency: options.concurrency, timeFactor: options.timeFactor };
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'bench/runnerChild.ts', JSON.stringify(request)], {
      cwd: ROOT, maxBuffer: 64 * 1024 * 1024,
    });
    const figures = JSON.parse(stdout.trim().split('\n').at(-1)!) as ChildFigures;
    if (figures.code !== 0) throw new Error(`bench runner: ladder run exited ${figures.code}`);
    return figures;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const perMinute = (f: ChildFigures): number => Math.round((f.passes / (f.ms / 60_000)) * 10) / 10;
const mb = (value: number): number => Math.round(value * 10) / 10;

export async function benchRunner(options: RunnerBenchOptions = {}): Promise<RunnerFigures> {
  const settings = { concurrency: options.concurrency ?? 4, timeFactor: options.timeFactor ?? 0.01 };
  const passes = options.passes ?? 10;
  const longPasses = options.longPasses ?? 30;
  const short = await measure(passes, settings);
  const long = await measure(longPasses, settings);
  return {
    passesPerMinute: perMinute(short),
    runPeakRssMb: mb(short.maxRssMb),
    runnerPasses: passes,
    runnerLongPasses: longPasses,
    passesPerMinuteLong: perMinute(long),
    runPeakRssMbLong: mb(long.maxRssMb),
  };
}
