// The runner's throughput and memory: `ladder run` (the built command, as a user runs it) on
// every rung, both arms, synthetic agents at time factor 0.01, concurrency 4, each run a fresh
// process whose peak RSS is its own (bench/fixtures/peakRss.js). Each pass's servers are
// separate processes that end with the pass.
//
// Against it, in the same rounds, its limit: passes cannot come faster than their servers
// start. passesPerMinuteLimit is how many of the least MCP SDK server (one tool,
// bench/fixtures/minimalServer.js, bundled as the workbench is) start, answer `initialize` and
// exit per minute, four at a time as the passes run: what passesPerMinute would be if a pass
// cost one server start and nothing else. Rounds alternate limit and run; each figure is a
// median over rounds.
//
// Run again once at `longPasses` per rung and arm: memory that stays flat as the pass count
// grows shows the runner keeps nothing per pass (traces stream to disk).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listTraces } from '../src/results/store.ts';
import { bundledMinimalServer, ensureBuilt, median, ROOT, round2, timeReady } from './processes.ts';

export interface RunnerBenchOptions {
  /** Passes per rung and arm of the main measurement (the 10). */
  passes?: number;
  /**
   * Passes per rung and arm of the memory comparison. 100 (the figure) is 1,800 passes;
   * 30 shows the trend in a few minutes.
   */
  longPasses?: number;
  /** Paired rounds of limit and run. */
  rounds?: number;
  /** Server starts per measurement of the limit. */
  limitStarts?: number;
  concurrency?: number;
  timeFactor?: number;
}

interface RunFigures {
  passes: number;
  ms: number;
  maxRssMb: number;
}

async function measureRun(passes: number, concurrency: number, timeFactor: number): Promise<RunFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'ladder-bench-'));
  try {
    const out = join(dir, 'run');
    const rssFile = join(dir, 'rss');
    const started = performance.now();
    const child = spawn(process.execPath, [
      '--import', './bench/fixtures/peakRss.js', 'bin/ladder.js', 'run', '--model', 'synthetic:mix', '--passes', String(passes),
      '--time-factor', String(timeFactor), '--concurrency', String(concurrency), '--out', out,
    ], { cwd: ROOT, stdio: 'ignore', env: { ...process.env, LADDER_BENCH_RSS_FILE: rssFile } });
    const [code] = (await once(child, 'exit')) as [number | null];
    const ms = performance.now() - started;
    if (code !== 0) throw new Error(`bench runner: ladder run exited ${code}`);
    return { passes: (await listTraces(out)).length, ms, maxRssMb: Number(readFileSync(rssFile, 'utf8')) / 1024 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Starts of `server` per minute, `concurrency` at a time. */
async function measureLimit(server: string, starts: number, concurrency: number): Promise<number> {
  let next = 0;
  const started = performance.now();
  const worker = async (): Promise<void> => {
    while (next < starts) {
      next += 1;
      await timeReady([server]);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return starts / ((performance.now() - started) / 60_000);
}

const perMinute = (f: RunFigures): number => f.passes / (f.ms / 60_000);

export async function benchRunner(options: RunnerBenchOptions = {}): Promise<Record<string, number>> {
  const { passes = 10, longPasses = 30, rounds = 3, limitStarts = 60, concurrency = 4, timeFactor = 0.01 } = options;
  await ensureBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'ladder-bench-limit-'));
  const server = await bundledMinimalServer(dir);
  const rates: number[] = [];
  const limits: number[] = [];
  const ofLimit: number[] = [];
  const rss: number[] = [];
  let long: RunFigures;
  try {
    for (let r = 0; r < rounds; r += 1) {
      let run: RunFigures;
      let limit: number;
      if (r % 2 === 0) {
        limit = await measureLimit(server, limitStarts, concurrency);
        run = await measureRun(passes, concurrency, timeFactor);
      } else {
        run = await measureRun(passes, concurrency, timeFactor);
        limit = await measureLimit(server, limitStarts, concurrency);
      }
      rates.push(perMinute(run));
      limits.push(limit);
      ofLimit.push(perMinute(run) / limit);
      rss.push(run.maxRssMb);
    }
    long = await measureRun(longPasses, concurrency, timeFactor);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return {
    passesPerMinute: round2(median(rates)),
    passesPerMinuteLimit: round2(median(limits)),
    passesPerMinuteOfLimit: round2(median(ofLimit)),
    runPeakRssMb: round2(median(rss)),
    runnerPasses: passes,
    runnerRounds: rounds,
    runnerLongPasses: longPasses,
    passesPerMinuteLong: round2(perMinute(long)),
    runPeakRssMbLong: round2(long.maxRssMb),
  };
}
