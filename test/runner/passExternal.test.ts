// A pass run by an external agent (`--agent`): the steps go to the agent through the pass's
// gateways, and the pass records and judges them as it does the built-in loop's. The agents
// here are shell one-liners behind the exec driver: one that answers, one that fails.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAgentFile } from '../../src/agents/file.ts';
import { emptyTraceTally, readPasses } from '../../src/report/passes.ts';
import type { PassRecord } from '../../src/report/passes.ts';
import { parseRung } from '../../src/rungs/load.ts';
import { agentFactory } from '../../src/runner/agents.ts';
import type { AgentFactory } from '../../src/runner/agents.ts';
import { runPass } from '../../src/runner/pass.ts';
import { buildTranscript } from '../../src/report/transcript/build.ts';
import { transcriptView } from '../../src/report/transcript/view.ts';
import { readTraceAll } from '../../src/trace/index.ts';
import { removeTempDirs, tempDir } from './helpers.ts';

afterAll(removeTempDirs);

const RUNG = parseRung('r.yaml', `name: r
description: d
origin: test
servers:
  wb:
    workbench: {}
steps:
  - prompt: say alpha
    ceiling: 3
    checks: [{ answer: { mentions: [alpha] } }]
    reference:
      calls: []
      answer: alpha
`);
const id = { rung: 'r', arm: 'on', armSlug: 'on', pass: 0, seed: 3 };
const synthetic = agentFactory({ spec: 'synthetic:reference', reason: 'test', synthetic: true, policy: 'reference' });

function withAgent(script: string): AgentFactory {
  const file = parseAgentFile('sh.yaml', `name: sh\nkind: exec\ncommand: sh\nargs: ['-c', ${JSON.stringify(script)}, '{prompt}']\n`);
  return async (input) => ({ ...(await synthetic(input)), external: file });
}

describe('a pass run by an external agent', () => {
  it('judges the answer the agent printed, with the step ended answered', async () => {
    const tempRoot = await tempDir('ladder-pass-external-');
    const tracePath = join(tempRoot, 'trace.jsonl');
    const outcome = await runPass({ rung: RUNG, id, tracePath, agent: withAgent('echo alpha'), timeFactor: 0.01, mode: 'steps', tempRoot });
    expect(outcome).toEqual({ passed: true, interrupted: false, steps: [{ step: 0, passed: true, reason: 'answered', checks: [{ check: expect.any(String), passed: true }] }] });
    const { events } = await readTraceAll(tracePath);
    expect(events.map((e) => e.type)).toEqual(['pass.start', 'step.start', 'tools.list', 'step.end', 'pass.end']);
    expect(events[3]).toMatchObject({ reason: 'answered', passed: true, agentStartupMs: expect.any(Number) });
  });

  it("records what the agent said beside its answer on step.end, and the transcript's step line shows it", async () => {
    const tempRoot = await tempDir('ladder-pass-external-');
    const tracePath = join(tempRoot, 'trace.jsonl');
    await runPass({ rung: RUNG, id, tracePath, agent: withAgent('echo "warning: the disk is nearly full" >&2; echo alpha'), timeFactor: 0.01, mode: 'steps', tempRoot });
    const { events } = await readTraceAll(tracePath);
    expect(events.find((e) => e.type === 'step.end')).toMatchObject({ reason: 'answered', agentNotes: ['warning: the disk is nearly full'] });
    expect(transcriptView(buildTranscript(events)!).steps[0]!.end).toMatch(/^answered after .*; passed; the agent noted: warning: the disk is nearly full$/);
  });

  it("fails the step with the agent's own line, which is not a provider's error", async () => {
    const tempRoot = await tempDir('ladder-pass-external-');
    const tracePath = join(tempRoot, 'trace.jsonl');
    const outcome = await runPass({ rung: RUNG, id, tracePath, agent: withAgent('echo broken >&2; exit 3'), timeFactor: 0.01, mode: 'steps', tempRoot });
    expect(outcome.passed).toBe(false);
    expect(outcome.error).toBeUndefined();
    expect(outcome.steps).toEqual([{ step: 0, passed: false, reason: 'agent_failed', checks: [{ check: expect.any(String), passed: false, why: expect.any(String) }] }]);
    const { events } = await readTraceAll(tracePath);
    const end = events.find((e) => e.type === 'step.end');
    expect(end).toMatchObject({ reason: 'agent_failed', passed: false, error: expect.stringContaining('3') });
  });

  it("splits the step into the agent's start-up, the model, the tools and the rest, adding up to the step", async () => {
    const tempRoot = await tempDir('ladder-pass-external-');
    const tracePath = join(tempRoot, 'trace.jsonl');
    // The example harness behind a 1 s start: the synthetic model answers it through the gateway.
    const slow = new URL('../fixtures/agents/slow-agent.mjs', import.meta.url).pathname;
    const file = parseAgentFile('slow.yaml', `name: slow\nkind: exec\ncommand: ${process.execPath}\nargs: [${JSON.stringify(slow)}, '{prompt}']\nenv: {FAKE_STARTUP_MS: '1000'}\n`);
    const agent: AgentFactory = async (input) => ({ ...(await synthetic(input)), external: file });
    const outcome = await runPass({ rung: RUNG, id, tracePath, agent, timeFactor: 0.01, mode: 'steps', tempRoot });
    expect(outcome.passed).toBe(true);
    const passes: PassRecord[] = [];
    await readPasses(tempRoot, tracePath, emptyTraceTally(), (p) => passes.push(p));
    const step = passes[0]!.steps[0]!;
    const { startupMs, modelMs, toolMs, otherMs } = step.time;
    // Start-up ends at the first model request, not at the first output (which came at the end).
    expect(step.agentStartupMs).toBeGreaterThanOrEqual(1_000);
    expect(startupMs).toBe(step.agentStartupMs);
    expect(startupMs).toBeLessThan(step.ms);
    expect(modelMs).toBeGreaterThan(0);
    expect(toolMs).toBe(0);
    expect(otherMs).toBeGreaterThan(0);
    expect(startupMs + modelMs + toolMs + otherMs).toBeCloseTo(step.ms, 6);
  }, 60_000);
});
