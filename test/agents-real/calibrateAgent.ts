// One real agent on the ladder, the way CI runs every agent: `ladder rungs calibrate --agent` on
// three rungs, both arms of each rung's declared effect, the rung's own synthetic pathology
// behind the model gateway; then what the traces must show whatever the agent: every trace
// whole, a model request in every pass, every step on `on` answered, and the breaker's refusals
// reaching the agent on `on` and not on `off`.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { calibrate } from '../../src/report/calibrate.ts';
import { listTraces } from '../../src/results/store.ts';
import { readTraceAll } from '../../src/trace/index.ts';
import type { TraceEvent } from '../../src/trace/index.ts';
import { stepsNotCarried } from '../helpers/continuity.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const OUT = fileURLToPath(new URL('../../.cache/agents-real/', import.meta.url));

export interface AgentPlan {
  rungs: readonly string[];
  passes: number;
  timeFactor?: number;
  concurrency?: number;
}

/**
 * The acp recipes (each starts its agent once a pass; docs/build.md says why the exec ones run the
 * continuity check instead) run three rungs whose effects show in few pairs:
 * two dead-call effects (a count: every pair of a p = 1 pathology differs the same way, so three
 * pairs give an interval clear of zero), one on Ladder's workbench and one on a third-party
 * server (mcp-server-sqlite refusing a write sent to its read-only tool), and the breaker's
 * control. Not `everything-sum-correction`: Claude Code, Gemini CLI and Qwen Code check a call's
 * arguments against the tool's schema before sending it, so numbers sent as strings never reach
 * the server and neither arm has a dead call to count. Three passes a rung and arm keep the
 * real-agent step of `.ci/run` inside its budget (docs/build.md). Their step limits run at half
 * the rung's: a start-up slowed by a loaded 2-core machine is no part of what is measured, and
 * these rungs have no step that waits, so a larger limit costs no time unless an agent hangs.
 */
export const QUICK: AgentPlan = {
  rungs: ['rungs/review-dead-browser.yaml', 'rungs/sqlite-write-through-query.yaml', 'rungs/fails-twice-then-works.yaml'],
  passes: 3,
  timeFactor: 0.5,
  concurrency: 2,
};

/**
 * The recipes whose steps run as separate conversations, and why: for these the suite checks that
 * every step after the first was read as not carrying the earlier ones (so every report says so),
 * for every other recipe and the examples that every one was read as carrying them.
 */
export const SEPARATE_CONVERSATIONS: Readonly<Record<string, string>> = {
  gemini: "Gemini CLI 0.61.0's --resume re-sends each tool result twice, which the Gemini API refuses (agents/gemini.yaml)",
};

export async function calibrateAgent(name: string, agent: string, plan: AgentPlan): Promise<void> {
  const out = join(OUT, `calibrate-${name}-${Date.now()}`);
  const rows = await calibrate({
    rungs: [...plan.rungs], cwd: ROOT, agent, out, passes: plan.passes, progress: process.stderr,
    ...(plan.timeFactor === undefined ? {} : { timeFactor: plan.timeFactor }),
    ...(plan.concurrency === undefined ? {} : { concurrency: plan.concurrency }),
  });
  expect(rows.map((r) => `${r.rung}: ${r.ok ? 'ok' : 'NOT THERE'} (${r.text})`)).toEqual(rows.map((r) => `${r.rung}: ok (${r.text})`));
  const refused = new Map<string, number>();
  const endsOnOn: string[] = [];
  const silent: string[] = [];
  const notCarried: string[] = [];
  const separate = SEPARATE_CONVERSATIONS[name];
  let laterSteps = 0;
  const folder = join(out, 'arms-0');
  const traces = await listTraces(folder);
  expect(traces).toHaveLength(plan.rungs.length * 2 * plan.passes);
  for (const path of traces) {
    const { events } = await readTraceAll(join(folder, 'traces', path));
    const start = events[0];
    expect(start?.type).toBe('pass.start');
    expect(events.at(-1)?.type).toBe('pass.end');
    if (start?.type !== 'pass.start') continue;
    const key = `${start.rung}/${start.arm}`;
    refused.set(key, (refused.get(key) ?? 0) + events.filter((e) => e.type === 'tool.call' && e.outcome === 'refused').length);
    const requests = events.filter((e) => e.type === 'model.request').length;
    const ends = events.flatMap((e) => (e.type === 'step.end' ? [`${key}#${start.pass} step ${e.step}: ${e.reason}`] : []));
    if (requests === 0) silent.push(`${ends.join(', ')} (no model request)`);
    expect(events.filter((e) => e.type === 'model.response').length).toBe(requests);
    // A recipe that runs separate conversations does its later steps without the earlier ones: the
    // policy then takes each for the first (externalNames.ts) and need not answer it; its first
    // steps must.
    if (start.arm === 'on') endsOnOn.push(...ends.filter((line) => separate === undefined || / step 0: /.test(line)));
    notCarried.push(...stepsNotCarried(events));
    laterSteps += events.filter((e) => e.type === 'step.end' && e.step > 0 && e.carried !== undefined).length;
  }
  // One conversation a pass: each step's first request carried the earlier steps' prompts and tool
  // results, read from what the agent sent (and the synthetic policy was shown only what it carried).
  expect(laterSteps).toBeGreaterThan(0);
  expect(notCarried.length, notCarried.join('\n')).toBe(separate === undefined ? 0 : laterSteps);
  expect(silent).toEqual([]);
  expect(endsOnOn.length).toBeGreaterThanOrEqual(plan.rungs.length * plan.passes);
  expect(endsOnOn.filter((line) => !line.endsWith(': answered'))).toEqual([]);
  expect(refused.get('review-dead-browser/on')).toBeGreaterThan(0);
  expect(refused.get('review-dead-browser/off')).toBe(0);
}

/** The continuity check's rung: three steps, each leaning on what the earlier ones found. */
export const CONTINUITY_RUNG = 'rungs/config-from-catalog.yaml';

/**
 * The continuity check, for the recipes that start their agent at every step (the exec recipes
 * and the SDK examples; docs/build.md says why they run this and not the quick set): one pass of
 * a three-step rung on arm `on`, the reference policy behind the model gateway, through `ladder
 * run` as a user runs it. Step k's first request must carry step k-1's prompt and tool results
 * (read from what the agent sent, and the policy shown only what it carried), so every step is
 * answered; a recipe listed in SEPARATE_CONVERSATIONS must instead be read as not carrying them
 * on every later step, so every report says so.
 */
export async function continuityCheck(name: string, agent: string): Promise<void> {
  const out = join(OUT, `continuity-${name}-${Date.now()}`);
  const run = await promisify(execFile)(process.execPath, [
    join(ROOT, 'bin', 'ladder.js'), 'run', CONTINUITY_RUNG, '--agent', agent, '--arms', 'on', '--passes', '1', '--model', 'synthetic:reference', '--out', out,
  ], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 }).catch((error: { stderr?: string; message: string }) => ({ stderr: error.stderr ?? error.message }));
  const { events } = await readTraceAll(join(out, 'traces', 'config-from-catalog', 'on', '0.jsonl')).catch(() => ({ events: [] as TraceEvent[] }));
  const ends = events.flatMap((e) => (e.type === 'step.end' ? [e] : []));
  expect(ends.map((e) => e.step), run.stderr).toEqual([0, 1, 2]);
  expect(events.at(-1)?.type).toBe('pass.end');
  const separate = SEPARATE_CONVERSATIONS[name];
  expect(ends.slice(1).map((e) => e.carried)).toEqual(separate === undefined ? [true, true] : [false, false]);
  if (separate === undefined) expect(stepsNotCarried(events)).toEqual([]);
  // Steps after the first need what the earlier ones found: only a recipe that keeps the conversation answers them.
  const answered = ends.filter((e) => separate === undefined || e.step === 0).map((e) => `${e.step}: ${e.reason} ${e.passed}`);
  expect(answered).toEqual(separate === undefined ? ['0: answered true', '1: answered true', '2: answered true'] : ['0: answered true']);
}
