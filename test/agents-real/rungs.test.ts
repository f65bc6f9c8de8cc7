// The shipped CLI agents on the ladder (agents/*.yaml): every recipe `ladder agents` calls
// CI-tested (src/agents/tested.ts), and only those, each run by Ladder's drivers against both
// gateways on three rungs, both arms of each rung's declared effect, the rung's own synthetic
// pathology behind the model gateway (calibrateAgent.ts says what must hold, and why Codex runs
// more passes than the agents that are slow to start).
import { describe, expect, it } from 'vitest';
import { CI_TESTED } from '../../src/agents/tested.ts';
import { calibrateAgent, FULL, QUICK } from './calibrateAgent.ts';
import type { AgentPlan } from './calibrateAgent.ts';

const PLANS: Readonly<Record<string, AgentPlan>> = {
  codex: FULL, 'codex-acp': FULL, 'claude-code': QUICK, gemini: QUICK, opencode: QUICK, 'qwen-code': QUICK,
  'claude-code-acp': QUICK, 'gemini-acp': QUICK, 'opencode-acp': QUICK, 'qwen-code-acp': QUICK,
};

it('has a plan for every CI-tested recipe', () => {
  expect(CI_TESTED.filter((agent) => PLANS[agent] === undefined)).toEqual([]);
});

describe.each(CI_TESTED)('%s on three rungs', (agent) => {
  it("shows each rung's declared effect, with whole traces, every step on on answered and the breaker's refusals on on only", async () => {
    await calibrateAgent(agent, agent, PLANS[agent]!);
  }, 3_600_000);
});
