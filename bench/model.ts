// Passes per minute when the model is the bottleneck: a local OpenAI-compatible server
// (test/helpers/policyServer.ts, through the real `openai` client) answers every request after
// 300 ms, a hosted model's latency, and plays a policy of 20 rounds a pass against a server that
// answers at once (bench/fixtures/answerServer.mjs, plain JavaScript: the workbench's start-up
// through tsx would make it a CPU-bound figure on two cores), so a pass spends about 6 s waiting
// on the model and a small part of a second of the machine's time. Measured at
// --concurrency 1, 4 and 8; then at 8 against the same server answering every third request
// with 429 and `Retry-After: 1`: whether any step errored, whether the run completed, and the
// level the provider's limiter settled at. Each run is in this process, one after another.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { prepareRun } from '../src/runner/prepare.ts';
import { executeRun } from '../src/runner/run.ts';
import { summarizeRun } from '../src/report/summary.ts';
import { PolicyServer } from '../test/helpers/policyServer.ts';
import type { PolicyOptions } from '../test/helpers/policyServer.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ANSWER_DELAY_MS = 300;
const CALLS_PER_STEP = 9; // with the answer, 10 model rounds a step, 20 a pass

const SERVER = fileURLToPath(new URL('fixtures/answerServer.mjs', import.meta.url));

const RUNG = `name: model-bound
description: Read a value and look up a port nine times each; the model is the slow part.
origin: bench fixture
servers:
  fx:
    command: node
    args: [${JSON.stringify(SERVER)}]
steps:
  - prompt: Read the value nine times, then say what it is.
    ceiling: ${CALLS_PER_STEP + 2}
    checks:
      - answer: { mentions: ['42'] }
    reference:
      calls: [{ tool: fx__read }]
      answer: It is 42.
  - prompt: Look up the service configuration nine times, then say its port.
    ceiling: ${CALLS_PER_STEP + 2}
    checks:
      - called: fx__lookup
    reference:
      calls: [{ tool: fx__lookup }]
      answer: The service listens on port 8080.
`;

const POLICY = [
  { calls: Array.from({ length: CALLS_PER_STEP }, () => ({ name: 'fx__read', args: {} })), answer: 'It is 42.' },
  { calls: Array.from({ length: CALLS_PER_STEP }, () => ({ name: 'fx__lookup', args: {} })), answer: 'The service listens on port 8080.' },
];

interface Measured {
  passesPerMinute: number;
  passes: number;
  erroredSteps: number;
  complete: boolean;
  settled: number | undefined;
  throttled: number;
  mostAtOnce: number;
}

async function measure(dir: string, rung: string, concurrency: number, passesPerArm: number, server: PolicyOptions): Promise<Measured> {
  const policy = await PolicyServer.start(POLICY, server);
  const out = join(dir, `c${concurrency}-${server.throttleEvery ?? 0}`);
  try {
    const prepared = await prepareRun(
      { rungs: [rung], model: 'openai:scripted', baseUrl: policy.url, passes: passesPerArm, concurrency, out, timeFactor: 0.01 },
      { cwd: ROOT, env: {} },
    );
    const quiet = new PassThrough();
    quiet.resume();
    const started = performance.now();
    const result = await executeRun(prepared, { progress: quiet, signal: new AbortController().signal });
    const ms = performance.now() - started;
    const summary = await summarizeRun(out);
    const erroredSteps = summary.arms.reduce((sum, arm) => sum + arm.overall.reasons.errored, 0);
    return {
      passesPerMinute: Math.round((result.complete / (ms / 60_000)) * 10) / 10,
      passes: result.complete, erroredSteps, complete: result.status === 'complete',
      settled: result.concurrency?.level, throttled: policy.throttled, mostAtOnce: policy.mostAtOnce,
    };
  } finally {
    await policy.close();
  }
}

export async function benchModel(): Promise<Record<string, number | string>> {
  const dir = mkdtempSync(join(tmpdir(), 'ladder-bench-model-'));
  try {
    const rung = join(dir, 'model-bound.yaml');
    writeFileSync(rung, RUNG);
    const slow = { delayMs: ANSWER_DELAY_MS };
    // Passes grow with the concurrency so each run lasts a few waves of passes, not one.
    const c1 = await measure(dir, rung, 1, 3, slow);
    const c4 = await measure(dir, rung, 4, 8, slow);
    const c8 = await measure(dir, rung, 8, 16, slow);
    const throttled = await measure(dir, rung, 8, 8, { ...slow, throttleEvery: 3, retryAfter: '1' });
    return {
      modelAnswerDelayMs: ANSWER_DELAY_MS,
      modelBoundPassesPerMinuteC1: c1.passesPerMinute,
      modelBoundPassesPerMinuteC4: c4.passesPerMinute,
      modelBoundPassesPerMinuteC8: c8.passesPerMinute,
      // Goal: at least 6.
      modelBoundSpeedupC8: Math.round((c8.passesPerMinute / c1.passesPerMinute) * 100) / 100,
      modelBoundMostRequestsAtOnceC8: c8.mostAtOnce,
      modelBoundErroredStepsUnthrottled: c1.erroredSteps + c4.erroredSteps + c8.erroredSteps,
      throttledPasses: throttled.passes,
      throttledComplete: throttled.complete ? 'yes' : 'no',
      throttledErroredSteps: throttled.erroredSteps,
      throttled429s: throttled.throttled,
      throttledSettledConcurrency: throttled.settled ?? 0,
      throttledPassesPerMinute: throttled.passesPerMinute,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
