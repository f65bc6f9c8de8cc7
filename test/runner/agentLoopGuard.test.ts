// An external agent's own loop guard is part of what is measured: Qwen Code exits 1 when the model
// repeats an identical call, and no setting switches that off. The pass records it as the agent
// stopping itself, with its message, and the transcript says so, with the call it never made
// marked as such (not as one the harness answered). The agent is a real harness with Qwen Code's
// guard (test/fixtures/agents/loop-guard-agent.mjs) on one step of the dead-browser rung, the
// retrier behind the model gateway re-sending the failed navigation.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAgentFile } from '../../src/agents/file.ts';
import { buildTranscript } from '../../src/report/transcript/build.ts';
import { transcriptView } from '../../src/report/transcript/view.ts';
import { parseRung } from '../../src/rungs/load.ts';
import { agentFactory } from '../../src/runner/agents.ts';
import type { AgentFactory } from '../../src/runner/agents.ts';
import { runPass } from '../../src/runner/pass.ts';
import { readTraceAll } from '../../src/trace/index.ts';
import { removeTempDirs, tempDir } from './helpers.ts';

afterAll(removeTempDirs);

const AGENT = fileURLToPath(new URL('../fixtures/agents/loop-guard-agent.mjs', import.meta.url));
const MESSAGE = /^Loop detection halted the run \(consecutive_identical_tool_calls: /;
// The first step of rungs/review-dead-browser.yaml, on its own: one agent process per test.
const RUNG = parseRung('dead-browser.yaml', `name: dead-browser
description: A review whose browser upstream is dead.
origin: test
servers:
  wb:
    workbench:
      faults: { deadUpstream: true }
setup:
  files:
    review/pr-42.md: 'Rendered artifact: http://site.local/reviews/42.html'
steps:
  - prompt: Does the rendered artifact of review/pr-42.md show the upload banner? Say if you could not check.
    ceiling: 8
    checks:
      - answer: { matches: 'could not' }
    reference:
      calls:
        - tool: wb__files_read
          args: { path: review/pr-42.md }
        - tool: wb__browser_navigate
          args: { url: 'http://site.local/reviews/42.html' }
      answer: I could not check the artifact; the browser upstream is unavailable.
`);
const retrier = agentFactory({ spec: 'synthetic:retrier?p=1', reason: 'test', synthetic: true, policy: 'retrier', p: 1 });

function withGuard(loopGuard: boolean): AgentFactory {
  const file = parseAgentFile('guarded.yaml', JSON.stringify({
    name: 'guarded', kind: 'exec', command: process.execPath, args: [AGENT, '{prompt}', '3'], env: { AGENT_MODEL: '{model}' },
    ...(loopGuard ? { loopGuard: { pattern: '^Loop detection halted the run' } } : {}),
  }));
  return async (input) => ({ ...(await retrier(input)), external: file });
}

async function pass(arm: 'on' | 'off', loopGuard = true) {
  const rung = RUNG;
  const tempRoot = await tempDir('ladder-loop-guard-');
  const tracePath = join(tempRoot, 'trace.jsonl');
  const id = { rung: rung.name, arm, armSlug: arm, pass: 0, seed: 1 };
  // Time factor 0.1: the agent is a Node process per step that loads two SDKs.
  const outcome = await runPass({ rung, id, tracePath, agent: withGuard(loopGuard), timeFactor: 0.1, mode: 'steps', tempRoot });
  const { events } = await readTraceAll(tracePath);
  return { outcome, events };
}

describe("an external agent's own loop guard", () => {
  it('ends the step agent_stopped with its message when the agent stops itself (breaker off: every re-send fails the same)', async () => {
    const { outcome, events } = await pass('off');
    expect(outcome.steps.map((s) => [s.reason, s.passed])).toEqual([['agent_stopped', false]]);
    const end = events.find((e) => e.type === 'step.end');
    expect(end).toMatchObject({ reason: 'agent_stopped', passed: false, error: expect.stringMatching(MESSAGE) });
    // The third identical navigation was asked for and never sent: two reached the lane.
    const navigations = events.filter((e) => e.type === 'tool.call' && e.tool === 'browser_navigate');
    expect(navigations.map((e) => e.type === 'tool.call' && e.outcome)).toEqual(['failed', 'failed']);

    const view = transcriptView(buildTranscript(events)!);
    const step = view.steps[0]!;
    // The fourth round asked for the navigation a third time: three calls made, in four rounds.
    expect(step.end).toMatch(/^the agent stopped itself after 4 rounds and 3 calls, in [\d,.]+ m?s: Loop detection halted the run/);
    expect(view.failure).toMatch(/^step 0: the agent stopped itself: Loop detection halted the run/);
    const last = step.rounds.at(-1)!.calls;
    expect(last.map((c) => [c.outcome, c.status])).toEqual([['not_made', 'not made: the agent stopped itself before making it']]);
    // Every call before it was made, and none reads as answered by the harness.
    const statuses = step.rounds.flatMap((r) => r.calls.map((c) => c.status));
    expect(statuses.filter((s) => s.includes('the harness answered'))).toEqual([]);
  }, 120_000);

  it('is not set off when the breaker refuses the re-send (on): the retrier stops, and the agent answers', async () => {
    const { outcome, events } = await pass('on');
    expect(outcome.steps.map((s) => s.reason)).toEqual(['answered']);
    expect(events.filter((e) => e.type === 'tool.call' && e.tool === 'browser_navigate').map((e) => e.type === 'tool.call' && e.outcome)).toEqual(['failed', 'refused']);
  }, 120_000);

  it('without a loopGuard in the agent file, the same exit is the agent failing', async () => {
    const { outcome, events } = await pass('off', false);
    expect(outcome.steps.map((s) => s.reason)).toEqual(['agent_failed']);
    const view = transcriptView(buildTranscript(events)!);
    expect(view.steps[0]!.rounds.at(-1)!.calls.map((c) => c.status)).toEqual(['not made: the agent failed before making it']);
  }, 120_000);
});
