// One measured `ladder run` for bench/runner.ts, in a process of its own: every rung, both
// arms, synthetic:mix. Prints one JSON line: passes made, wall ms, peak RSS of this process.
import { PassThrough } from 'node:stream';
import { runLadder } from '../src/cli/runLadder.ts';
import { listTraces } from '../src/runner/store.ts';

const request = JSON.parse(process.argv[2] ?? '{}') as { passes: number; out: string; concurrency: number; timeFactor: number };
const quiet = new PassThrough();
quiet.resume();
const started = performance.now();
const code = await runLadder(
  { model: 'synthetic:mix', passes: request.passes, out: request.out, concurrency: request.concurrency, timeFactor: request.timeFactor },
  { stdout: () => undefined, progress: quiet, signal: new AbortController().signal },
);
const ms = performance.now() - started;
const passes = (await listTraces(request.out)).length;
// resourceUsage().maxRSS is in kilobytes: the peak of this process's whole life, which is the run.
process.stdout.write(`${JSON.stringify({ passes, ms, maxRssMb: process.resourceUsage().maxRSS / 1024, code })}\n`);
