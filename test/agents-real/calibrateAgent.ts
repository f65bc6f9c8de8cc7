// One real agent on the ladder, the way CI runs every agent: `ladder rungs calibrate --agent` on
// three rungs, both arms of each rung's declared effect, the rung's own synthetic pathology
// behind the model gateway; then what the traces must show whatever the agent: every trace
// whole, a model request in every pass, every step on `on` answered, and the breaker's refusals
// reaching the agent on `on` and not on `off`.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { CALIBRATE_PASSES, calibrate } from '../../src/report/calibrate.ts';
import { listTraces } from '../../src/results/store.ts';
import { readTraceAll } from '../../src/trace/index.ts';
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
 * Codex and codex-acp (a step in 1 to 2.5 s) run the full calibration: a step-pass-rate effect
 * needs 6 discordant pairs of 6 to clear zero, so 7 passes of `config-from-catalog`.
 */
export const FULL: AgentPlan = {
  rungs: ['rungs/review-dead-browser.yaml', 'rungs/config-from-catalog.yaml', 'rungs/fails-twice-then-works.yaml'],
  passes: CALIBRATE_PASSES,
};

/**
 * The agents that take 2 to 12 s of CPU to start each step (Claude Code, Gemini CLI, opencode,
 * Qwen Code, the SDK examples; docs/agent.md) run three rungs whose effects show in few pairs:
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

/** The SDK examples (their start-up is 2 to 4 s of CPU a step) run the quick set too. */
export const SDK: AgentPlan = QUICK;

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
