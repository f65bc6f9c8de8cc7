// The shipped CLI agents on the ladder (agents/*.yaml), each run by Ladder's drivers against both
// gateways on three rungs, both arms of each rung's declared effect, the rung's own synthetic
// pathology behind the model gateway (calibrateAgent.ts says what must hold, and why Codex runs
// more passes than the agents that are slow to start).
import { describe, it } from 'vitest';
import { calibrateAgent, FULL, QUICK } from './calibrateAgent.ts';

const PLANS = { codex: FULL, 'codex-acp': FULL, 'claude-code': QUICK, gemini: QUICK, opencode: QUICK, 'qwen-code': QUICK };

describe.each(Object.entries(PLANS))('%s on three rungs', (agent, plan) => {
  it("shows each rung's declared effect, with whole traces, every step on on answered and the breaker's refusals on on only", async () => {
    await calibrateAgent(agent, agent, plan);
  }, 3_600_000);
});
